/**
 * The SQLite keyword channel's query plan: BM25 through FTS5, kept fast on large stores. The index
 * holds words of unspaced scripts segmented (keyword-index.ts), as the query terms are.
 *
 * FTS5 scores every row that matches any query term, so one common term ("team" in a sixth of a
 * million memories) costs hundreds of milliseconds, and joining every match to `items` for the
 * filters costs as much again. These measures, each measured with bench/scale:
 * - the best rows are taken from the full-text index alone, then checked against the filters;
 *   when too few pass, again as deep as the share that passed asks for (up to 20,000 rows), and
 *   only past that does the exact joined query run (as the vector channel over-fetches);
 * - on large stores, terms found in more than a few percent of the rows are "common": candidates
 *   come from rows with a rarer term, and common terms still count in their score (the query
 *   `(rare) AND (common)` scores with every term; BM25 depends on the terms, not the operators).
 *   Rows matching only common terms are left out, as in Lucene's CommonTermsQuery;
 * - when even the rarest term is in more than `conjunctionMinRows` rows (on a million memories,
 *   a surname), candidates come from rows holding both of the two rarest terms when there are
 *   enough of them: FTS5 scores every row a term matches, and rows holding more of the query's
 *   words rank first in BM25 all but always (on 1M memories: p50 / p95 33.0 / 99.8 → 18.9 / 43.5
 *   ms, with the same 99.0% of exact BM25's top 10 as before);
 * - a filter on creation time (the time channel's, or a caller's) that holds few rows whose keys
 *   lie close together (memories are mostly stored in time order) reads the full-text index only
 *   within that key range: exact BM25 for those rows, in milliseconds where the joined query takes
 *   seconds at 100k rows.
 * Stores under `planMinRows` rows run the one plain joined query: exact BM25, and there the
 * fastest.
 *
 * All of this is FTS5's part. When the in-memory keyword index (keyword-memory.ts) can answer, it
 * does, after a creation-time window's key-range read and before everything else: exact BM25
 * with no common-term or pair shortcuts; space, status and creation time applied in memory,
 * other filters here.
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
import type { SqliteDatabase } from './database.js';
import type { KeywordMemory } from './keyword-memory.js';
import type { RankedRow } from './keyword-postings.js';
import { COLUMN_WEIGHTS } from './keyword-tokens.js';
import { compileFilter } from './rows.js';
import { Statements } from './statements.js';

/** Where the plan changes; the defaults come from bench/scale. */
export interface FtsPlanOptions extends CommonTermsPlan {
  /**
   * When the rarest term alone holds more rows than this, candidates come first from rows that
   * also hold the next rarest term.
   */
  conjunctionMinRows: number;
  /** The deepest over-fetch before the exact joined query (reading the index alone stays cheap). */
  overfetchMax: number;
  /** A creation-time filter holding at most this many rows reads the index in their key range... */
  windowMaxRows: number;
  /** ...when that range spans at most this many times as many keys as rows it holds. */
  windowMaxSpread: number;
}

/** The plan's defaults. */
export const FTS_PLAN_DEFAULTS: FtsPlanOptions = {
  ...COMMON_TERMS_PLAN,
  conjunctionMinRows: 5_000,
  overfetchMax: 20_000,
  windowMaxRows: 20_000,
  windowMaxSpread: 4,
};

/** Candidates taken from the index before filtering, as a multiple of the limit (at least FETCH_MIN). */
const OVERFETCH = 2;
const FETCH_MIN = 50;

const BM25 = `bm25(items_fts, ${COLUMN_WEIGHTS.join(', ')})`;

/** A term as an FTS5 string: always plain text (FTS5 reads the query as a C string, so no NUL). */
function quote(term: string): string {
  return `"${term.replaceAll('\u0000', ' ').replaceAll('"', '""')}"`;
}

/** The filter fields the in-memory index applies itself. */
const MEMORY_FILTERS = new Set(['space', 'statuses', 'created_after', 'created_before']);

/** Whether the in-memory index can apply the whole filter (space, statuses, creation time). */
function inMemory(filter: ItemFilter): boolean {
  return Object.entries(filter).every(
    ([key, value]) =>
      MEMORY_FILTERS.has(key) ||
      value === undefined ||
      (Array.isArray(value) && value.length === 0),
  );
}

/** BM25 keyword search with a per-connection cache of term document frequencies. */
export class FtsSearch {
  private readonly df = new Map<string, { df: number; rows: number }>();

  private readonly sql: Statements;

  constructor(
    db: SqliteDatabase,
    private readonly plan: FtsPlanOptions = FTS_PLAN_DEFAULTS,
    /** The in-memory index answering in FTS5's place when it can (keyword-memory.ts). */
    private readonly memory?: KeywordMemory,
  ) {
    this.sql = new Statements(db);
  }

  /** The best `limit` items of the filter for any of the terms, best first (score = -bm25). */
  search(filter: ItemFilter, terms: readonly string[], limit: number): ScoredId[] {
    if (terms.length === 0 || limit <= 0) return [];
    const rows = this.rows();
    const small = rows < this.plan.planMinRows;
    // A narrow creation-time window reads FTS5 within its key range (exact and fastest).
    const windowed = small ? null : this.windowed(filter, terms, limit);
    if (windowed !== null) return windowed;
    const memory = this.memory?.rank(filter.space, terms);
    // Space, status and creation time are known to the index; other filters are checked here.
    if (memory && inMemory(filter)) return memory.items(limit, filter);
    if (memory) return this.filtered(filter, terms, limit, (fetch) => memory.top(fetch));
    if (small) return this.exact(compileFilter(filter), terms, limit);
    const { rare, common, pair } = this.split(terms, limit, rows);
    const candidates = (fetch: number) => {
      if (pair) {
        // Rows holding both of the two rarest terms, when they are enough.
        const both = this.commonTerms(`${quote(pair[0])} AND ${quote(pair[1])}`, pair[2], fetch);
        if (both.length >= fetch) return both;
      }
      return common.length === 0
        ? this.top(rare.map(quote).join(' OR '), fetch)
        : this.commonTerms(rare.map(quote).join(' OR '), common, fetch);
    };
    return this.filtered(filter, terms, limit, candidates);
  }

  /**
   * The best `limit` candidates passing the filter: candidates best first from `candidates`,
   * fetched deeper while too few pass, then the exact joined query.
   */
  private filtered(
    filter: ItemFilter,
    terms: readonly string[],
    limit: number,
    candidates: (fetch: number) => RankedRow[],
  ): ScoredId[] {
    const where = compileFilter(filter);
    let fetch = Math.max(limit * OVERFETCH, FETCH_MIN);
    for (;;) {
      const found = candidates(fetch);
      const passed = this.keep(where, found);
      // Enough passed the filter, or every candidate was examined: done.
      if (passed.length >= limit || found.length < fetch) return passed.slice(0, limit);
      // Else fetch again as deep as the share that passed says is needed (twice, for safety),
      // while that stays within reach; past it the exact joined query decides.
      const deeper = Math.ceil((2 * limit * fetch) / Math.max(1, passed.length));
      if (deeper > this.plan.overfetchMax) return this.exact(where, terms, limit);
      fetch = deeper;
    }
  }

  /**
   * BM25 within the key range of a creation-time window (see the file header), or null when the
   * filter has no such window or it is too large or too scattered for this plan.
   */
  private windowed(filter: ItemFilter, terms: readonly string[], limit: number): ScoredId[] | null {
    if (filter.created_after === undefined && filter.created_before === undefined) return null;
    const bounds = {
      space: filter.space,
      after: filter.created_after ?? Number.MIN_SAFE_INTEGER,
      before: filter.created_before ?? Number.MAX_SAFE_INTEGER,
      cap: this.plan.windowMaxRows,
    };
    // The index on (space, created_at) counts the window, stopping past the cap.
    const { n } = this.sql
      .get(
        'SELECT count(*) AS n FROM (SELECT 1 FROM items WHERE space = @space AND created_at >= @after AND created_at < @before LIMIT @cap + 1)',
      )
      .get(bounds) as { n: number };
    if (n === 0) return [];
    if (n > this.plan.windowMaxRows) return null;
    const { lo, hi } = this.sql
      .get(
        'SELECT min(pk) AS lo, max(pk) AS hi FROM items WHERE space = @space AND created_at >= @after AND created_at < @before',
      )
      .get(bounds) as { lo: number; hi: number };
    if (hi - lo + 1 > n * this.plan.windowMaxSpread) return null;
    const ranked = this.sql
      .get(
        `SELECT rowid AS pk, ${BM25} AS rank FROM items_fts WHERE items_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rank, rowid`,
      )
      .all(terms.map(quote).join(' OR '), lo, hi) as RankedRow[];
    // The filter decides in slices, best first, until the answer is full.
    const where = compileFilter(filter);
    const out: ScoredId[] = [];
    const slice = Math.max(limit * OVERFETCH, FETCH_MIN);
    for (let at = 0; at < ranked.length && out.length < limit; at += slice)
      out.push(...this.keep(where, ranked.slice(at, at + slice)));
    return out.slice(0, limit);
  }

  /**
   * Splits terms into rare ones (candidates come from them) and common ones (scoring only); with
   * `pair` when the rarest term alone is too common: its two rarest terms and the others.
   */
  private split(
    terms: readonly string[],
    limit: number,
    rows: number,
  ): { rare: string[]; common: string[]; pair?: [string, string, string[]] } {
    const unique = [...new Set(terms)];
    if (unique.length === 1) return { rare: unique, common: [] };
    const byDf = unique
      .map((term) => ({ term, df: this.frequency(term, rows) }))
      .sort((a, b) => a.df - b.df);
    const rare = candidateTerms(this.plan, byDf, limit, rows).map((t) => t.term);
    const common = byDf.slice(rare.length).map((t) => t.term);
    const [first, second] = byDf;
    const pair: [string, string, string[]] | undefined =
      first!.df > this.plan.conjunctionMinRows
        ? [first!.term, second!.term, byDf.slice(2).map((t) => t.term)]
        : undefined;
    return { rare, common, ...(pair && { pair }) };
  }

  /**
   * Rows matching `match`, scored with every term: with a common term too, the full score
   * replaces the score of the match alone; merged best first.
   */
  private commonTerms(match: string, common: string[], fetch: number): RankedRow[] {
    const scores = new Map<number, number>();
    for (const row of this.top(match, fetch)) scores.set(row.pk, row.rank);
    if (common.length > 0) {
      const c = common.map(quote).join(' OR ');
      for (const row of this.top(`(${match}) AND (${c})`, fetch)) scores.set(row.pk, row.rank);
    }
    return [...scores]
      .map(([pk, rank]) => ({ pk, rank }))
      .sort((a, b) => a.rank - b.rank || a.pk - b.pk)
      .slice(0, fetch);
  }

  /** The index's best rows for a match expression, without touching `items`. */
  private top(match: string, fetch: number): RankedRow[] {
    return this.sql
      .get(
        `SELECT rowid AS pk, ${BM25} AS rank FROM items_fts WHERE items_fts MATCH ? ORDER BY rank, rowid LIMIT ?`,
      )
      .all(match, fetch) as RankedRow[];
  }

  /** The candidates that pass the filter, in candidate order. */
  private keep(where: ReturnType<typeof compileFilter>, candidates: RankedRow[]): ScoredId[] {
    if (candidates.length === 0) return [];
    const rows = this.sql
      .get(
        // A primary-key lookup per candidate (the planner would rather scan the space index).
        `SELECT i.pk, i.id FROM json_each(@pks) j CROSS JOIN items i ON i.pk = j.value WHERE ${where.sql}`,
      )
      .all({ ...where.params, pks: JSON.stringify(candidates.map((c) => c.pk)) }) as {
      pk: number;
      id: string;
    }[];
    const ids = new Map(rows.map((r) => [r.pk, r.id]));
    return candidates.flatMap((c) => {
      const id = ids.get(c.pk);
      return id === undefined ? [] : [{ id, score: -c.rank }];
    });
  }

  /** Plain BM25 over every term, joined to the filter (exact; used when over-fetching fell short). */
  private exact(where: ReturnType<typeof compileFilter>, terms: readonly string[], limit: number) {
    const match = terms.map(quote).join(' OR ');
    const rows = this.sql
      .get(
        // CROSS JOIN keeps the index outside: with a time range the planner would rather walk
        // `items` by creation time and evaluate the match once per row, seconds on 10k rows.
        `SELECT i.id AS id, ${BM25} AS rank FROM items_fts CROSS JOIN items i ON i.pk = items_fts.rowid WHERE items_fts MATCH @match AND ${where.sql} ORDER BY rank, i.pk LIMIT @limit`,
      )
      .all({ ...where.params, match, limit }) as { id: string; rank: number }[];
    return rows.map((r) => ({ id: r.id, score: -r.rank }));
  }

  /** Rows in the store, from the largest key (cheap; deletions make it an overestimate). */
  private rows(): number {
    const row = this.sql.get('SELECT max(pk) AS n FROM items').get() as { n: number | null };
    return row.n ?? 0;
  }

  /** How many rows hold a term; counted once and reused until the store size drifts. */
  private frequency(term: string, rows: number): number {
    const cached = this.df.get(term);
    if (cached && frequencyHolds(cached.rows, rows)) return cached.df;
    const { n } = this.sql
      .get('SELECT count(*) AS n FROM items_fts WHERE items_fts MATCH ?')
      .get(quote(term)) as { n: number };
    if (this.df.size > DF_CACHE_MAX) this.df.clear();
    this.df.set(term, { df: n, rows });
    return n;
  }
}
