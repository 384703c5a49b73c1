/**
 * The doctor's jobs check: failed jobs, jobs left running by a process that stopped, queued jobs
 * long overdue (no worker runs them), and items whose background work gave up. It reads the store
 * only when the store check found it there and current, so it never creates or migrates one.
 */
import { silentLogger } from '../../domain/log.js';
import { jobView } from '../../jobs/activity.js';
import type { JobStore } from '../../store/job-store.js';
import { openStore } from '../../store/open.js';
import { engramCommand } from './command-line.js';
import type { Check, DoctorContext, Finding } from './types.js';

/** A queued job due longer ago than this waits for a worker nobody runs. */
const OVERDUE_MS = 10 * 60_000;

/** Jobs and item failures read at most. */
const READ_LIMIT = 1_000;

/** Whether the store check found a sound store that opening will neither create nor migrate. */
function storeReady(ctx: DoctorContext): boolean {
  const s = ctx.store;
  if (!s) return false;
  const sound =
    s.backend === 'sqlite'
      ? s.state === 'opened' && (s.problems ?? []).length === 0
      : s.state === 'connected' && s.pgvectorEnabled !== null;
  return sound && s.schemaVersion === s.latestVersion;
}

interface JobFacts {
  counts: Record<string, number>;
  orphaned: number;
  overdue: number;
  exhaustedItems: number;
}

async function readFacts(jobs: JobStore): Promise<JobFacts> {
  const now = Date.now();
  const counts = await jobs.jobCounts();
  const running = (await jobs.listJobs({ states: ['running'], limit: READ_LIMIT })).jobs;
  const queued = (await jobs.listJobs({ states: ['queued'], limit: READ_LIMIT })).jobs;
  const items = await jobs.listItemFailures({ limit: READ_LIMIT });
  return {
    counts,
    orphaned: running.filter((j) => jobView(j, now).orphaned).length,
    overdue: queued.filter((j) => now - Date.parse(j.next_attempt_at) > OVERDUE_MS).length,
    exhaustedItems: items.filter((f) => f.next_attempt_at === null).length,
  };
}

/** The first problem worth a warning, with what to do about it. */
function problem(ctx: DoctorContext, f: JobFacts): { finding: string; fix: string } | undefined {
  const failed = f.counts.failed ?? 0;
  if (failed > 0)
    return {
      finding: `${failed} failed job${failed === 1 ? '' : 's'}`,
      fix: `${engramCommand(ctx, 'jobs --state failed')} (why), then ${engramCommand(ctx, 'jobs retry JOB_ID')}`,
    };
  if (f.orphaned > 0)
    return {
      finding: `${f.orphaned} job${f.orphaned === 1 ? ' was' : 's were'} left running by a process that stopped (lease expired)`,
      fix: `${engramCommand(ctx, 'worker')} (or engram serve) takes them over`,
    };
  if (f.overdue > 0)
    return {
      finding: `${f.overdue} queued job${f.overdue === 1 ? ' has' : 's have'} waited over ${OVERDUE_MS / 60_000} minutes: no worker is running`,
      fix: `${engramCommand(ctx, 'worker')}, or engram serve (which runs one)`,
    };
  if (f.exhaustedItems > 0)
    return {
      finding: `${f.exhaustedItems} item${f.exhaustedItems === 1 ? '' : 's'} whose background work (an embedding, say) gave up`,
      fix: `${engramCommand(ctx, 'jobs')} (why), then ${engramCommand(ctx, 'jobs retry --items')}`,
    };
  return undefined;
}

const summary = (counts: Record<string, number>) =>
  ['queued', 'running', 'succeeded', 'failed', 'cancelled']
    .map((state) => `${counts[state] ?? 0} ${state}`)
    .join(', ');

/** Reads the job table of an existing, current store. */
export const jobsCheck: Check = async (ctx): Promise<Finding> => {
  if (!storeReady(ctx))
    return { status: 'ok', finding: 'not read: no sound, current store to read (see store)' };
  const store = openStore(ctx.config!, silentLogger);
  try {
    if (!store.jobs) return { status: 'ok', finding: 'this store keeps no background jobs' };
    const facts = await readFacts(store.jobs);
    const details = {
      counts: facts.counts,
      orphaned: facts.orphaned,
      overdue: facts.overdue,
      exhausted_items: facts.exhaustedItems,
    };
    const found = problem(ctx, facts);
    if (found) return { status: 'warn', ...found, details };
    return { status: 'ok', finding: `jobs: ${summary(facts.counts)}`, details };
  } finally {
    await store.close();
  }
};
