/**
 * The configured relevance scorer (§8), built from what the process has: `alignment` needs the
 * static embedder's word vectors, so it exists when the static embedder is the configured one.
 */
import type { Config } from '../../config/schema.js';
import type { Embedder } from '../../embed/embedder.js';
import { StaticEmbedder } from '../../embed/static/static-embedder.js';
import { AlignmentScorer, type WordVectorSource } from './alignment.js';
import type { RelevanceScorer } from './relevance.js';

/** Word vectors of an embedder, when it has them (the static GloVe embedder does). */
export function wordVectorSource(embedder: Embedder | null): WordVectorSource | null {
  if (!(embedder instanceof StaticEmbedder)) return null;
  return {
    wordVectors: async () => {
      await embedder.prepare();
      return embedder.words();
    },
  };
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
          })
        : null;
  }
}
