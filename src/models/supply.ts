/**
 * VectorSupply: the service's side of embeddings. It publishes the configured model on first
 * use (§8), embeds queries ahead of writes and writes ahead of background work through the one
 * queue, gives up on a write's vector when the budget runs out (the item is stored vector-pending)
 * and fills pending items in a background pass.
 */
import type { Config } from '../config/schema.js';
import { EngramError } from '../domain/errors.js';
import { MODEL_LANGUAGE_EVIDENCE, toldLanguages } from '../domain/inflection.js';
import type { Logger } from '../domain/log.js';
import type { ModelSpec } from '../domain/models.js';
import type { ModelRecord } from '../domain/records.js';
import type { Embedder, EmbedderState, PrepareOptions } from '../embed/embedder.js';
import type { QueryEmbedding } from '../embed/embedder.js';
import type { PendingVector, Store } from '../store/store.js';
import type { ModelEmbedders } from './embedders.js';
import { embedIsolating } from './isolate.js';

/** The slice of the embedding queue the service uses. */
export interface EmbedQueue {
  embed(
    texts: readonly string[],
    options: {
      priority: 'query' | 'write' | 'background';
      timeoutMs?: number;
      embedder?: Embedder;
    },
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

/** How long a process trusts the published model it read (another process may swap it). */
const PUBLISHED_TTL_MS = 1_000;

/** The published model with what builds its embedder. */
export interface PublishedModel extends ModelRecord {
  spec: ModelSpec | null;
}

/** Embedding, model publication and the vector-pending backfill. */
export class VectorSupply implements QueryEmbedding {
  /** The configured embedder's model id, or null when none is configured. */
  readonly modelId: string | null;
  private published: { model: PublishedModel | undefined; at: number } | undefined;
  private publishing: Promise<PublishedModel | undefined> | undefined;
  /** Counts `forgetPublished` calls: a read started before the latest one is not kept. */
  private readings = 0;
  private backfillRun: Promise<number> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly store: Store,
    readonly embedders: ModelEmbedders,
    readonly queue: EmbedQueue | null,
    private readonly config: Config,
    private readonly log: Logger,
    private readonly background: boolean,
    /** Delay before an item's failed embedding is retried (by its attempts), or null: no more. */
    private readonly itemRetry: (attempts: number) => number | null = () => null,
    /** The spec of the configured embedder, recorded with the model it publishes. */
    private readonly configuredSpec: ModelSpec | null = null,
  ) {
    this.modelId = embedders.configured?.modelId ?? null;
  }

  /**
   * The published model; publishes the configured one when the store has none yet. Read again
   * after a second, so a swap made by another process reaches this one.
   */
  async publishedModel(): Promise<PublishedModel | undefined> {
    const cached = this.published;
    if (cached && (cached.model === undefined ? false : Date.now() - cached.at < PUBLISHED_TTL_MS))
      return cached.model;
    if (!this.publishing) {
      const reading: Promise<PublishedModel | undefined> = this.resolvePublished().finally(() => {
        if (this.publishing === reading) this.publishing = undefined;
      });
      this.publishing = reading;
    }
    return this.publishing;
  }

  /**
   * Forgets the published model read, so the next use reads it again (after a swap). A read
   * already under way may have seen the model before the swap: it is neither kept nor joined.
   */
  forgetPublished(): void {
    this.published = undefined;
    this.publishing = undefined;
    this.readings++;
  }

  private async resolvePublished(): Promise<PublishedModel | undefined> {
    const reading = this.readings;
    const current = await this.store.publishedModel();
    const configured = this.embedders.configured;
    let model: PublishedModel | undefined;
    if (current) model = { ...current, spec: await this.specOf(current.id) };
    else if (configured) {
      await configured.prepare();
      const record = await this.store.publishModel(
        configured.modelId,
        configured.dimension,
        Date.now(),
      );
      if (this.configuredSpec && record.id === configured.modelId)
        await this.store.models?.setSpec(record.id, this.configuredSpec);
      model = { ...record, spec: this.configuredSpec };
    }
    if (reading === this.readings) this.published = { model, at: Date.now() };
    return model;
  }

  /** The stored spec of a model; the configured one's is recorded when the store lacks it. */
  private async specOf(id: string): Promise<ModelSpec | null> {
    if (this.embedders.configured?.modelId === id) {
      if (this.configuredSpec && !this.specRecorded) {
        this.specRecorded = true;
        const stored = (await this.store.models?.list())?.find((m) => m.id === id);
        if (stored && !stored.spec) await this.store.models?.setSpec(id, this.configuredSpec);
      }
      return this.configuredSpec;
    }
    // A model's spec never changes under its id: read once per process, not at every re-read of
    // the published model (listing the models counts every stored vector).
    if (!this.specs.has(id))
      this.specs.set(id, (await this.store.models?.list())?.find((m) => m.id === id)?.spec ?? null);
    return this.specs.get(id) ?? null;
  }

  private specRecorded = false;
  private readonly specs = new Map<string, ModelSpec | null>();

  /** Whether this process can embed with `model` (configured, or built from its stored spec). */
  embeds(model: string): boolean {
    const published = this.published?.model;
    const spec = published?.id === model ? published.spec : undefined;
    return this.embedders.get(model, spec) !== null;
  }

  /** The embedder of a model, or null when this process cannot build it. */
  embedderFor(model: string, spec?: ModelSpec | null): Embedder | null {
    return this.embedders.get(
      model,
      spec ?? (this.published?.model?.id === model ? this.published.model.spec : null),
    );
  }

  /**
   * Embeds a recall query at the highest priority within `timeoutMs`, with `model` (default: the
   * published model): a caller that read the published model passes it, so one answer never mixes
   * a query vector of one model with stored vectors of another.
   */
  async embedQuery(text: string, timeoutMs: number, model?: string): Promise<Float32Array | null> {
    if (!this.queue) return null;
    if (!(timeoutMs > 0))
      throw new EngramError('EMBEDDER_UNAVAILABLE', 'no time was left for embedding the query', {
        reason: 'semantic_budget_exceeded',
      });
    const id = model ?? (await this.publishedModel())?.id;
    const embedder = id === undefined ? null : this.embedderFor(id);
    if (!embedder)
      throw new EngramError(
        'EMBEDDER_UNAVAILABLE',
        `the embedder of model ${id} is not available`,
        {
          reason: 'published_model_not_loaded',
        },
      );
    if (!coversLanguage(embedder, text)) return null;
    const [vector] = await this.queue.embed([text], { priority: 'query', timeoutMs, embedder });
    return vector ?? null;
  }

  /** Vectors for texts being written, or null when they cannot be made within the write budget. */
  async embedForWrite(
    texts: readonly string[],
    priority: 'write' | 'background',
  ): Promise<WriteVectors | null> {
    if (!this.queue) return null;
    const published = await this.publishedModel();
    const embedder = published ? this.embedderFor(published.id) : null;
    if (!published || !embedder) return null;
    try {
      const budget = this.config.embedder.write_budget_ms + texts.length * 2;
      return {
        model: published.id,
        vectors: await this.queue.embed(texts, { priority, timeoutMs: budget, embedder }),
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
    if (!this.queue) return 0;
    const published = await this.publishedModel();
    const embedder = published ? this.embedderFor(published.id) : null;
    if (!published || !embedder) return 0;
    const queue = this.queue;
    let done = 0;
    while (!this.closed && done < limit && !options.shouldStop?.()) {
      const batch = await this.store.pendingVectors(
        Math.min(this.config.embedder.backfill_batch, limit - done),
      );
      if (batch.length === 0) break;
      const { vectors, failures } = await embedIsolating(batch, (texts) =>
        queue.embed(texts, { priority: 'background', embedder }),
      );
      const ok = batch.filter((_, i) => !failures.has(i));
      const stored = await this.store.putVectors(
        published.id,
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
    const configured = this.embedders.configured;
    if (!configured)
      return { available: false, reason: 'no embedder configured (embedder.provider: none)' };
    return { ...configured.state(), queue: this.queue?.stats() ?? null };
  }

  /** Builds or loads the configured embedder's model. */
  async prepare(options: PrepareOptions = {}): Promise<void> {
    await this.embedders.configured?.prepare(options);
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
    await boundedWait(this.embedders.close(), 2_000);
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

/** Whether a query is in a language the embedder's vectors cover (`Embedder.languages`). */
function coversLanguage(embedder: Embedder, text: string): boolean {
  if (!embedder.languages) return true;
  const told = toldLanguages(text, MODEL_LANGUAGE_EVIDENCE);
  return told.length === 0 || told.some((l) => embedder.languages!.includes(l));
}
