/**
 * One timed transition through the library API: `useModel` (loads the new model's embedder,
 * marks it the target and queues the `models.rebuild` job), then `runJobHere` runs the job in this
 * process until the swap. The store's `models.swap` is wrapped, so every swap call the rebuild
 * makes is timed where it happens (the final one publishes; the check and the publication are one
 * transaction). Times are epoch milliseconds, so another process's recall can be placed on them.
 */
import type { Engram } from '../../src/app.js';
import type { SwapResult } from '../../src/domain/models.js';
import type { ModelStore } from '../../src/store/model-store.js';

/** One call of the store's swap. */
export interface SwapCall {
  started_at: number;
  ms: number;
  swapped: boolean;
  missing: number;
}

/** The new model's index build before the swap (`models.prepareIndex`), when the engine has one. */
export interface IndexCall {
  started_at: number;
  ms: number;
  built: boolean;
}

/** What one transition measured. */
export interface RebuildTiming {
  /** The choice given to `useModel` and the model id it resolved to. */
  choice: string;
  model: string;
  previous: string | null;
  action: string;
  /** `useModel`: the new embedder's load, the target mark, the job queued. */
  use_ms: number;
  /** Epoch ms: `runJobHere` called, first checkpoint, last swap call started and ended, job ended. */
  started_at: number;
  first_checkpoint_at: number | null;
  swap_started_at: number | null;
  swap_ended_at: number | null;
  ended_at: number;
  job_state: string;
  passes: number;
  embedded: number;
  failed: number;
  checkpoints: number;
  /** Index builds before the swap (one per rebuild). */
  index_calls: IndexCall[];
  /** Seconds from `runJobHere` until the vectors were filled (the index build or the swap began). */
  fill_s: number | null;
  /** Items embedded per second while filling. */
  items_per_s: number | null;
  /** Items per second from `runJobHere` to the job's end (swap included). */
  items_per_s_with_swap: number | null;
  swap_calls: SwapCall[];
  /** CPU seconds (user + system) of this process from `useModel` to the job's end. */
  cpu_s: number;
}

/** Times every call of `models.swap` on the store instance the service uses. */
function wrapSwap(models: ModelStore, calls: SwapCall[]): () => void {
  const original = models.swap;
  models.swap = async (model: string, at: number): Promise<SwapResult> => {
    const startedAt = Date.now();
    const t = performance.now();
    const result = await original.call(models, model, at);
    calls.push({
      started_at: startedAt,
      ms: Math.round((performance.now() - t) * 100) / 100,
      swapped: result.swapped,
      missing: result.missing,
    });
    return result;
  };
  return () => {
    models.swap = original;
  };
}

/** Times every call of `models.prepareIndex`, when the store has it. */
function wrapIndex(models: ModelStore, calls: IndexCall[]): () => void {
  const target = models as ModelStore & {
    prepareIndex?: (model: string, dimension: number) => Promise<boolean>;
  };
  const original = target.prepareIndex;
  if (!original) return () => undefined;
  target.prepareIndex = async (model: string, dimension: number): Promise<boolean> => {
    const startedAt = Date.now();
    const t = performance.now();
    const built = await original.call(models, model, dimension);
    calls.push({ started_at: startedAt, ms: Math.round(performance.now() - t), built });
    return built;
  };
  return () => {
    target.prepareIndex = original;
  };
}

const rate = (items: number, ms: number | null) =>
  ms !== null && ms > 0 ? Math.round(items / (ms / 1000)) : null;

/** Moves the store to `choice` and runs the rebuild here until it ends. */
export async function timedRebuild(engram: Engram, choice: string): Promise<RebuildTiming> {
  const models = engram.storeForTransfer.models;
  if (!models) throw new Error('this store keeps no model records');
  const calls: SwapCall[] = [];
  const indexCalls: IndexCall[] = [];
  const unwrapSwap = wrapSwap(models, calls);
  const unwrapIndex = wrapIndex(models, indexCalls);
  const cpu = process.cpuUsage();
  try {
    const previous = (await engram.modelsStatus()).published?.id ?? null;
    const t = performance.now();
    const used = await engram.useModel({ model: choice });
    const useMs = Math.round(performance.now() - t);
    if (used.action !== 'started') throw new Error(`useModel ${choice}: ${used.action}`);
    const startedAt = Date.now();
    let first: number | null = null;
    let checkpoints = 0;
    const job = await engram.runJobHere(
      { kind: 'models.rebuild', payload: { model: used.model }, dedupe_key: 'models.rebuild' },
      () => {
        first ??= Date.now();
        checkpoints++;
      },
    );
    const endedAt = Date.now();
    const progress = job.progress ?? {};
    const last = calls[calls.length - 1];
    const embedded = typeof progress.embedded === 'number' ? progress.embedded : 0;
    const usedCpu = process.cpuUsage(cpu);
    const filled = indexCalls[0]?.started_at ?? last?.started_at ?? null;
    const fillMs = filled === null ? null : filled - startedAt;
    return {
      choice,
      model: used.model,
      previous,
      action: used.action,
      use_ms: useMs,
      started_at: startedAt,
      first_checkpoint_at: first,
      swap_started_at: last?.started_at ?? null,
      swap_ended_at: last ? last.started_at + Math.round(last.ms) : null,
      ended_at: endedAt,
      job_state: job.state,
      passes: typeof progress.pass === 'number' ? progress.pass : 0,
      embedded,
      failed: typeof progress.failed === 'number' ? progress.failed : 0,
      checkpoints,
      index_calls: indexCalls,
      fill_s: fillMs === null ? null : Math.round(fillMs / 10) / 100,
      items_per_s: rate(embedded, fillMs),
      items_per_s_with_swap: rate(embedded, endedAt - startedAt),
      swap_calls: calls,
      cpu_s: Math.round((usedCpu.user + usedCpu.system) / 10_000) / 100,
    };
  } finally {
    unwrapSwap();
    unwrapIndex();
  }
}

/**
 * Swaps directly between two models whose vectors are both complete (after a transition, the
 * previous model keeps its vectors): `rounds` swaps each way, alternating, each timed alone.
 */
export async function directSwaps(
  engram: Engram,
  models: readonly [string, string],
  rounds: number,
): Promise<{ to: string; ms: number; swapped: boolean }[]> {
  const store = engram.storeForTransfer.models;
  if (!store) throw new Error('this store keeps no model records');
  const out: { to: string; ms: number; swapped: boolean }[] = [];
  for (let i = 0; i < rounds * 2; i++) {
    const to = models[i % 2]!;
    const t = performance.now();
    const result = await store.swap(to, Date.now());
    out.push({ to, ms: Math.round((performance.now() - t) * 100) / 100, swapped: result.swapped });
  }
  return out;
}
