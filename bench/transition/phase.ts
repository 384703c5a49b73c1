/**
 * One process of the transition benchmark: `node --import tsx bench/transition/phase.ts '<Phase>'`.
 * - `build`: fills a new store (base of every scenario);
 * - `rebuild`: one timed transition (bench/transition/rebuild.ts), then optionally direct swaps;
 *   on PostgreSQL, statements running over a second meanwhile are recorded (pg-watch.ts);
 * - `serve`: recalls in a loop, as `engram serve` answers, until a `stop` line on stdin;
 * - `inproc`: recalls in a loop while the same process runs the transition, as `engram serve`
 *   does when its own job worker picks the rebuild up.
 * Prints `@@ready <json>` once serving (serve) and `@@result <json>` at the end.
 */
import { createInterface } from 'node:readline';

import { watchStatements } from './pg-watch.js';
import { directSwaps, timedRebuild } from './rebuild.js';
import { benchQueries, startRecallLoop, warmUp } from './recall-loop.js';
import { buildBase, openBench, type OpenOptions, type StoreConfig } from './setup.js';

/** What the orchestrator asks a process to do. */
export type Phase =
  | { phase: 'build'; store: StoreConfig; n: number; seed: number }
  | {
      phase: 'rebuild';
      store: StoreConfig;
      open: OpenOptions;
      choice: string;
      /** After the transition, swap back and forth this many times (0: none). */
      swapRounds: number;
    }
  | { phase: 'serve'; store: StoreConfig; open: OpenOptions; seed: number; thinkMs: number }
  | {
      phase: 'inproc';
      store: StoreConfig;
      open: OpenOptions;
      seed: number;
      thinkMs: number;
      choice: string;
      baselineMs: number;
      afterMs: number;
    };

/** Recalls run to warm a serving process before it reports ready. */
const WARM_RECALLS = 50;

const emit = (tag: string, value: unknown): void => {
  process.stdout.write(`@@${tag} ${JSON.stringify(value)}\n`);
};
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
const rssMb = () => Math.round(process.memoryUsage().rss / 1e6);

/** The slow-statement watch of a PostgreSQL store, or a no-op. */
async function watch(store: StoreConfig) {
  if (store.backend !== 'postgres' || !store.url) return { stop: async () => null };
  return watchStatements(store.url);
}

async function rebuild(p: Extract<Phase, { phase: 'rebuild' }>) {
  const engram = openBench(p.store, p.open);
  const watcher = await watch(p.store);
  try {
    await engram.prepareModels();
    const timing = await timedRebuild(engram, p.choice);
    const status = await engram.modelsStatus();
    const swaps =
      p.swapRounds > 0 && timing.previous
        ? await directSwaps(engram, [timing.previous, timing.model], p.swapRounds)
        : [];
    return {
      timing,
      published_after: status.published?.id ?? null,
      direct_swaps: swaps,
      rss_mb: rssMb(),
      slow_statements: await watcher.stop(),
    };
  } finally {
    await watcher.stop();
    await engram.close();
  }
}

/** Resolves at the first `stop` line on stdin (or when stdin closes). */
function stopSignal(): Promise<void> {
  return new Promise((done) => {
    const lines = createInterface({ input: process.stdin });
    lines.on('line', (line) => line.trim() === 'stop' && done());
    lines.on('close', () => done());
  });
}

async function serve(p: Extract<Phase, { phase: 'serve' }>) {
  const engram = openBench(p.store, p.open);
  try {
    await engram.prepareModels();
    const qs = benchQueries(p.seed);
    const warm = await warmUp(engram, qs, WARM_RECALLS);
    const stop = stopSignal();
    const loop = startRecallLoop(engram, qs, p.thinkMs);
    emit('ready', { ...warm, at: Date.now(), rss_mb: rssMb() });
    await stop;
    const samples = await loop.stop();
    return { warm, samples, rss_mb: rssMb() };
  } finally {
    await engram.close();
  }
}

async function inproc(p: Extract<Phase, { phase: 'inproc' }>) {
  const engram = openBench(p.store, p.open);
  try {
    await engram.prepareModels();
    const qs = benchQueries(p.seed);
    const warm = await warmUp(engram, qs, WARM_RECALLS);
    const loop = startRecallLoop(engram, qs, p.thinkMs);
    const baselineFrom = Date.now();
    await sleep(p.baselineMs);
    const rebuildAt = Date.now();
    const timing = await timedRebuild(engram, p.choice);
    await sleep(p.afterMs);
    const samples = await loop.stop();
    return {
      warm,
      samples,
      baseline_from: baselineFrom,
      rebuild_at: rebuildAt,
      timing,
      rss_mb: rssMb(),
    };
  } finally {
    await engram.close();
  }
}

async function main(): Promise<void> {
  const p = JSON.parse(process.argv[2] ?? '{}') as Phase;
  switch (p.phase) {
    case 'build':
      return emit('result', await buildBase(p.store, p.n, p.seed));
    case 'rebuild':
      return emit('result', await rebuild(p));
    case 'serve':
      return emit('result', await serve(p));
    case 'inproc':
      return emit('result', await inproc(p));
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `transition phase failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});
