/**
 * The keyword channel on PostgreSQL: a BM25-like ranking over the `english` tsvector of title
 * (weight A), body (B) and tags (C), read from their segmented text where they hold an unspaced
 * script (keyword-index.ts); query terms come segmented the same way (domain/text.ts).
 *
 * score(d) = Σ over query terms t matching d of  idf(t) · ts_rank({0, .5, .5, 1}, d, t, 1)
 * idf(t)   = max(ln((N − df(t) + 0.5) / (df(t) + 0.5)), 1e-6)   (as FTS5: df over the whole
 *                                                                table; N from the planner's row
 *                                                                estimate)
 *
 * Differences from SQLite's FTS5 bm25() (documented in docs/postgres.md):
 * - term frequency saturates through ts_rank's position weighting instead of BM25's k1 = 1.2,
 *   and length normalisation is ts_rank's 1 + log(length) instead of BM25's b = 0.75 against the
 *   average length; idf is FTS5's (with 1 added inside the logarithm, function words of other
 *   languages than English, such as Portuguese "o", "da" and "é", outweighed a name on short
 *   memories: bench/locomo/levers.md, "PostgreSQL's idf");
 * - fields weigh title 2 : body 1 : tags 1 in both, but FTS5 scores each column separately while
 *   a tsvector holds the three as one document with weighted positions;
 * - stemming: PostgreSQL's `english` Snowball stemmer and stop-word list against FTS5's Porter
 *   stemmer without stop words, so stop words ("the", "and", "not") never match on PostgreSQL;
 *   both fold Latin diacritics out ("cafe" finds "café"; on PostgreSQL through `keyword_fold`,
 *   fold.ts, since migration 13, on a UTF8 database of PostgreSQL 13 or newer).
 * Scores are therefore not comparable across backends, but rankings agree on ordinary text: more
 * matched terms first, rare terms above common ones, shorter documents above longer ones.
 *
 * The plan, as on SQLite (fts-search.ts), keeps large stores fast: each row is scored once, with
 * one term after another, so no grouping of (row, term) pairs spills to disk; and on stores of
 * `planMinRows` rows and more, terms held by more than a few percent of the rows are "common":
 * candidates come from rows holding a rarer term and common terms only add to their score (rows
 * holding only common terms are left out, as in Lucene's CommonTermsQuery), and each term's
 * document frequency is counted once and reused until the store has grown or shrunk by a fifth.
 * Smaller stores count every term on every search and score every matching row: exact.
 */
import type { ItemFilter } from '../../domain/filter.js';
import {
  candidateTerms,
  COMMON_TERMS_PLAN,
  type CommonTermsPlan,
  DF_CACHE_MAX,
  frequencyHolds,
} from '../common-terms.js';
import type { ScoredId } from '../store.js';
import type { Queryable } from './database.js';
import { compileFilter, Params } from './rows.js';

/** Where the plan changes (the same defaults as SQLite's keyword plan). */
export interface PgKeywordPlan extends CommonTermsPlan {
  /** How long a large store's row estimate is reused (it only moves with ANALYZE). */
  rowsTtlMs: number;
}

export const PG_KEYWORD_PLAN: PgKeywordPlan = {
  ...COMMON_TERMS_PLAN,
  rowsTtlMs: 30_000,
};

/** A term's document frequency; null for a term with no lexeme (a stop word). */
type Frequency = number | null;
/** `[term, frequency]` pairs as the counting query returns them. */
type Counted = [string, Frequency][];

/**
 * The tsquery of one query term, an SQL text expression: its words stemmed by the `english`
 * configuration, with Latin diacritics folded out as the index folds them (`keyword_fold`,
 * fold.ts); never query syntax.
 */
export function termQuery(term: string): string {
  return `plainto_tsquery('english', keyword_fold(${term}))`;
}

/** Counts the rows holding each term of the text array $1 (null for a stop word), as JSON. */
const COUNTS = `SELECT coalesce(json_agg(json_build_array(s.t, CASE WHEN numnode(s.q) > 0
    THEN (SELECT count(*) FROM items x WHERE x.search @@ s.q) END)), '[]')
  FROM (SELECT t, ${termQuery('t')} AS q FROM unnest($1::text[]) AS t) s`;

/**
 * idf(t) from the SQL expressions of N and df (see the file header), computed by the server: FTS5's
 * formula, floored at 1e-6 as FTS5 floors it, so a term held by half the rows or more weighs next to
 * nothing on both backends.
 */
export function idf(n: string, df: string): string {
  return `GREATEST(ln((GREATEST(${n}, ${df}) - ${df} + 0.5) / (${df} + 0.5)), 1e-6)`;
}

/** ts_rank of the row's tsvector for a tsquery SQL expression. */
function rank(q: string): string {
  return `ts_rank('{0, 0.5, 0.5, 1}', i.search, ${q}, 1)`;
}

/** Terms in one fixed order (by text), so every plan adds a row's term scores up alike. */
function byTerm<T extends { term: string }>(terms: readonly T[]): T[] {
  return [...terms].sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
}

/** The keyword channel of one PostgreSQL store, with its cache of term frequencies. */
export class PgKeywordSearch {
  private readonly df = new Map<string, { df: Frequency; rows: number }>();
  /** The row estimate last read, and when. */
  private rowsSeen: { n: number; at: number } | null = null;

  constructor(private readonly plan: PgKeywordPlan = PG_KEYWORD_PLAN) {}

  /** Ranks items for plain query terms; terms are text, never query syntax. */
  async search(
    db: Queryable,
    filter: ItemFilter,
    terms: readonly string[],
    limit: number,
  ): Promise<ScoredId[]> {
    // PostgreSQL text cannot hold NUL; a NUL only ever separates words.
    const clean = [...new Set(terms.map((t) => t.replaceAll('\u0000', ' ').trim()))].filter(
      Boolean,
    );
    if (clean.length === 0 || limit <= 0) return [];
    const seen = this.rowsSeen;
    // A store known to be small (its estimate is fresh): one statement counts and ranks.
    if (seen && Date.now() - seen.at < this.plan.rowsTtlMs && seen.n < this.plan.planMinRows)
      return this.small(db, filter, clean, limit);
    const { rows, df } = await this.frequencies(db, clean);
    const live = clean
      .filter((t) => df.get(t) !== null)
      .map((term) => ({ term, df: df.get(term) ?? 0 }))
      .sort((a, b) => a.df - b.df || (a.term < b.term ? -1 : 1));
    if (live.length === 0) return [];
    const candidates =
      rows < this.plan.planMinRows ? live : candidateTerms(this.plan, live, limit, rows);

    const params = new Params();
    const query = (term: string) => termQuery(params.add(term, '::text'));
    const n = params.add(rows, '::float8');
    const score = byTerm(live)
      .map(({ term, df: count }) => {
        const q = query(term);
        return `CASE WHEN i.search @@ ${q} THEN ${idf(n, params.add(count, '::float8'))} * ${rank(q)} ELSE 0 END`;
      })
      .join(' + ');
    const match = candidates.map(({ term }) => query(term)).join(' || ');
    const where = compileFilter(filter, params);
    const sql = `SELECT i.id, ${score} AS score FROM items i
WHERE i.search @@ (${match}) AND ${where}
ORDER BY score DESC, i.pk
LIMIT ${params.add(limit)}`;
    const found = await db.query<{ id: string; score: number }>(sql, params.values);
    return found.map((r) => ({ id: r.id, score: Number(r.score) }));
  }

  /**
   * A small store's exact search in one statement: the rows holding any term are read once,
   * each term's document frequency counted over them (window counts: every row holding a term
   * holds one of the terms), the filter applied after. Counting each term apart before ranking
   * read those rows twice (4.6 of 8.4 ms on 10k items). Scores are the other plan's bit for bit
   * (the same expression, terms in the same order).
   */
  private async small(
    db: Queryable,
    filter: ItemFilter,
    terms: readonly string[],
    limit: number,
  ): Promise<ScoredId[]> {
    const params = new Params();
    const ordered = byTerm(terms.map((term) => ({ term })));
    const qs = ordered.map(({ term }, k) => `${termQuery(params.add(term, '::text'))} AS q${k}`);
    const ranks = ordered.map(
      (_, k) =>
        `CASE WHEN i.search @@ t.q${k} THEN ${rank(`t.q${k}`)} END AS r${k}, count(*) FILTER (WHERE i.search @@ t.q${k}) OVER () AS df${k}`,
    );
    const score = ordered
      .map(
        (_, k) =>
          `CASE WHEN m.r${k} IS NOT NULL THEN ${idf('e.n', `m.df${k}::float8`)} * m.r${k} ELSE 0 END`,
      )
      .join(' + ');
    const where = compileFilter(filter, params);
    const sql = `WITH t AS MATERIALIZED (SELECT ${qs.join(', ')}),
e AS (SELECT CASE WHEN c.reltuples > 0 THEN c.reltuples::float8
  ELSE (SELECT count(*)::float8 FROM items) END AS n FROM pg_class c WHERE c.oid = 'items'::regclass)
SELECT m.id, ${score} AS score, e.n AS rows FROM (
  SELECT i.id, i.pk, (${where}) IS TRUE AS keep, ${ranks.join(', ')}
  FROM items i, t WHERE i.search @@ (${ordered.map((_, k) => `t.q${k}`).join(' || ')})
) m, e
WHERE m.keep
ORDER BY score DESC, m.pk
LIMIT ${params.add(limit)}`;
    const found = await db.query<{ id: string; score: number; rows: number }>(sql, params.values);
    if (found[0]) this.rowsSeen = { n: Number(found[0].rows), at: Date.now() };
    return found.map((r) => ({ id: r.id, score: Number(r.score) }));
  }

  /**
   * The store's row estimate and each term's document frequency: counted for every term on a
   * small store, and for the terms not cached (or cached too long ago) on a large one. A large
   * store whose estimate was read within `rowsTtlMs` and whose terms are all cached needs no
   * round trip at all; otherwise one reads the estimate and counts what is missing.
   */
  private async frequencies(
    db: Queryable,
    terms: readonly string[],
  ): Promise<{ rows: number; df: Map<string, Frequency> }> {
    const missing = (rows: number | null) =>
      terms.filter((t) => {
        const cached = this.df.get(t);
        return (
          rows === null ||
          rows < this.plan.planMinRows ||
          !cached ||
          !frequencyHolds(cached.rows, rows)
        );
      });
    const now = Date.now();
    const seen = this.rowsSeen;
    const fresh = seen && now - seen.at < this.plan.rowsTtlMs ? seen.n : null;
    const df = new Map<string, Frequency>();
    const cachedOnly = () => {
      for (const t of terms) if (!df.has(t)) df.set(t, this.df.get(t)!.df);
      return df;
    };
    if (fresh !== null && missing(fresh).length === 0) return { rows: fresh, df: cachedOnly() };
    // Counted with the estimate the last search saw; a store that crossed the drift bound since
    // is counted again below.
    const result = await db.query<{ n: number; counts: Counted }>(
      `SELECT (SELECT CASE WHEN c.reltuples > 0 THEN c.reltuples::float8
    ELSE (SELECT count(*)::float8 FROM items) END
  FROM pg_class c WHERE c.oid = 'items'::regclass) AS n, (${COUNTS}) AS counts`,
      [missing(seen?.n ?? null)],
    );
    const rows = Number(result[0]?.n ?? 0);
    this.rowsSeen = { n: rows, at: now };
    const take = (counts: Counted | undefined) => {
      for (const [t, n] of counts ?? []) df.set(t, n === null ? null : Number(n));
    };
    take(result[0]?.counts);
    const again = missing(rows).filter((t) => !df.has(t));
    if (again.length > 0)
      take(
        (await db.query<{ counts: Counted }>(`SELECT (${COUNTS}) AS counts`, [again]))[0]?.counts,
      );
    if (rows >= this.plan.planMinRows) {
      if (this.df.size > DF_CACHE_MAX) this.df.clear();
      for (const [t, n] of df) this.df.set(t, { df: n, rows });
    }
    return { rows, df: cachedOnly() };
  }
}
