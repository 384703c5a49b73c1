/**
 * CLI commands that wait for their work run it as a job in this process (§11): `graph rebuild`
 * and `maintain` queue their job (or join the one already waiting) and run it here, showing its
 * checkpoints, then print what the job's final progress holds. A job that ends failed or
 * cancelled is an error with a non-zero exit code.
 */
import type { Engram } from '../../app.js';
import { EngramError } from '../../domain/errors.js';
import type { JobData } from '../../domain/jobs.js';
import { parseWith } from '../../domain/zod.js';
import type { RebuildReport } from '../../graph/maintainer.js';
import type { JobView } from '../../jobs/activity.js';
import { type MaintainInput, maintainInputSchema } from '../../lifecycle/input.js';
import type { MaintenanceReport } from '../../lifecycle/maintain.js';

/** Called with the `done` count (and `total`, when the job reports one) of each checkpoint. */
export type OnDone = (done: number, total?: number) => void;

const progressOf = (onDone: OnDone | undefined) => (p: JobData) => {
  if (typeof p.done === 'number')
    onDone?.(p.done, typeof p.total === 'number' ? p.total : undefined);
};

/** The job as it ended, or the error its ending means. */
function ended(job: JobView): JobData {
  if (job.state === 'succeeded' && job.progress) return job.progress;
  if (job.state === 'cancelled')
    throw new EngramError('CONFLICT', `job ${job.id} (${job.kind}) was cancelled`, {
      id: job.id,
      rule: 'not cancelled',
    });
  const again =
    job.state === 'queued'
      ? `; queued again (attempt ${job.attempts} of ${job.max_attempts} failed): a worker retries it at ${job.next_attempt_at}`
      : '';
  throw new EngramError(
    'INTERNAL',
    `job ${job.id} (${job.kind}) failed: ${job.last_error ?? 'no error recorded'}${again}`,
    { id: job.id, rule: 'job succeeded' },
  );
}

/** Rebuilds a space's graph from scratch as a `graph.rebuild` job run here. */
export async function rebuildGraphHere(
  engram: Engram,
  space: string | undefined,
  onDone?: OnDone,
): Promise<RebuildReport> {
  const name = space ?? engram.config.space;
  if (!engram.config.graph.enabled)
    throw new EngramError('CONFLICT', 'the knowledge graph is disabled (graph.enabled: false)', {
      field: 'graph.enabled',
      rule: 'true to build the graph',
    });
  const started = performance.now();
  const job = await engram.runJobHere(
    { kind: 'graph.rebuild', space: name, dedupe_key: `graph.rebuild:${name}` },
    progressOf(onDone),
  );
  const p = ended(job);
  const count = (key: string) => (typeof p[key] === 'number' ? p[key] : 0);
  return {
    space: typeof p.space === 'string' ? p.space : name,
    items: count('items'),
    entities: count('entities'),
    edges: count('edges'),
    ms: Math.round(performance.now() - started),
  };
}

/** Runs maintenance (not a dry run) as a `lifecycle.maintain` job run here. */
export async function maintainHere(
  engram: Engram,
  input: MaintainInput,
  onDone?: OnDone,
): Promise<MaintenanceReport> {
  // Checked here, so a bad option is INVALID_INPUT at once rather than a failed job.
  parseWith(maintainInputSchema, input);
  const job = await engram.runJobHere(
    { kind: 'lifecycle.maintain', payload: { ...input }, dedupe_key: 'lifecycle.maintain' },
    progressOf(onDone),
  );
  const report = ended(job).report;
  if (!report || typeof report !== 'object')
    throw new EngramError('INTERNAL', `job ${job.id} (${job.kind}) ended without a report`, {
      id: job.id,
    });
  return report as MaintenanceReport;
}
