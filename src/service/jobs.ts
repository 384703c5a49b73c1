/**
 * Facade for background jobs (§11): queueing, the activity view, retry and cancel, running a job
 * in this process while the user waits (the CLI's `graph rebuild` and `maintain`), and the worker
 * loop of long-lived processes.
 */
import { EngramError, notFound } from '../domain/errors.js';
import type { ItemFailure, JobData, JobKind, JobRecord, JobState, NewJob } from '../domain/jobs.js';
import {
  groupItemFailures,
  groupJobFailures,
  type ItemFailureGroup,
  type JobFailureGroup,
  type JobView,
  jobView,
} from '../jobs/activity.js';
import type { JobRunner } from '../jobs/runner.js';
import type { JobWorker, WorkerState } from '../jobs/worker.js';
import type { JobStore } from '../store/job-store.js';
import { callbackArg, objectArg, optionsArg, stringArg } from './args.js';
import type { ServiceContext } from './context.js';
import { queueJob } from './job-parts.js';

/** Filter of a job listing. */
export interface JobListOptions {
  states?: JobState[];
  kinds?: JobKind[];
  /** Only jobs of this space (and jobs over the whole store). */
  space?: string;
  limit?: number;
  cursor?: string;
}

/** The activity view: counts, what runs, and failures grouped. */
export interface JobActivity {
  counts: Record<JobState, number>;
  /** Running jobs, with age, duration and whether their process stopped. */
  running: JobView[];
  /** Queued jobs, the next due first (at most 50). */
  queued: JobView[];
  /** The latest finished jobs (succeeded, failed or cancelled), newest first (at most 10). */
  recent: JobView[];
  /** Identical failures of jobs, grouped (from the latest 500 failed jobs). */
  failures: JobFailureGroup[];
  /** Identical failures of single items' work, grouped (from the latest 1000). */
  item_failures: ItemFailureGroup[];
  /** This process's worker, when it runs one. */
  worker: WorkerState | null;
}

/** The jobs facade. */
export interface JobsFacade {
  /** Queues a job, or returns the waiting job that does the same work. */
  enqueueJob(job: NewJob): Promise<{ job: JobView; created: boolean }>;
  /** Jobs, newest first. */
  jobs(options?: JobListOptions): Promise<{ jobs: JobView[]; next_cursor: string | null }>;
  /** One job (NOT_FOUND when absent). */
  job(id: string): Promise<JobView>;
  /** Queues a failed or cancelled job again with a fresh attempt budget. */
  retryJob(id: string): Promise<JobView>;
  /** Cancels a queued job; asks a running one to stop at its next checkpoint. */
  cancelJob(id: string): Promise<JobView>;
  /** Job counts by state and this process's worker (cheap: for health checks and status). */
  jobSummary(): Promise<{ counts: Record<JobState, number>; worker: WorkerState | null }>;
  /** Counts, running and queued jobs, grouped failures, and this process's worker. */
  jobActivity(options?: { space?: string }): Promise<JobActivity>;
  /** Items whose background work failed, newest first. */
  itemFailures(options?: { space?: string; limit?: number }): Promise<ItemFailure[]>;
  /** Makes failed items due again (all of a space, or these ids); returns how many. */
  retryItemFailures(options?: { space?: string; ids?: string[] }): Promise<number>;
  /**
   * Queues a job (or joins the waiting one) and runs it in this process until it ends, reporting
   * its checkpoints; when another process runs it, waits for it to end instead.
   */
  runJobHere(job: NewJob, onProgress?: (progress: JobData) => void): Promise<JobView>;
  /** This process's job worker (built on first use; started by the caller). */
  jobWorker(): JobWorker;
}

/** What the facade runs on. */
export interface JobsParts {
  runner: JobRunner;
  worker: () => JobWorker;
  /** The worker when one was built, for the activity view. */
  workerState: () => WorkerState | null;
}

const DEFAULT_LIMIT = 50;

function jobStore(ctx: ServiceContext): JobStore {
  const jobs = ctx.store.jobs;
  if (!jobs)
    throw new EngramError('CONFLICT', 'this store keeps no background jobs', {
      rule: 'a store with jobs',
    });
  return jobs;
}

function checkLimit(limit: number | undefined, max = 1_000): number {
  const n = limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new EngramError('INVALID_INPUT', `limit: must be an integer from 1 to ${max}`, {
      field: 'limit',
      rule: `1..${max}`,
    });
  return n;
}

/** The jobs facade over a context. */
export function jobsFacade(ctx: ServiceContext, parts: JobsParts | undefined): JobsFacade {
  const view = (job: JobRecord) => jobView(job, Date.now());
  const spaces = (space: string | undefined) =>
    space === undefined ? undefined : [ctx.space(space)];
  const facade: JobsFacade = {
    async enqueueJob(job) {
      const { job: record, created } = await queueJob(ctx, objectArg(job, 'job'));
      return { job: view(record), created };
    },
    async jobs(given) {
      const options = optionsArg(given);
      const page = await jobStore(ctx).listJobs({
        states: options.states,
        kinds: options.kinds,
        spaces: spaces(options.space),
        limit: checkLimit(options.limit),
        cursor: options.cursor,
      });
      return { jobs: page.jobs.map(view), next_cursor: page.next_cursor };
    },
    async job(id) {
      const job = await jobStore(ctx).getJob(stringArg(id, 'id'));
      if (!job) throw notFound('job', id);
      return view(job);
    },
    retryJob: async (id) => view(await jobStore(ctx).retryJob(stringArg(id, 'id'))),
    cancelJob: async (id) => view(await jobStore(ctx).cancelJob(stringArg(id, 'id'))),
    jobSummary: async () => ({
      counts: await jobStore(ctx).jobCounts(),
      worker: parts?.workerState() ?? null,
    }),
    async jobActivity(given) {
      const options = optionsArg(given);
      const store = jobStore(ctx);
      const only = spaces(options.space);
      const list = async (states: JobState[], limit: number) =>
        (await store.listJobs({ states, spaces: only, limit })).jobs;
      const [counts, running, queued, recent, failed, items] = await Promise.all([
        store.jobCounts(),
        list(['running'], 200),
        list(['queued'], 50),
        list(['succeeded', 'failed', 'cancelled'], 10),
        list(['failed'], 500),
        store.listItemFailures({ spaces: only, limit: 1_000 }),
      ]);
      return {
        counts,
        running: running.map(view),
        queued: queued.map(view).sort((a, b) => a.next_attempt_at.localeCompare(b.next_attempt_at)),
        recent: recent.map(view),
        failures: groupJobFailures(failed),
        item_failures: groupItemFailures(items),
        worker: parts?.workerState() ?? null,
      };
    },
    async itemFailures(given) {
      const options = optionsArg(given);
      return jobStore(ctx).listItemFailures({
        spaces: spaces(options.space),
        limit: checkLimit(options.limit),
      });
    },
    async retryItemFailures(given) {
      const options = optionsArg(given);
      return jobStore(ctx).retryItemFailures({
        spaces: spaces(options.space),
        itemIds: options.ids,
      });
    },
    async runJobHere(job, onProgress) {
      const report = callbackArg(onProgress);
      const { job: queued } = await queueJob(ctx, objectArg(job, 'job'));
      return runUntilEnded(ctx, parts!.runner, queued, report);
    },
    jobWorker: () => (jobStore(ctx), parts!.worker()),
  };
  return facade;
}

/** How often a job run by another process is looked at while waiting for it. */
const WAIT_POLL_MS = 250;

async function runUntilEnded(
  ctx: ServiceContext,
  runner: JobRunner,
  job: JobRecord,
  onProgress?: (progress: JobData) => void,
): Promise<JobView> {
  const store = jobStore(ctx);
  for (;;) {
    const report = await runner.runJob(job.id, onProgress);
    const current = report?.job ?? (await store.getJob(job.id));
    if (!current) throw notFound('job', job.id);
    if (current.state !== 'queued' && current.state !== 'running')
      return jobView(current, Date.now());
    if (current.state === 'queued' && report?.ended === 'failed')
      return jobView(current, Date.now());
    // Held by another process (or not due yet): wait for it.
    if (!report) await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
  }
}
