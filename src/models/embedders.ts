/**
 * The embedders of one process, by model: the configured one, and those built on demand from the
 * spec the store recorded for a model (the published model after a transition, the target of a
 * running one), so every process embeds with the model the store publishes whatever its
 * configuration says.
 */
import type { Logger } from '../domain/log.js';
import type { ModelSpec } from '../domain/models.js';
import type { Embedder } from '../embed/embedder.js';

/** Builds the embedder a spec describes. */
export type EmbedderFactory = (spec: ModelSpec) => Embedder;

/** Embedders by model id; built ones are kept until close. */
export class ModelEmbedders {
  private readonly built = new Map<string, Embedder>();
  private readonly failed = new Map<string, string>();

  constructor(
    /** The configured embedder, or null with `embedder.provider: none`. */
    readonly configured: Embedder | null,
    private readonly factory: EmbedderFactory | undefined,
    private readonly log: Logger,
  ) {}

  /** The embedder of `model` when this process has or can build it, else null. */
  get(model: string, spec: ModelSpec | null | undefined): Embedder | null {
    if (this.configured?.modelId === model) return this.configured;
    const known = this.built.get(model);
    if (known) return known;
    if (!spec || !this.factory || this.failed.has(model)) return null;
    try {
      const embedder = this.factory(spec);
      if (embedder.modelId !== model) {
        this.remember(model, `its spec builds ${embedder.modelId}, not ${model}`);
        void embedder.close();
        return null;
      }
      this.built.set(model, embedder);
      return embedder;
    } catch (err) {
      this.remember(model, err instanceof Error ? err.message : String(err));
      return null;
    }
  }

  /** The embedder a spec builds (kept for later use under its model id); throws what building throws. */
  build(spec: ModelSpec): Embedder {
    if (!this.factory) throw new Error('this process builds no embedders from specs');
    const embedder = this.factory(spec);
    const known = this.get(embedder.modelId, null);
    if (known) {
      void embedder.close();
      return known;
    }
    this.failed.delete(embedder.modelId);
    this.built.set(embedder.modelId, embedder);
    return embedder;
  }

  /** Why `model`'s embedder could not be built, if it could not. */
  failure(model: string): string | undefined {
    return this.failed.get(model);
  }

  /** Releases every embedder (the configured one too). */
  async close(): Promise<void> {
    const all = [...this.built.values(), ...(this.configured ? [this.configured] : [])];
    this.built.clear();
    await Promise.all(all.map((e) => e.close().catch(() => undefined)));
  }

  private remember(model: string, reason: string): void {
    this.failed.set(model, reason);
    this.log.warn('the embedder of a stored model cannot be built here', { model, reason });
  }
}
