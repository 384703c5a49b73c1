/**
 * Embedding models as the store keeps them (§8): what a model is made from (its spec, enough to
 * build its embedder again in any process, secrets excepted), and the roles a model plays in a
 * transition: published (recall uses it), target (a rebuild is filling its vectors), standby (its
 * vectors are kept for a rollback until pruned).
 */

/** Embedding providers engram can build from a spec. */
export const EMBEDDER_PROVIDERS = ['static', 'onnx', 'openai'] as const;
/** An embedding provider. */
export type EmbedderProvider = (typeof EMBEDDER_PROVIDERS)[number];

/**
 * What an embedder is built from. API keys are never part of it: they come from the
 * configuration or the environment of the process that builds the embedder.
 */
export type ModelSpec =
  | { provider: 'static'; sif_a: number }
  | { provider: 'onnx'; path: string; pooling: 'auto' | 'mean' | 'cls'; normalize: boolean }
  | { provider: 'openai'; base_url: string; model: string; dimensions?: number };

/** The role a model plays in the store. */
export type ModelRole = 'published' | 'target' | 'standby';

/** A model the store knows, with how many vectors it holds. */
export interface StoredModel {
  id: string;
  dimension: number;
  /** What builds its embedder; null for a model published before specs were kept. */
  spec: ModelSpec | null;
  role: ModelRole;
  /** When it was last published (a standby keeps the time it was published until replaced). */
  published_at: number | null;
  /** When its vectors were pruned (a rollback to it would be a rebuild), or null. */
  pruned_at: number | null;
  /** When it was chosen as the transition target, while it is the target. */
  target_at: number | null;
  /** Stored vectors of the model (including empty ones: texts with nothing to embed). */
  vectors: number;
}

/** How far a model's vectors cover the items of the store. */
export interface ModelCoverage {
  /** Items in the store. */
  items: number;
  /** Items with a vector of the model made from their current version. */
  done: number;
  /** Items whose embedding with the model failed during the rebuild, at their current version. */
  failed: number;
}

/** What an attempt to publish the target gives. */
export interface SwapResult {
  swapped: boolean;
  /** Items still lacking a current vector of the target (failed ones excepted). */
  missing: number;
  /** The model published before the swap. */
  previous?: string;
}
