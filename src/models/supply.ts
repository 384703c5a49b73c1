/**
 * VectorSupply: the service's side of embeddings. It publishes the configured model on first
 * use (§8), embeds queries ahead of writes and writes ahead of background work through the one
 * queue, gives up on a write's vector when the budget runs out (the item is stored vector-pending)
 * and fills pending items in a background pass.
 */
import type { Config } from '../config/schema.js';
import type { Logger } from '../domain/log.js';
import type { ModelRecord } from '../domain/records.js';
import { embeddingText } from '../domain/text.js';
import type { Embedder, EmbedderState, PrepareOptions } from '../embed/embedder.js';
import type { QueryEmbedding } from '../embed/embedder.js';
import type { PendingVector, Store } from '../store/store.js';

/** The slice of the embedding queue the service uses. */
export interface EmbedQueue {
  embed(
    texts: readonly string[],
    options: { priority: 'query' | 'write' | 'background'; timeoutMs?: number },
  ): Promise<(Float32Array | null)[]>;
  stats(): unknown;
  close(): Promise<void>;
}

/** Options of a backfill run. */
export interface BackfillOptions {
  /** Stop after this many items. */
  limit?: number;
  onProgress?: (done: number) => void;
  /** Asked between batches: true stops the run there. */
  shouldStop?: () => boolean;
}

/** Vectors made for a write, stamped with their model. */
export interface WriteVectors {
  model: string;
  vectors: (Float32Array | null)[];
}

/** Embedding, model publication and the vector-pending backfill. */
export class VectorSupply implements QueryEmbedding {
  readonly modelId: string | null;
  private published: ModelRecord | undefined;
  private publishing: Promise<ModelRecord | undefined> | undefined;
  private backfillRun: Promise<number> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly embedder: Embedder | null,
    private readonly queue: EmbedQueue | null,
    private readonly config: Config,
    private readonly log: Logger,
    private readonly background: boolean,
    /** Delay before an item's failed embedding is retried (by its attempts), or null: no more. */
    private readonly itemRetry: (attempts: number) => number | null = () => null,
  ) {
    this.modelId = embedder?.modelId ?? null;
  }

  /** The published model; publishes the configured one when the store has none yet. */
  async publishedModel(): Promise<ModelRecord | undefined> {
    if (this.published) return this.published;
    this.publishing ??= this.resolvePublished().finally(() => (this.publishing = undefined));
    return this.publishing;
  }

  private async resolvePublished(): Promise<ModelRecord | undefined> {
    const current = await this.store.publishedModel();
    if (current || !this.embedder) return (this.published = current);
    return (this.published = await this.store.publishModel(
      this.embedder.modelId,
      this.embedder.dimension,
      Date.now(),
    ));
  }

  /** Embeds a recall query at the highest priority within `timeoutMs`. */
  async embedQuery(text: string, timeoutMs: number): Promise<Float32Array | null> {
    if (!this.queue) return null;
    const [vector] = await this.queue.embed([text], { priority: 'query', timeoutMs });
    return vector ?? null;
  }

  /** Vectors for texts being written, or null when they cannot be made within the write budget. */
  async embedForWrite(
    texts: readonly string[],
    priority: 'write' | 'background',
  ): Promise<WriteVectors | null> {
    if (!this.queue || !this.modelId) return null;
    const published = await this.publishedModel();
    if (published?.id !== this.modelId) return null;
    try {
      const budget = this.config.embedder.write_budget_ms + texts.length * 2;
      return {
        model: this.modelId,
        vectors: await this.queue.embed(texts, { priority, timeoutMs: budget }),
      };
    } catch (err) {
      this.log.info('vectors deferred: items stored vector-pending', { error: String(err) });
      return null;
    }
  }

  /**
   * Set by the service where background work runs as jobs: asked instead of the process's own
   * backfill pass when a write leaves items vector-pending.
   */
  onPending: (() => void) | undefined;

  /** Asks for a background backfill soon (long-lived processes only). */
  schedule(): void {
    if (!this.background || this.closed) return;
    if (this.onPending) return this.onPending();
    if (this.timer || this.backfillRun) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      // One background backfill across all processes sharing the store (§11); the others skip,
      // and the holder's loop picks up their pending items too.
      void this.store
        .withLease('vectors:backfill', 60_000, () => this.backfill())
        .catch((err: unknown) =>
          this.log.warn('background vector backfill failed', { error: String(err) }),
        );
    }, 50);
    this.timer.unref();
  }

  /**
   * Embeds vector-pending items in batches; one run at a time per process. An item the embedder
   * fails on is recorded as failed (retried later with back-off, then left for an explicit retry)
   * and never holds the others back; a batch in which every item fails means the embedder itself
   * is failing, and the run stops with that error. `shouldStop` is asked between batches.
   */
  backfill(options: BackfillOptions = {}): Promise<number> {
    this.backfillRun ??= this.runBackfill(options).finally(() => (this.backfillRun = undefined));
    return this.backfillRun;
  }

  private async runBackfill(options: BackfillOptions): Promise<number> {
    const limit = options.limit ?? Infinity;
    if (!this.queue || !this.modelId) return 0;
    const published = await this.publishedModel();
    if (published?.id !== this.modelId) return 0;
    let done = 0;
    while (!this.closed && done < limit && !options.shouldStop?.()) {
      const batch = await this.store.pendingVectors(
        Math.min(this.config.embedder.backfill_batch, limit - done),
      );
      if (batch.length === 0) break;
      const { vectors, failures } = await this.embedIsolating(batch);
      const ok = batch.filter((_, i) => !failures.has(i));
      const stored = await this.store.putVectors(
        this.modelId,
        ok.map((p) => ({ id: p.id, version: p.version, vector: vectors.get(p.id) ?? null })),
      );
      await this.recordFailures(batch, failures);
      if (failures.size < batch.length)
        await this.store.jobs?.clearItemFailures(
          'vector',
          ok.map((p) => p.id),
        );
      done += stored;
      options.onProgress?.(done);
      // Failures are kept out of the next batch only where the store records them.
      if (stored === 0 && (failures.size === 0 || !this.store.jobs)) break;
    }
    return done;
  }

  /**
   * Embeds a batch; when the embedder throws, embeds halves of it to find the items it fails on.
   * Throws when no item of the batch could be embedded (the embedder, not an item, is failing).
   */
  private async embedIsolating(
    batch: readonly PendingVector[],
  ): Promise<{ vectors: Map<string, Float32Array | null>; failures: Map<number, string> }> {
    const vectors = new Map<string, Float32Array | null>();
    const failures = new Map<number, string>();
    let firstError: unknown;
    const run = async (from: number, to: number): Promise<void> => {
      const part = batch.slice(from, to);
      try {
        const made = await this.queue!.embed(
          part.map((p) => embeddingText(p)),
          { priority: 'background' },
        );
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

  private async recordFailures(
    batch: readonly PendingVector[],
    failures: ReadonlyMap<number, string>,
  ): Promise<void> {
    const jobs = this.store.jobs;
    for (const [i, error] of failures) {
      const item = batch[i]!;
      this.log.warn('an item could not be embedded; it is retried later', { id: item.id, error });
      await jobs?.recordItemFailure(
        { space: item.space, item_id: item.id, work: 'vector', version: item.version, error },
        this.itemRetry,
      );
    }
  }

  /** Embedder availability and live queue work, without loading anything. */
  state(): (EmbedderState & { queue: unknown }) | { available: false; reason: string } {
    if (!this.embedder)
      return { available: false, reason: 'no embedder configured (embedder.provider: none)' };
    return { ...this.embedder.state(), queue: this.queue?.stats() ?? null };
  }

  /** Builds or loads the embedder's model. */
  async prepare(options: PrepareOptions = {}): Promise<void> {
    await this.embedder?.prepare(options);
  }

  /** Stops background work, letting a running backfill finish for up to `drainMs`. */
  async close(drainMs: number): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (drainMs > 0) await this.drain(drainMs);
    this.closed = true;
    await boundedWait(this.backfillRun, 2_000);
    // A hung embedder must not hang shutdown: give running work a bounded time to finish.
    await boundedWait(this.queue?.close(), 2_000);
    await boundedWait(this.embedder?.close(), 2_000);
  }

  private async drain(drainMs: number): Promise<void> {
    let timeout: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timeout = setTimeout(resolve, drainMs)));
    const work = this.backfill().catch(() => 0);
    await Promise.race([work, deadline]);
    clearTimeout(timeout);
  }
}

async function boundedWait(work: Promise<unknown> | undefined, ms: number): Promise<void> {
  if (!work) return;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  await Promise.race([work.catch(() => undefined), limit]);
  clearTimeout(timer);
}
