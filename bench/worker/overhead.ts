/**
 * Job overhead: what the job machinery costs per job when the work itself costs nothing. A
 * `JobRunner` over the store's `jobs` with one no-op handler (kind `graph.catch_up`, returning
 * `{ done: true }` at once) runs `enqueue` + `runNext()` one job at a time; then the store's own
 * `claim` and `finish` are timed apart.
 */
import type { JobKind } from '../../src/domain/jobs.js';
import { silentLogger } from '../../src/domain/log.js';
import { type JobHandler, JobRunner } from '../../src/jobs/runner.js';
import type { JobStore } from '../../src/store/job-store.js';
import { percentile } from '../lib/metrics.js';
import { openEngram, type StoreConfig } from './setup.js';

/** Latency summary in milliseconds. */
export interface Quantiles {
  p50: number;
  p95: number;
  mean: number;
  max: number;
}

/** Everything the overhead measurement reports for one backend. */
export interface OverheadResult {
  backend: 'sqlite' | 'postgres';
  jobs: number;
  warmup: number;
  /** `enqueue` + `runNext()` (claim, handler, finish, and the job read back), per job. */
  per_job_ms: Quantiles;
  enqueue_ms: Quantiles;
  run_next_ms: Quantiles;
  /** The store alone, in a second pass over as many jobs. */
  claim_ms: Quantiles;
  finish_ms: Quantiles;
  /** The p50 target per job (SQLite only; null elsewhere) and whether it was met. */
  target_p50_ms: number | null;
  target_met: boolean | null;
}

const KIND: JobKind = 'graph.catch_up';
const LEASE_MS = 60_000;
/** The p50 target of one no-op job (enqueue + run) on SQLite. */
export const TARGET_P50_MS = 2;

const noop: JobHandler = { kind: KIND, run: async () => ({ done: true }) };

function quantiles(values: readonly number[]): Quantiles {
  const r = (x: number) => Math.round(x * 1_000) / 1_000;
  const sum = values.reduce((a, b) => a + b, 0);
  return {
    p50: r(percentile(values, 50)),
    p95: r(percentile(values, 95)),
    mean: r(sum / values.length),
    max: r(Math.max(...values)),
  };
}

/** Times one async call in milliseconds. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

/** Runs `total` no-op jobs through the runner; returns the times of those after `warmup`. */
async function throughRunner(jobs: JobStore, total: number, warmup: number) {
  const runner = new JobRunner(jobs, [noop], {
    leaseMs: LEASE_MS,
    deadlineMs: LEASE_MS,
    backoff: { baseMs: 1_000, maxMs: 1_000, jitter: 0 },
    log: silentLogger,
  });
  const enqueue: number[] = [];
  const run: number[] = [];
  for (let i = 0; i < total; i++) {
    const queued = await timed(() => jobs.enqueue({ kind: KIND, max_attempts: 1 }));
    const ran = await timed(() => runner.runNext());
    if (ran.value?.ended !== 'succeeded' || ran.value.job.id !== queued.value.job.id)
      throw new Error(`no-op job ${i} did not succeed: ${JSON.stringify(ran.value)}`);
    if (i < warmup) continue;
    enqueue.push(queued.ms);
    run.push(ran.ms);
  }
  return { enqueue, run, total: enqueue.map((e, i) => e + run[i]!) };
}

/** Enqueues, claims and finishes `total` jobs with the store alone; times claim and finish. */
async function throughStore(jobs: JobStore, total: number, warmup: number) {
  const holder = `bench:${process.pid}`;
  const claim: number[] = [];
  const finish: number[] = [];
  for (let i = 0; i < total; i++) {
    await jobs.enqueue({ kind: KIND, max_attempts: 1 });
    const claimed = await timed(() => jobs.claim(holder, { leaseMs: LEASE_MS, kinds: [KIND] }));
    if (!claimed.value) throw new Error(`job ${i} could not be claimed`);
    const id = claimed.value.id;
    const finished = await timed(() => jobs.finish(id, holder, { state: 'succeeded' }));
    if (!finished.value) throw new Error(`job ${i} could not be finished`);
    if (i < warmup) continue;
    claim.push(claimed.ms);
    finish.push(finished.ms);
  }
  return { claim, finish };
}

/** Measures the job overhead on a fresh store. */
export async function measureOverhead(
  backend: OverheadResult['backend'],
  store: StoreConfig,
  count: number,
  warmup: number,
): Promise<OverheadResult> {
  const engram = openEngram(store, 'none');
  try {
    const jobs = engram.storeForTransfer.jobs;
    if (!jobs) throw new Error(`the ${backend} store keeps no jobs`);
    const runner = await throughRunner(jobs, count + warmup, warmup);
    const alone = await throughStore(jobs, count + warmup, warmup);
    const perJob = quantiles(runner.total);
    const target = backend === 'sqlite' ? TARGET_P50_MS : null;
    return {
      backend,
      jobs: count,
      warmup,
      per_job_ms: perJob,
      enqueue_ms: quantiles(runner.enqueue),
      run_next_ms: quantiles(runner.run),
      claim_ms: quantiles(alone.claim),
      finish_ms: quantiles(alone.finish),
      target_p50_ms: target,
      target_met: target === null ? null : perJob.p50 <= target,
    };
  } finally {
    await engram.close();
  }
}
