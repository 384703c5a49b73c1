/**
 * Public surface of the static (GloVe + SIF) embedder: the embedder, its word-level vectors for
 * relevance scoring, the tokenizer, and cache helpers.
 */
export type { BuildCacheOptions, BuildCacheResult } from './build-cache.js';
export { buildStaticCache } from './build-cache.js';
export type { StaticEmbedderOptions } from './static-embedder.js';
export {
  defaultCacheDir,
  defaultSourcePath,
  STATIC_DIMENSION,
  STATIC_MODEL_ID,
  STATIC_SOURCE_PACKAGE,
  staticCacheFileName,
  staticCachePath,
  StaticEmbedder,
} from './static-embedder.js';
export type { IsKnownToken } from './tokenize.js';
export { stripDiacritics, tokenize } from './tokenize.js';
export type { WordVectorsOptions } from './word-vectors.js';
export { DEFAULT_SIF_A, WordVectors } from './word-vectors.js';
