/**
 * The keyword channel on PostgreSQL: a BM25-like ranking over the `english` tsvector of title
 * (weight A), body (B) and tags (C), read from their segmented text where they hold an unspaced
 * script (keyword-index.ts); query terms come segmented the same way (domain/text.ts).
 *
 * score(d) = Σ over query terms t matching d of  idf(t) · ts_rank({0, .5, .5, 1}, d, t, 1)
 * idf(t)   = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))     (df over the whole table, as FTS5;
 *                                                            N from the planner's row estimate)
 *
 * Differences from SQLite's FTS5 bm25() (documented in docs/postgres.md):
 * - term frequency saturates through ts_rank's position weighting instead of BM25's k1 = 1.2,
 *   and length normalisation is ts_rank's 1 + log(length) instead of BM25's b = 0.75 against the
 *   average length; IDF adds 1 inside the logarithm (never negative), where FTS5 floors
 *   ln((N − df + 0.5) / (df + 0.5)) at 1e-6;
 * - fields weigh title 2 : body 1 : tags 1 in both, but FTS5 scores each column separately while
 *   a tsvector holds the three as one document with weighted positions;
 * - stemming: PostgreSQL's `english` Snowball stemmer and stop-word list against FTS5's Porter
 *   stemmer without stop words; PostgreSQL keeps diacritics (FTS5 removes them), so "café" and
 *   "cafe" match on SQLite only; stop words ("the", "and", "not") never match on PostgreSQL.
 * Scores are therefore not comparable across backends, but rankings agree on ordinary text: more
 * matched terms first, rarer terms above common ones, shorter documents above longer ones.
 */
import type { ItemFilter } from '../../domain/filter.js';
import type { ScoredId } from '../store.js';
import type { Queryable } from './database.js';
import { compileFilter, Params } from './rows.js';

/** Ranks items for plain query terms; terms are text, never query syntax. */
export async function keywordSearch(
  db: Queryable,
  filter: ItemFilter,
  terms: readonly string[],
  limit: number,
): Promise<ScoredId[]> {
  // PostgreSQL text cannot hold NUL; a NUL only ever separates words.
  const clean = [...new Set(terms.map((t) => t.replaceAll('\u0000', ' ').trim()))].filter(Boolean);
  if (clean.length === 0 || limit <= 0) return [];
  const params = new Params();
  const termsParam = params.add(clean, '::text[]');
  const where = compileFilter(filter, params);
  const sql = `
WITH queries AS MATERIALIZED (
  SELECT DISTINCT plainto_tsquery('english', t) AS q FROM unnest(${termsParam}) AS t
), terms AS MATERIALIZED (
  SELECT q, (SELECT count(*) FROM items x WHERE x.search @@ queries.q) AS df
  FROM queries WHERE numnode(q) > 0
), total AS MATERIALIZED (
  SELECT CASE WHEN c.reltuples > 0 THEN c.reltuples::float8
    ELSE (SELECT count(*)::float8 FROM items) END AS n
  FROM pg_class c WHERE c.oid = 'items'::regclass
)
SELECT i.id, sum(ln(1 + (greatest(total.n, terms.df) - terms.df + 0.5) / (terms.df + 0.5)) * ts_rank('{0, 0.5, 0.5, 1}', i.search, terms.q, 1)) AS score
FROM terms JOIN items i ON i.search @@ terms.q CROSS JOIN total
WHERE ${where}
GROUP BY i.pk, i.id
ORDER BY score DESC, i.pk
LIMIT ${params.add(limit)}`;
  const rows = await db.query<{ id: string; score: number }>(sql, params.values);
  return rows.map((r) => ({ id: r.id, score: Number(r.score) }));
}
