/**
 * `engram worker`: the job worker alone, in a long-lived process (§11). It opens the service, loads
 * the embedder (for the vector backfill), runs due jobs until SIGTERM or SIGINT and logs one line
 * on stderr per change of the worker's state; on the signal it stops taking jobs, lets the running
 * job reach its next checkpoint (it is queued again), closes the service and exits 0.
 */
import type { Engram } from '../../app.js';
import type { JobWorker, WorkerState } from '../../jobs/worker.js';
import type { GlobalOptions } from './context.js';
import { printable } from './printable.js';

/** How long the running job may take to reach its next checkpoint after the signal. */
const STOP_GRACE_MS = 5_000;
/** How often the worker's state is looked at for the log. */
const WATCH_MS = 200;

function log(line: string): void {
  process.stderr.write(`engram worker: ${printable(line)}\n`);
}

function stateLine(s: WorkerState, json: boolean): string {
  if (json) return JSON.stringify(s);
  const error = s.status === 'failing' && s.last_error ? `: ${s.last_error}` : '';
  return `${s.status}${error} (${s.runs} runs, ${s.failed_runs} failed)`;
}

/** Logs the worker's state whenever its status or its run counts change; returns the stopper. */
function watch(worker: JobWorker, json: boolean): () => void {
  let last = '';
  const look = () => {
    const s = worker.state();
    const key = `${s.status}:${s.runs}:${s.failed_runs}`;
    if (key === last) return;
    last = key;
    log(stateLine(s, json));
  };
  look();
  // Not unref'd: this timer keeps the process alive (the worker's own timers do not).
  const timer = setInterval(look, WATCH_MS);
  return () => {
    clearInterval(timer);
    look();
  };
}

/** Resolves on the first SIGTERM or SIGINT, with its name. */
function signalled(): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
}

async function open(options: GlobalOptions): Promise<Engram> {
  const { createEngram } = await import('../../app.js');
  return createEngram({ configFile: options.config, background: false });
}

/** Runs the worker until a signal; returns the exit code. */
export async function runWorker(options: GlobalOptions): Promise<number> {
  const engram = await open(options);
  try {
    const worker = engram.jobWorker();
    const preparing = engram.prepareModels().catch((err: unknown) => {
      log(`embedder unavailable: vector backfill waits for it (${String(err)})`);
    });
    const { store } = await engram.status();
    log(`started as ${worker.state().holder} on ${store.backend} ${store.location ?? ''}`.trim());
    worker.start();
    const unwatch = watch(worker, options.json ?? false);
    const signal = await signalled();
    log(`${signal}: stopping (a running job stops at its next checkpoint)`);
    await worker.stop(STOP_GRACE_MS);
    unwatch();
    await preparing;
  } finally {
    await engram.close();
  }
  log('store closed');
  return 0;
}
