/**
 * The recall side of the benchmark: one query at a time, as a served client sends them, each
 * recorded with its start (epoch ms), its latency, whether it failed and its `degraded` entries.
 * A short pause between queries stands for the time between requests. The latency counts from
 * when the recall was due (the previous one's end plus the pause), not from when this process
 * got round to sending it: a process whose event loop is held up (a synchronous index build, a
 * busy wait on the database lock) would otherwise send fewer recalls and never show the wait
 * (coordinated omission); the delay in sending is recorded apart.
 */
import type { Engram } from '../../src/app.js';
import { queries } from '../scale/corpus.js';

/**
 * One recall: [due (epoch ms), latency from then (ms), error message or null, degraded reasons,
 * how late it was sent (ms)].
 */
export type RecallSample = [
  at: number,
  ms: number,
  error: string | null,
  degraded: string[],
  lateMs: number,
];

/** A recall loop that runs until stopped. */
export interface RecallLoop {
  /** Resolves with every sample once the loop has stopped. */
  stop(): Promise<RecallSample[]>;
  /** Samples so far. */
  readonly count: number;
}

const QUERY_COUNT = 2_000;

/** The queries of the benchmark (the scale corpus's, seeded). */
export function benchQueries(seed: number): string[] {
  return queries(seed, QUERY_COUNT);
}

const pause = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

const round = (x: number) => Math.round(x * 100) / 100;

/** One timed recall, due at `due` (a performance.now() time; default: now). */
async function sample(engram: Engram, query: string, due?: number): Promise<RecallSample> {
  const t = performance.now();
  const from = due ?? t;
  const at = Date.now() - (t - from);
  const late = round(t - from);
  try {
    const r = await engram.recall({ query, k: 10 });
    const degraded = r.degraded.map((d) => `${d.channel}:${d.reason}`);
    return [Math.round(at), round(performance.now() - from), null, degraded, late];
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return [Math.round(at), round(performance.now() - from), message, [], late];
  }
}

/** Warms the process: the first recall loads the vector mirror and the saved index. */
export async function warmUp(engram: Engram, qs: readonly string[], count: number) {
  const first = await sample(engram, qs[qs.length - 1]!);
  for (let i = 0; i < count; i++) await sample(engram, qs[qs.length - 2 - i]!);
  return { first_ms: first[1], first_degraded: first[3], first_error: first[2] };
}

/** Starts recalling the queries in turn, `thinkMs` apart, until `stop` is called. */
export function startRecallLoop(
  engram: Engram,
  qs: readonly string[],
  thinkMs: number,
): RecallLoop {
  const samples: RecallSample[] = [];
  let stopping = false;
  const run = (async () => {
    let due = performance.now();
    for (let i = 0; !stopping; i++) {
      samples.push(await sample(engram, qs[i % qs.length]!, due));
      // The next one is due after the pause, however late the timer fires.
      due = performance.now() + thinkMs;
      await pause(thinkMs);
    }
  })();
  return {
    get count() {
      return samples.length;
    },
    async stop() {
      stopping = true;
      await run;
      return samples;
    },
  };
}
