/**
 * Backfill throughput: fills a fresh store with vector-pending memories, publishes the static
 * model, then starts worker processes at once (bench/worker/worker-process.ts), each queueing the
 * one deduplicated `vectors.backfill` job and running its job worker until nothing is pending.
 * Measures items per second and counts the texts each process embedded (their sum must be N).
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

import type { JobView } from '../../src/jobs/activity.js';
import { openEngram, publishStatic, type StoreConfig, vectorStates } from './setup.js';
import type { WorkerOutput, WorkerSpec } from './worker-process.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const WORKER = join(ROOT, 'bench', 'worker', 'worker-process.ts');
/** A configuration that runs longer than this is killed and reported as failed. */
const TIMEOUT_MS = 30 * 60_000;

/** One worker process as the report shows it (times in seconds from the spawn). */
export interface ProcessResult {
  pid: number;
  embedded: number;
  embed_calls: number;
  job_created: boolean;
  runs: number;
  failed_runs: number;
  /** CPU seconds of the process while its worker ran (from ready to done). */
  cpu_s: number;
  ready_s: number;
  first_embed_s: number | null;
  last_embed_s: number | null;
  done_s: number;
  exit_s: number;
}

/** The backfill job(s) as the store recorded them. */
export interface JobSummary {
  id: string;
  state: string;
  attempts: number;
  last_error: string | null;
  lease_holder: string | null;
  /** From the first run's start to the finish, per the store's clock. */
  duration_s: number | null;
  progress: unknown;
}

/** One configuration: a backend and a number of worker processes. */
export interface BackfillResult {
  backend: 'sqlite' | 'postgres';
  processes: number;
  items: number;
  /** Writing the items without an embedder; publishing the static model over them. */
  fill_s: number;
  publish_s: number;
  pending_before: number;
  /** From the spawn to the last process's exit (process start and model load included). */
  wall_s: number;
  /** From the first to the last embedding call in any process (the filling itself). */
  embed_window_s: number;
  items_per_s: { wall: number; embed_window: number; job: number | null };
  embedded_total: number;
  /** True when the texts embedded over all processes equal the items: none embedded twice. */
  embedded_once: boolean;
  vectors_after: Record<string, number>;
  jobs: JobSummary[];
  per_process: ProcessResult[];
}

const seconds = (ms: number) => Math.round(ms / 10) / 100;
const rate = (items: number, s: number | null) => (s && s > 0 ? Math.round(items / s) : null);

/** Spawns one worker process; resolves with its output and its exit time (epoch ms). */
function runWorker(spec: WorkerSpec): Promise<{ output: WorkerOutput; exitAt: number }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(spec)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      const exitAt = Date.now();
      const line = stdout.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{'))
        return fail(new Error(`worker process exited ${code}: ${stderr.slice(-2_000)}`));
      if (stderr.trim()) process.stderr.write(`worker ${child.pid} stderr: ${stderr.trim()}\n`);
      done({ output: JSON.parse(line) as WorkerOutput, exitAt });
    });
  });
}

/** The process's facts with times relative to the spawn. */
function processResult(o: WorkerOutput, exitAt: number, t0: number): ProcessResult {
  const rel = (t: number | null) => (t === null ? null : seconds(t - t0));
  return {
    pid: o.pid,
    embedded: o.embedded,
    embed_calls: o.embed_calls,
    job_created: o.job_created,
    runs: o.runs,
    failed_runs: o.failed_runs,
    cpu_s: o.cpu_s,
    ready_s: rel(o.ready_at)!,
    first_embed_s: rel(o.first_embed_at),
    last_embed_s: rel(o.last_embed_at),
    done_s: rel(o.done_at)!,
    exit_s: rel(exitAt)!,
  };
}

function jobSummary(job: JobView): JobSummary {
  const start = job.started_at ? Date.parse(job.started_at) : null;
  const end = job.finished_at ? Date.parse(job.finished_at) : null;
  return {
    id: job.id,
    state: job.state,
    attempts: job.attempts,
    last_error: job.last_error,
    lease_holder: job.lease_holder,
    duration_s: start !== null && end !== null ? seconds(end - start) : null,
    progress: job.progress,
  };
}

/** The backfill jobs of the store, oldest first. */
async function backfillJobs(store: StoreConfig): Promise<JobSummary[]> {
  const engram = openEngram(store, 'none');
  try {
    const page = await engram.jobs({ kinds: ['vectors.backfill'], limit: 100 });
    return page.jobs.reverse().map(jobSummary);
  } finally {
    await engram.close();
  }
}

/** The embedding window: first to last `embed` call over all processes. */
function embedWindow(outputs: readonly WorkerOutput[]): number {
  const firsts = outputs.map((o) => o.first_embed_at).filter((t): t is number => t !== null);
  const lasts = outputs.map((o) => o.last_embed_at).filter((t): t is number => t !== null);
  return firsts.length ? seconds(Math.max(...lasts) - Math.min(...firsts)) : 0;
}

/**
 * Measures one configuration over a store already filled with `items` pending memories
 * (`fill_s` seconds to write): publishes the model, starts `processes` workers at once, and
 * checks the result.
 */
export async function measureBackfill(
  backend: BackfillResult['backend'],
  store: StoreConfig,
  items: number,
  processes: number,
  fillSeconds: number,
): Promise<BackfillResult> {
  const published = await publishStatic(store);
  const t0 = Date.now();
  const ran = await Promise.all(Array.from({ length: processes }, () => runWorker({ store })));
  const wallS = seconds(Math.max(...ran.map((r) => r.exitAt)) - t0);
  const outputs = ran.map((r) => r.output);
  const embeddedTotal = outputs.reduce((sum, o) => sum + o.embedded, 0);
  const jobs = await backfillJobs(store);
  const windowS = embedWindow(outputs);
  const jobS = jobs.reduce((sum, j) => sum + (j.duration_s ?? 0), 0) || null;
  return {
    backend,
    processes,
    items,
    fill_s: fillSeconds,
    publish_s: published.seconds,
    pending_before: published.vectors.pending ?? 0,
    wall_s: wallS,
    embed_window_s: windowS,
    items_per_s: {
      wall: rate(items, wallS)!,
      embed_window: rate(items, windowS) ?? 0,
      job: rate(items, jobS),
    },
    embedded_total: embeddedTotal,
    embedded_once: embeddedTotal === items,
    vectors_after: await vectorStates(store),
    jobs,
    per_process: ran.map((r) => processResult(r.output, r.exitAt, t0)),
  };
}
