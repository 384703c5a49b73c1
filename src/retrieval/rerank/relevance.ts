/**
 * The relevance-scorer interface (§8): judges how directly a candidate answers a query, on an
 * absolute 0..1 scale, so the second stage (legacy reranking, decision recall, the dormant check)
 * can order and threshold candidates whatever channel found them.
 */

/** One candidate to judge: its own text and, optionally, the texts around it (e.g. adjacent turns). */
export interface RelevanceDocument {
  id: string;
  text: string;
  /** Texts from the candidate's surroundings; they count as weaker evidence than its own text. */
  context?: readonly string[];
}

/** A relevance scorer: one score in 0..1 per document, in the order given. */
export interface RelevanceScorer {
  /** The scorer's name as configured (`alignment`, `cross-encoder`, ...). */
  readonly name: string;
  score(query: string, documents: readonly RelevanceDocument[]): Promise<number[]>;
}
