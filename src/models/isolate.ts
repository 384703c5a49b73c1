/**
 * Embedding a batch of items so that one item's failure fails only that item: when the embedder
 * throws on a batch, its halves are embedded apart until the failing items are found.
 */
import { embeddingText } from '../domain/text.js';
import type { PendingVector } from '../store/store.js';

/** What a batch gave: vectors by item id, and failure messages by index in the batch. */
export interface IsolatedBatch {
  vectors: Map<string, Float32Array | null>;
  failures: Map<number, string>;
}

/**
 * Embeds a batch with `embed`; throws when no item of a batch of several could be embedded (then
 * the embedder, not an item, is failing).
 */
export async function embedIsolating(
  batch: readonly PendingVector[],
  embed: (texts: string[]) => Promise<(Float32Array | null)[]>,
): Promise<IsolatedBatch> {
  const vectors = new Map<string, Float32Array | null>();
  const failures = new Map<number, string>();
  let firstError: unknown;
  const run = async (from: number, to: number): Promise<void> => {
    const part = batch.slice(from, to);
    try {
      const made = await embed(part.map((p) => embeddingText(p)));
      part.forEach((p, i) => vectors.set(p.id, made[i] ?? null));
    } catch (err) {
      firstError ??= err;
      if (part.length === 1) failures.set(from, err instanceof Error ? err.message : String(err));
      else {
        const mid = from + Math.ceil(part.length / 2);
        await run(from, mid);
        await run(mid, to);
      }
    }
  };
  await run(0, batch.length);
  if (batch.length > 1 && failures.size === batch.length) throw firstError;
  return { vectors, failures };
}
