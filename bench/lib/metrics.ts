/**
 * Ranking metrics shared by the retrieval benchmarks: recall@k, reciprocal rank, NDCG@k with
 * binary relevance, and the summary statistics (mean, percentiles) their reports print.
 */

/**
 * Fraction of the relevant ids found in the first `k` of `ranked`. A question without relevant
 * ids scores 1 (the LoCoMo protocol: nothing to find means nothing was missed).
 */
export function recallAtK(
  ranked: readonly string[],
  relevant: ReadonlySet<string>,
  k: number,
): number {
  if (relevant.size === 0) return 1;
  let found = 0;
  const top = new Set(ranked.slice(0, k));
  for (const id of relevant) if (top.has(id)) found++;
  return found / relevant.size;
}

/**
 * 1 when any relevant id is among the first `k` of `ranked`, else 0 (hit@k); 1 for a question
 * without relevant ids, consistent with recall.
 */
export function hitAtK(
  ranked: readonly string[],
  relevant: ReadonlySet<string>,
  k: number,
): number {
  if (relevant.size === 0) return 1;
  return ranked.slice(0, k).some((id) => relevant.has(id)) ? 1 : 0;
}

/**
 * 1 / rank of the first relevant id (0 when none is ranked); 1 for a question without relevant
 * ids, consistent with recall.
 */
export function reciprocalRank(ranked: readonly string[], relevant: ReadonlySet<string>): number {
  if (relevant.size === 0) return 1;
  const index = ranked.findIndex((id) => relevant.has(id));
  return index < 0 ? 0 : 1 / (index + 1);
}

/**
 * NDCG@k with binary gains: DCG = Σ 1/log2(rank+1) over relevant ids in the top k, divided by the
 * DCG of an ideal ranking that puts all relevant ids first. 1 for no relevant ids.
 */
export function ndcgAtK(
  ranked: readonly string[],
  relevant: ReadonlySet<string>,
  k: number,
): number {
  if (relevant.size === 0) return 1;
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    if (relevant.has(id)) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(k, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return dcg / ideal;
}

/** Arithmetic mean; NaN for an empty list, so a missing group never passes for a zero. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

/**
 * The p-th percentile (0..100) by linear interpolation between closest ranks (the method of
 * numpy's default), NaN for an empty list.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile must be in 0..100, got ${p}`);
  const sorted = [...values].sort((a, b) => a - b);
  const position = (p / 100) * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const fraction = position - lower;
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * fraction;
}

/** The cut-offs every LoCoMo report shows. */
export const RECALL_KS = [1, 5, 10, 25, 50] as const;

/** Per-question scores of one ranking. */
export interface QuestionScores {
  recall: Record<(typeof RECALL_KS)[number], number>;
  mrr: number;
  ndcg10: number;
}

/** All the per-question metrics for one ranking against its relevant ids. */
export function scoreRanking(
  ranked: readonly string[],
  relevant: ReadonlySet<string>,
): QuestionScores {
  const recall = {} as QuestionScores['recall'];
  for (const k of RECALL_KS) recall[k] = recallAtK(ranked, relevant, k);
  return { recall, mrr: reciprocalRank(ranked, relevant), ndcg10: ndcgAtK(ranked, relevant, 10) };
}

/** Mean of each metric over a group of questions. */
export function averageScores(scores: readonly QuestionScores[]): QuestionScores & { n: number } {
  const recall = {} as QuestionScores['recall'];
  for (const k of RECALL_KS) recall[k] = mean(scores.map((s) => s.recall[k]));
  return {
    n: scores.length,
    recall,
    mrr: mean(scores.map((s) => s.mrr)),
    ndcg10: mean(scores.map((s) => s.ndcg10)),
  };
}
