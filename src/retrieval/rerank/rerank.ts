/**
 * Legacy reranking (§5.2): `rerank: true` reorders the best first-stage candidates with the
 * configured relevance scorer. The new order blends the scorer's absolute relevance with the
 * first-stage score, normalised to the best candidate:
 *
 *   reranked = (1 − blend) · relevance + blend · score / max(score)        ∈ [0, 1]
 *
 * so a candidate that every channel agrees on is not overturned by word overlap alone, and a
 * candidate that answers the query directly climbs past ones that merely share its words. Ties keep
 * the first-stage order; candidates below the judged top keep their order after the judged ones.
 */
import type { RelevanceDocument, RelevanceScorer } from './relevance.js';

/** Rerank settings (config `recall.rerank`). */
export interface RerankOptions {
  /** How many of the best first-stage candidates the scorer judges. */
  topN: number;
  /** Weight of the normalised first-stage score in the new order, 0..1. */
  blend: number;
}

/** A first-stage candidate as reranking sees it: its score (the scorer reads `document`'s text). */
export interface RerankCandidate {
  /** First-stage score (higher is better, ≥ 0). */
  score: number;
}

/** A reranked candidate: its blended score and the scorer's relevance when it was judged. */
export interface Reranked<T> {
  candidate: T;
  score: number;
  relevance?: number;
}

/**
 * Reorders `ordered` (best first). `document` gives the text the scorer reads for a candidate.
 * Throws whatever the scorer throws, so the caller decides how to fall back.
 */
export async function rerank<T extends RerankCandidate>(
  scorer: RelevanceScorer,
  query: string,
  ordered: readonly T[],
  document: (candidate: T) => RelevanceDocument,
  options: RerankOptions,
): Promise<Reranked<T>[]> {
  const judged = ordered.slice(0, Math.max(0, options.topN));
  const rest = ordered.slice(judged.length);
  if (judged.length === 0) return rest.map((candidate) => ({ candidate, score: candidate.score }));
  const relevance = await scorer.score(query, judged.map(document));
  if (relevance.length !== judged.length)
    throw new Error(`${scorer.name} scored ${relevance.length} of ${judged.length} candidates`);
  const top = Math.max(...judged.map((c) => c.score));
  const blend = Math.min(1, Math.max(0, options.blend));
  const reordered = judged
    .map((candidate, i) => {
      const r = clamp01(relevance[i]!);
      const first = top > 0 ? Math.max(0, candidate.score) / top : 0;
      return { candidate, relevance: r, score: (1 - blend) * r + blend * first, at: i };
    })
    .sort((a, b) => b.score - a.score || a.at - b.at)
    .map(({ candidate, relevance: r, score }) => ({ candidate, relevance: r, score }));
  return [...reordered, ...rest.map((candidate) => ({ candidate, score: candidate.score }))];
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
