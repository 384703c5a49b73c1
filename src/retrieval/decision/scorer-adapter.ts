/**
 * The local decision adapters (§5.1): a relevance scorer of §8 judging the pool, `alignment`
 * (built in, the same word-vector scorer as reranking) and `cross-encoder` (a local ONNX model).
 *
 * A rank prior may weigh in where the ordinary order is evidence the scorer lacks: with prior γ a
 * candidate's relevance is its score times (1 + position)^-γ, position being its 0-based place in
 * the ordinary order (a candidate a source added counts as placed after the whole pool). The first
 * candidate keeps its score; each judgment still reads only its own candidate.
 */
import type { RelevanceScorer } from '../rerank/relevance.js';
import { type DecisionAdapter, DecisionError, type JudgedDocument } from './adapter.js';

/** A relevance scorer as a decision adapter; null scorer: its resources are missing here. */
export class ScorerAdapter implements DecisionAdapter {
  constructor(
    readonly name: string,
    private readonly scorer: RelevanceScorer | null,
    /** γ of the rank prior; 0 leaves the scorer's relevance as it is. */
    private readonly rankPrior = 0,
  ) {}

  unavailable() {
    return this.scorer
      ? null
      : {
          reason: 'unsupported_capabilities' as const,
          message: `the ${this.name} scorer cannot run here (no word vectors or model folder)`,
        };
  }

  async judge(query: string, documents: readonly JudgedDocument[], signal: AbortSignal) {
    if (!this.scorer) throw new DecisionError('unsupported_capabilities', `no ${this.name} scorer`);
    if (signal.aborted) throw new DecisionError('deadline_expired', 'judging was stopped');
    const scores = await this.scorer.score(query, documents);
    if (this.rankPrior === 0) return scores;
    return scores.map(
      (s, i) => s * rankDiscount(documents[i]?.position, documents.length, this.rankPrior),
    );
  }
}

/** (1 + position)^-γ; a candidate without a position is placed after all `count` candidates. */
export function rankDiscount(position: number | undefined, count: number, gamma: number): number {
  return (1 + (position ?? count)) ** -gamma;
}
