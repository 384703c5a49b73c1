/**
 * What the edges add about background jobs (§11) to a status or health answer: the job counts by
 * state and this process's worker. A store that keeps no jobs adds nothing.
 */
import type { Engram } from '../app.js';
import type { JobState } from '../domain/jobs.js';
import type { WorkerState } from '../jobs/worker.js';

/** Job counts and the worker of this process. */
export interface JobsSummary {
  counts: Record<JobState, number>;
  worker: WorkerState | null;
}

/** The job counts and this process's worker, or undefined when the store keeps no jobs. */
export async function jobsSummary(engram: Engram): Promise<JobsSummary | undefined> {
  try {
    return await engram.jobSummary();
  } catch (err) {
    if ((err as { code?: string }).code === 'CONFLICT') return undefined;
    throw err;
  }
}
