/**
 * The rule both keyword channels (SQLite's FTS5, PostgreSQL's tsvector) follow on large stores:
 * terms held by more than a few percent of the rows are "common"; candidates come from rows
 * holding a rarer term, and common terms only add to their score (Lucene's CommonTermsQuery).
 * Term frequencies are counted once and reused until the store's size drifts.
 */

/** Where the rule applies and which terms it calls common. */
export interface CommonTermsPlan {
  /** Stores with fewer rows score every matching row (exact). */
  planMinRows: number;
  /** A term is common when more rows than this fraction of the store hold it... */
  commonFraction: number;
  /** ...and more than this many. */
  commonMinRows: number;
}

/** The defaults, measured with bench/scale. */
export const COMMON_TERMS_PLAN: CommonTermsPlan = {
  planMinRows: 20_000,
  commonFraction: 0.01,
  commonMinRows: 1_000,
};

/** A cached document frequency is counted again when the store has grown or shrunk this much. */
export const DF_DRIFT = 0.2;
/** Frequencies kept before a cache starts over. */
export const DF_CACHE_MAX = 50_000;

/** True when a frequency counted at `countedRows` rows still holds for a store of `rows`. */
export function frequencyHolds(countedRows: number, rows: number): boolean {
  return Math.abs(rows - countedRows) <= countedRows * DF_DRIFT;
}

/**
 * The candidate terms of terms sorted rarest first: the rare ones, then the next rarest until
 * they can fill `limit` hits.
 */
export function candidateTerms<T extends { df: number }>(
  plan: CommonTermsPlan,
  byDf: readonly T[],
  limit: number,
  rows: number,
): T[] {
  const cap = Math.max(plan.commonMinRows, rows * plan.commonFraction);
  const out: T[] = [];
  let reach = 0;
  for (const term of byDf) {
    if (term.df > cap && reach >= limit && out.length > 0) break;
    out.push(term);
    reach += term.df;
  }
  return out;
}
