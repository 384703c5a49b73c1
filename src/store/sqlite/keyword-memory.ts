/**
 * The SQLite keyword channel's in-memory index: the same BM25 as FTS5's `bm25()` over the same
 * tokens, answered from postings held in memory. FTS5 scores every row matching any query term
 * and counts each term's rows for its idf on every query (0.85 ms of a 5.5 ms LoCoMo recall on
 * 419 rows; tens of milliseconds at 100k); here a query reads each term's postings once.
 *
 * Exactness: tokens come from FTS5 itself (keyword-tokens.ts: a private in-memory FTS5 table
 * with the store's tokenizer, read back through `fts5vocab`), so a row's terms, its length and
 * the query's terms are the ones the full-text index holds; scores (keyword-postings.ts) follow
 * FTS5's formula and order of operations (k1 1.2, b 0.75, the column weights, idf floored at
 * 1e-6, every row of the index counted), and ties go to the smaller key as `ORDER BY rank,
 * rowid` does.
 *
 * Kept in step through the `keyword_changes` log (migration 13): triggers on `items` record the
 * key of every row whose indexed text, space, status or creation time changed (what the index
 * holds), with an increasing sequence number, so writes of any connection or process are seen. A search first applies the changes past what
 * the index covers (at most CATCHUP_MAX; more, and the search uses FTS5 while slices catch up).
 * The index is never on the critical path while it is built: a store of more than
 * SYNC_BUILD_ROWS rows is read in background slices (searches use FTS5 meanwhile), a smaller one
 * on its first search. Inside a transaction that changed indexed text the index cannot know what
 * will commit, so such a search uses FTS5 too. `store.keyword_memory: false` turns it off (CLI
 * commands, which search once, open the store so).
 */
import type { KeywordIndexState } from '../store.js';
import type { SqliteDatabase } from './database.js';
import { type KeywordRanking, Postings } from './keyword-postings.js';
import { type RowText, Tokenizer } from './keyword-tokens.js';

export type { KeywordRanking, MatchedItem, MemoryFilter, RankedRow } from './keyword-postings.js';
export { COLUMN_WEIGHTS } from './keyword-tokens.js';

/** The change log the index follows (migration 13; idempotent, as a re-run step may find it). */
export const KEYWORD_CHANGES_SQL = `
CREATE TABLE IF NOT EXISTS keyword_changes (
  pk INTEGER PRIMARY KEY,
  seq INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS keyword_changes_seq ON keyword_changes(seq);
CREATE TRIGGER IF NOT EXISTS keyword_changes_insert AFTER INSERT ON items BEGIN
  INSERT OR REPLACE INTO keyword_changes(pk, seq)
  VALUES (new.pk, (SELECT coalesce(max(seq), 0) + 1 FROM keyword_changes));
END;
CREATE TRIGGER IF NOT EXISTS keyword_changes_delete AFTER DELETE ON items BEGIN
  INSERT OR REPLACE INTO keyword_changes(pk, seq)
  VALUES (old.pk, (SELECT coalesce(max(seq), 0) + 1 FROM keyword_changes));
END;
CREATE TRIGGER IF NOT EXISTS keyword_changes_update
AFTER UPDATE OF space, status, created_at, title, body, tags_text, seg_title, seg_body, seg_tags
ON items BEGIN
  INSERT OR REPLACE INTO keyword_changes(pk, seq)
  VALUES (new.pk, (SELECT coalesce(max(seq), 0) + 1 FROM keyword_changes));
END;
`;

/** Stores up to this many rows are indexed on their first search; larger ones in the background. */
const SYNC_BUILD_ROWS = 1_000;
/** Changes a search applies itself before answering; past this, background slices catch up. */
const CATCHUP_MAX = 256;
/** Milliseconds of building or catching up per background slice. */
const SLICE_MS = 12;
/** Rows read and tokenized at a time. */
const PAGE = 256;
/** Removed rows left in the postings before the index is rebuilt (and at least the live rows). */
const DEAD_MAX = 20_000;

/** Where the index stands. */
type State = 'idle' | 'building' | 'ready' | 'failed' | 'closed';

/** The in-memory keyword index of one connection (see the file header). */
export class KeywordMemory {
  private postings = new Postings();
  private tokenizer: Tokenizer | undefined;
  private state: State = 'idle';
  /** The log position the index reflects. */
  private covered = 0;
  /** While building: the log position the build started from, and the last row read. */
  private buildFrom = 0;
  private buildAfter = 0;
  private timer: NodeJS.Timeout | undefined;
  private waiting: (() => void)[] = [];
  private lastError: string | null = null;
  private readonly sql;

  constructor(private readonly db: SqliteDatabase) {
    this.sql = {
      maxRow: db.prepare('SELECT max(pk) AS n FROM items').pluck(),
      pending: db.prepare('SELECT count(*) FROM keyword_changes WHERE seq > ?').pluck(),
      maxSeq: db.prepare('SELECT coalesce(max(seq), 0) FROM keyword_changes').pluck(),
      changes: db
        .prepare('SELECT pk, seq FROM keyword_changes WHERE seq > ? ORDER BY seq LIMIT ?')
        .raw(),
      page: db.prepare(
        `SELECT pk, id, space, status, created_at, coalesce(seg_title, title) AS title,
           coalesce(seg_body, body) AS body, coalesce(seg_tags, tags_text) AS tags
         FROM items WHERE pk > ? ORDER BY pk LIMIT ?`,
      ),
      rows: db.prepare(
        `SELECT pk, id, space, status, created_at, coalesce(seg_title, title) AS title,
           coalesce(seg_body, body) AS body, coalesce(seg_tags, tags_text) AS tags
         FROM items WHERE pk IN (SELECT value FROM json_each(?))`,
      ),
    };
  }

  /**
   * The ranking of `space`'s rows for the query terms, or null when the index cannot answer
   * now (still being built, too far behind, or inside a transaction that changed indexed text).
   */
  rank(space: string, terms: readonly string[]): KeywordRanking | null {
    if (this.state === 'closed' || this.state === 'failed') return null;
    return this.guarded(() => {
      if (this.state === 'idle') this.start();
      if (this.state !== 'ready') return null;
      const changes = this.sql.changes.all(this.covered, CATCHUP_MAX + 1) as [number, number][];
      if (changes.length > 0) {
        if (this.db.inTransaction) return null;
        if (changes.length > CATCHUP_MAX) {
          this.schedule();
          return null;
        }
        this.apply(changes);
        if (this.state !== 'ready') return null;
      }
      const tokens = this.tokens().query(terms);
      return tokens === undefined ? null : this.postings.rank(space, tokens);
    });
  }

  /** Where the index stands, for `status`. */
  status(): KeywordIndexState {
    const building = this.state === 'building';
    const pending =
      this.state === 'ready' || building
        ? (this.sql.pending.get(building ? this.buildFrom : this.covered) as number)
        : 0;
    const state =
      this.state === 'idle' || this.state === 'closed'
        ? 'not_started'
        : this.state === 'ready' && pending > CATCHUP_MAX
          ? 'catching_up'
          : this.state;
    return {
      state,
      rows: this.postings.rows,
      pending,
      covered_seq: this.covered,
      last_error: this.lastError,
    };
  }

  /** Resolves once the index is built and has caught up with the log (at once when closed). */
  ready(): Promise<void> {
    if (this.state === 'idle') this.guarded(() => this.start());
    if (
      this.state === 'closed' ||
      this.state === 'failed' ||
      (this.state === 'ready' && !this.behind())
    )
      return Promise.resolve();
    const waited = new Promise<void>((resolve) => this.waiting.push(resolve));
    this.schedule();
    // Someone waits: the slices keep the process alive until it is ready.
    this.timer?.ref();
    return waited;
  }

  /** Stops background work and releases the tokenizer. */
  close(): void {
    this.settle();
    this.state = 'closed';
    clearTimeout(this.timer);
    this.tokenizer?.close();
    this.tokenizer = undefined;
  }

  /**
   * Runs index work; a failure (the database unreadable, say) leaves the index off for this
   * process, FTS5 answering every search, with the error in `status`.
   */
  private guarded<T>(fn: () => T): T | null {
    try {
      return fn();
    } catch (err) {
      this.lastError = (err as Error).message;
      this.state = 'failed';
      this.postings = new Postings();
      clearTimeout(this.timer);
      this.timer = undefined;
      this.settle();
      return null;
    }
  }

  private tokens(): Tokenizer {
    return (this.tokenizer ??= new Tokenizer());
  }

  /** Starts a build: at once on a small store, else in background slices. */
  private start(): void {
    if (this.db.inTransaction) return;
    this.postings = new Postings();
    this.buildFrom = this.sql.maxSeq.get() as number;
    this.buildAfter = 0;
    this.state = 'building';
    const rows = (this.sql.maxRow.get() as number | null) ?? 0;
    if (rows <= SYNC_BUILD_ROWS) this.work(Number.POSITIVE_INFINITY);
    else this.schedule();
  }

  private schedule(): void {
    if (this.timer !== undefined || this.state === 'closed' || this.state === 'failed') return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.state === 'closed' || this.state === 'failed') return;
      if (!this.db.open) return this.close();
      if (this.db.inTransaction) return this.schedule();
      const more = this.guarded(() => this.work(SLICE_MS));
      if (more) this.schedule();
      else this.settle();
    }, 0);
    if (this.waiting.length === 0) this.timer.unref();
  }

  /** Whether the log holds changes the index has not applied. */
  private behind(): boolean {
    return this.sql.changes.all(this.covered, 1).length > 0;
  }

  /** Wakes whoever waits for the index to be ready. */
  private settle(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  /** Builds or catches up for at most `ms`; true when there is more to do. */
  private work(ms: number): boolean {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      if (this.state === 'building') {
        const page = this.sql.page.all(this.buildAfter, PAGE) as RowText[];
        this.index(page);
        if (page.length > 0) this.buildAfter = page[page.length - 1]!.pk;
        if (page.length < PAGE) {
          this.covered = this.buildFrom;
          this.state = 'ready';
        }
        continue;
      }
      if (this.state !== 'ready') return false;
      const changes = this.sql.changes.all(this.covered, PAGE) as [number, number][];
      if (changes.length === 0) return false;
      this.apply(changes);
    }
    return true;
  }

  /** Applies logged changes: each row is read again (or dropped when gone). */
  private apply(changes: readonly [number, number][]): void {
    const pks = changes.map(([pk]) => pk);
    for (const pk of pks) this.postings.remove(pk);
    this.index(this.sql.rows.all(JSON.stringify(pks)) as RowText[]);
    this.covered = changes[changes.length - 1]![1];
    const p = this.postings;
    if (p.dead > DEAD_MAX && p.dead > p.rows) {
      // Mostly removed rows: build afresh (searches use FTS5 meanwhile).
      this.state = 'idle';
      this.start();
    }
  }

  private index(rows: readonly RowText[]): void {
    if (rows.length === 0) return;
    const tokens = this.tokens().rows(rows);
    rows.forEach((r, i) => this.postings.put(r, tokens[i]!));
  }
}
