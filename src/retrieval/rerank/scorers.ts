/**
 * The configured relevance scorer (§8), built from what the process has: `alignment` needs word
 * vectors (the configured embedder's, or the built-in static ones when it has none); the
 * `cross-encoder` reads a local ONNX folder.
 */
import type { Config } from '../../config/schema.js';
import type { Embedder } from '../../embed/embedder.js';
import { AlignmentScorer, type WordVectorSource } from './alignment.js';
import { CrossEncoderScorer } from './cross-encoder.js';
import type { RelevanceScorer } from './relevance.js';

/** Word vectors of an embedder, when it has the capability (the static GloVe embedder does). */
export function wordVectorSource(embedder: Embedder | null): WordVectorSource | null {
  const wordVectors = embedder?.wordVectors?.bind(embedder);
  return wordVectors ? { wordVectors } : null;
}

/**
 * The same scorer judging on an absolute scale, for checks against a fixed threshold (the decision
 * adapter's `low_confidence`, dormant recall's `min_rerank_score`): the alignment scorer without
 * pool weighting, whose relevance of a document would otherwise depend on the others judged with it.
 */
export function absoluteScorer(
  settings: Config['recall']['rerank'],
  words: WordVectorSource | null,
): RelevanceScorer | null {
  return configuredScorer(
    { ...settings, alignment: { ...settings.alignment, pool_weighting: false } },
    words,
  );
}

/** The scorer `recall.rerank.scorer` names, or null when its resources are missing. */
export function configuredScorer(
  settings: Config['recall']['rerank'],
  words: WordVectorSource | null,
): RelevanceScorer | null {
  switch (settings.scorer) {
    case 'alignment':
      return words
        ? new AlignmentScorer(words, {
            floor: settings.alignment.floor,
            lexicalWeight: settings.alignment.lexical_weight,
            contextWeight: settings.alignment.context_weight,
            commonRank: settings.alignment.common_rank,
            poolWeighting: settings.alignment.pool_weighting,
          })
        : null;
    case 'cross-encoder':
      return new CrossEncoderScorer({
        path: settings.cross_encoder.path!,
        maxLength: settings.cross_encoder.max_length,
        batchSize: settings.cross_encoder.batch_size,
      });
  }
}
