/**
 * The rebuild of a transition (§8): fills the target model's vectors pass by pass, in item order,
 * while recall goes on with the published model. One item's failure is recorded on the item and
 * never stops the rebuild; items written during a pass lack a current target vector and are picked
 * up by the next pass; when a pass finds nothing left, the swap publishes the target in one
 * transaction (which refuses while anything is missing, so a write between the last pass and the
 * swap only means one more pass). Progress is a checkpoint, so a restarted rebuild resumes.
 */
import type { Logger } from '../domain/log.js';
import type { StoredModel } from '../domain/models.js';
import type { ModelStore } from '../store/model-store.js';
import type { Store } from '../store/store.js';
import { embedIsolating } from './isolate.js';
import type { VectorSupply } from './supply.js';

/** Where a rebuild stands; checkpointed after every batch. */
export interface RebuildProgress {
  model: string;
  /** 1 for the first pass over the store; more when writes during a pass left items behind. */
  pass: number;
  /** The last item (pk) of the current pass already handled. */
  cursor: number;
  /** Vectors stored for the target so far. */
  embedded: number;
  /** Items whose embedding failed (recorded on the items). */
  failed: number;
  /** True once the target's approximate index was built (before the swap). */
  indexed: boolean;
  /** True once the target is published. */
  swapped: boolean;
}

/** What a rebuild works with. */
export interface RebuildDeps {
  store: Store;
  models: ModelStore;
  vectors: VectorSupply;
  log: Logger;
  batch: number;
  now: () => number;
}

/** How a rebuild run ended. */
export type RebuildOutcome =
  | { state: 'swapped' | 'stopped'; progress: RebuildProgress }
  | { state: 'superseded'; progress: RebuildProgress };

/** A fresh or checkpointed progress record for `model`. */
export function rebuildProgress(
  model: string,
  saved: Record<string, unknown> | null,
): RebuildProgress {
  const n = (key: string, fallback: number) =>
    saved?.model === model && typeof saved[key] === 'number' ? (saved[key] as number) : fallback;
  return {
    model,
    pass: n('pass', 1),
    cursor: n('cursor', 0),
    embedded: n('embedded', 0),
    failed: n('failed', 0),
    indexed: saved?.model === model && saved.indexed === true,
    swapped: false,
  };
}

/**
 * Runs the rebuild of `target` from `progress` until it swaps, is superseded (another target
 * chosen, or cancelled) or `shouldStop` says to stop; `checkpoint` is awaited after every batch.
 */
export async function runRebuild(
  deps: RebuildDeps,
  target: StoredModel,
  progress: RebuildProgress,
  control: { shouldStop: () => boolean; checkpoint: (p: RebuildProgress) => Promise<void> },
): Promise<RebuildOutcome> {
  const { models, vectors } = deps;
  const embedder = vectors.embedderFor(target.id, target.spec);
  if (!embedder)
    throw new Error(
      `the embedder of ${target.id} cannot be built here: ${vectors.embedders.failure(target.id) ?? 'no spec recorded'}`,
    );
  const queue = vectors.queue;
  if (!queue) throw new Error('no embedding queue: embedder.provider is none');
  while (!control.shouldStop()) {
    if (!(await stillTarget(models, target.id))) return { state: 'superseded', progress };
    const batch = await models.missing(target.id, progress.cursor, deps.batch);
    if (batch.length === 0) {
      // The new model's index is ready before recall moves to it (only changes since are pending).
      if (!progress.indexed) {
        await models.prepareIndex(target.id, target.dimension);
        progress = { ...progress, indexed: true };
      }
      const swap = await models.swap(target.id, deps.now());
      if (swap.swapped) {
        vectors.forgetPublished();
        deps.log.info('model published', { model: target.id, previous: swap.previous });
        return { state: 'swapped', progress: { ...progress, swapped: true } };
      }
      // Written during the pass: another pass from the start picks them up.
      progress = { ...progress, pass: progress.pass + 1, cursor: 0 };
      await control.checkpoint(progress);
      continue;
    }
    const { vectors: made, failures } = await embedIsolating(batch, (texts) =>
      queue.embed(texts, { priority: 'background', embedder }),
    );
    const ok = batch.filter((_, i) => !failures.has(i));
    const stored = await deps.store.putVectors(
      target.id,
      ok.map((p) => ({ id: p.id, version: p.version, vector: made.get(p.id) ?? null })),
    );
    for (const [i, error] of failures) {
      const item = batch[i]!;
      deps.log.warn('an item could not be embedded with the new model', { id: item.id, error });
      await deps.store.jobs?.recordItemFailure(
        { space: item.space, item_id: item.id, work: 'rebuild', version: item.version, error },
        () => null,
      );
    }
    progress = {
      ...progress,
      cursor: batch[batch.length - 1]!.pk,
      embedded: progress.embedded + stored,
      failed: progress.failed + failures.size,
    };
    await control.checkpoint(progress);
  }
  return { state: 'stopped', progress };
}

async function stillTarget(models: ModelStore, id: string): Promise<boolean> {
  return (await models.targetId()) === id;
}
