/**
 * One worker process of the backfill benchmark: `node --import tsx bench/worker/worker-process.ts
 * '<WorkerSpec as JSON>'`. Opens engram over the store with a counting static embedder, queues the
 * one deduplicated `vectors.backfill` job, runs `engram.jobWorker()` until no item is pending and
 * that job has ended, closes, and prints one JSON line (a `WorkerOutput`) on stdout.
 */
import type { Engram } from '../../src/app.js';
import type { Embedder, EmbedderState } from '../../src/embed/embedder.js';
import { defaultCacheDir, StaticEmbedder } from '../../src/embed/static/static-embedder.js';
import { cacheDir, openEngram, type StoreConfig } from './setup.js';

/** What the parent passes to a worker process. */
export interface WorkerSpec {
  store: StoreConfig;
}

/** What a worker process prints when it ends. */
export interface WorkerOutput {
  pid: number;
  /** Texts this process embedded (through the embedder's `embed`). */
  embedded: number;
  embed_calls: number;
  /** Epoch ms of the first and last `embed` call's end, null when it embedded nothing. */
  first_embed_at: number | null;
  last_embed_at: number | null;
  /** Epoch ms once the embedder was loaded and the worker started. */
  ready_at: number;
  /** Epoch ms when the process saw no pending item and the job ended. */
  done_at: number;
  /** The backfill job: its id, whether this process created it, and its state at the end. */
  job_id: string;
  job_created: boolean;
  job_state: string;
  /** CPU seconds (user + system) of this process from `ready_at` to `done_at`. */
  cpu_s: number;
  /** Jobs this process's worker ran (a claimed run each). */
  runs: number;
  failed_runs: number;
}

/** A StaticEmbedder that counts the texts it embeds. */
class CountingEmbedder implements Embedder {
  readonly modelId: string;
  readonly dimension: number;
  embedded = 0;
  calls = 0;
  first: number | null = null;
  last: number | null = null;

  constructor(private readonly inner: StaticEmbedder) {
    this.modelId = inner.modelId;
    this.dimension = inner.dimension;
  }

  prepare(): Promise<void> {
    return this.inner.prepare();
  }

  async embed(texts: readonly string[]): Promise<(Float32Array | null)[]> {
    const vectors = await this.inner.embed(texts);
    this.embedded += texts.length;
    this.calls++;
    this.last = Date.now();
    this.first ??= this.last;
    return vectors;
  }

  state(): EmbedderState {
    return this.inner.state();
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

const POLL_MS = 100;
const ENDED = new Set(['succeeded', 'failed', 'cancelled']);

/** Waits until the store has no pending item and the job has ended; returns its last state. */
async function untilFilled(engram: Engram, jobId: string): Promise<string> {
  for (;;) {
    const pending = await engram.storeForTransfer.pendingVectors(1);
    const job = await engram.job(jobId);
    if (pending.length === 0 && ENDED.has(job.state)) return job.state;
    if (job.state === 'failed') throw new Error(`the backfill job failed: ${job.last_error}`);
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as WorkerSpec;
  const embedder = new CountingEmbedder(
    new StaticEmbedder({ cacheDir: cacheDir() ?? defaultCacheDir() }),
  );
  const engram = openEngram(spec.store, 'static', embedder);
  try {
    await engram.prepareModels();
    const { job, created } = await engram.enqueueJob({
      kind: 'vectors.backfill',
      dedupe_key: 'vectors.backfill',
    });
    const worker = engram.jobWorker();
    const ready = Date.now();
    const cpu = process.cpuUsage();
    worker.start();
    const state = await untilFilled(engram, job.id);
    const done = Date.now();
    const used = process.cpuUsage(cpu);
    const { runs, failed_runs } = worker.state();
    const output: WorkerOutput = {
      pid: process.pid,
      embedded: embedder.embedded,
      embed_calls: embedder.calls,
      first_embed_at: embedder.first,
      last_embed_at: embedder.last,
      ready_at: ready,
      done_at: done,
      job_id: job.id,
      job_created: created,
      job_state: state,
      cpu_s: Math.round((used.user + used.system) / 10_000) / 100,
      runs,
      failed_runs,
    };
    process.stdout.write(`${JSON.stringify(output)}\n`);
  } finally {
    await engram.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `worker-process failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});
