/**
 * The Embedder interface every embedding provider implements (static word vectors, onnx, openai),
 * with its optional capabilities (word vectors), and the small helpers they share.
 */
import type { ModelRecord } from '../domain/records.js';

/** Progress of a long preparation step (building a model cache), for progress bars. */
export interface PrepareProgress {
  /** What is being prepared, in the words a user reads: the label of a progress bar. */
  phase: string;
  /** The step within it, when it has steps (a word-vector build: scan, index, write, done). */
  step?: string;
  done: number;
  total: number;
}

/** Options for preparing an embedder (building caches on first use). */
export interface PrepareOptions {
  onProgress?: (progress: PrepareProgress) => void;
}

/** Live state of an embedder, reported by `status`. */
export interface EmbedderState {
  model_id: string;
  dimension: number;
  available: boolean;
  loaded: boolean;
  reason?: string;
}

/**
 * The word-level vectors behind an embedder, for relevance scoring that matches word by word
 * (the alignment scorer): a vocabulary whose ids are frequency ranks, and unit word vectors.
 */
export interface WordVectorLookup {
  /** Vocabulary size; ids run from 0 (the most frequent word) to size - 1. */
  readonly size: number;
  /** Lowercase tokens of a text as the vocabulary spells them; unknown tokens are kept. */
  tokenize(text: string): string[];
  /** Id (0-based frequency rank) of a token, or -1 when unknown. */
  wordId(token: string): number;
  /** The word's vector at unit length. */
  wordVector(id: number): Float32Array;
}

/**
 * Turns texts into unit-length vectors stamped with one model id and dimension. Optional methods
 * are capabilities: a consumer asks for one by testing that the method exists.
 */
export interface Embedder {
  /** Stable model id stamped on every vector it makes, e.g. `static:glove-6b-100d-sif@1`. */
  readonly modelId: string;
  /** Vector length. */
  readonly dimension: number;
  /** Loads (and if needed builds) what the embedder needs; safe to call many times. */
  prepare(options?: PrepareOptions): Promise<void>;
  /**
   * Embeds texts. Returns one L2-normalised vector per text, or null where the text carries no
   * embeddable content (e.g. no known word).
   */
  embed(texts: readonly string[]): Promise<(Float32Array | null)[]>;
  /** Current availability, without loading anything. */
  state(): EmbedderState;
  /** Capability: its word vectors, loaded (and if needed built) on first use. */
  wordVectors?(): Promise<WordVectorLookup>;
  /**
   * Capability: the only languages its vectors mean something in, named as
   * `domain/inflection.ts` tells them (`english`). A query told (by two words or more) to be in
   * none of them is not embedded: recall reports its vector channel `query_not_embeddable`.
   * Absent: every language.
   */
  readonly languages?: readonly string[];
  /** Releases resources. */
  close(): Promise<void>;
}

/** Scales a vector to unit length in place; returns null for a zero vector. */
export function normalize(vector: Float32Array): Float32Array | null {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  if (sum === 0 || !Number.isFinite(sum)) return null;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! * inv;
  return vector;
}

/** Dot product of two equal-length vectors (cosine when both are unit length). */
export function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** What the vector channel needs from the embedding side. */
export interface QueryEmbedding {
  /** The model whose vectors recall may use (§8), or undefined when none is published. */
  publishedModel(): Promise<ModelRecord | undefined>;
  /** The configured embedder's model id, or null when no embedder is configured. */
  readonly modelId: string | null;
  /** Whether this process can embed with `model` (its configured embedder, or one built from the model's spec). */
  embeds(model: string): boolean;
  /**
   * Embeds a query ahead of background work with `model` (default: the published one); rejects
   * when the budget runs out.
   */
  embedQuery(text: string, timeoutMs: number, model?: string): Promise<Float32Array | null>;
}
