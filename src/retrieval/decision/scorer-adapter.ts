/**
 * The local decision adapters (§5.1): a relevance scorer of §8 judging the pool, `alignment`
 * (built in, the same word-vector scorer as reranking) and `cross-encoder` (a local ONNX model).
 */
import type { RelevanceScorer } from '../rerank/relevance.js';
import { type DecisionAdapter, DecisionError } from './adapter.js';

/** A relevance scorer as a decision adapter; null scorer: its resources are missing here. */
export class ScorerAdapter implements DecisionAdapter {
  constructor(
    readonly name: string,
    private readonly scorer: RelevanceScorer | null,
  ) {}

  unavailable() {
    return this.scorer
      ? null
      : {
          reason: 'unsupported_capabilities' as const,
          message: `the ${this.name} scorer cannot run here (no word vectors or model folder)`,
        };
  }

  async judge(
    query: string,
    documents: Parameters<RelevanceScorer['score']>[1],
    signal: AbortSignal,
  ) {
    if (!this.scorer) throw new DecisionError('unsupported_capabilities', `no ${this.name} scorer`);
    if (signal.aborted) throw new DecisionError('deadline_expired', 'judging was stopped');
    return this.scorer.score(query, documents);
  }
}
