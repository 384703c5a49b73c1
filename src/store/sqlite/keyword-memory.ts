/**
 * The SQLite keyword channel's in-memory index: the same BM25 as FTS5's `bm25()` over the same
 * tokens, answered from postings held in memory. FTS5 scores every row matching any query term
 * and counts each term's rows for its idf on every query (0.85 ms of a 5.5 ms LoCoMo recall on
 * 419 rows; tens of milliseconds at 100k); here a query reads each term's postings once.
 *
 * Exactness: tokens come from FTS5 itself (a private in-memory FTS5 table with the store's
 * tokenizer, read back through `fts5vocab`), so a row's terms, its length and the query's terms
 * are the ones the full-text index holds; scores follow FTS5's formula and order of operations
 * (k1 1.2, b 0.75, the column weights below, idf floored at 1e-6, every row of the index
 * counted), and ties go to the smaller key as `ORDER BY rank, rowid` does.
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
import Database from 'better-sqlite3';

import type { KeywordIndexState } from '../store.js';
import type { SqliteDatabase } from './database.js';
import { FTS_TOKENIZER } from './keyword-index.js';
import { TopK } from './vector-cache.js';

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

/** BM25 column weights of title, body and tags text (`bm25(items_fts, ...)` uses the same). */
export const COLUMN_WEIGHTS = [2, 1, 1] as const;
const COLUMNS = ['title', 'body', 'tags_text'] as const;
/** FTS5's BM25 constants. */
const K1 = 1.2;
const B = 0.75;

/** Stores up to this many rows are indexed on their first search; larger ones in the background. */
const SYNC_BUILD_ROWS = 1_000;
/** Changes a search applies itself before answering; past this, background slices catch up. */
const CATCHUP_MAX = 256;
/** Milliseconds of building or catching up per background slice. */
const SLICE_MS = 12;
/** Rows read and tokenized at a time. */
const PAGE = 256;
/** Query terms whose tokens are remembered (emptied wholesale past this). */
const TERM_CACHE_MAX = 50_000;
/** Removed rows left in the postings before the index is rebuilt (and at least the live rows). */
const DEAD_MAX = 20_000;

/** A row best first: its key and FTS5's rank (the negated score). */
export interface RankedRow {
  pk: number;
  rank: number;
}

/** A matching item with its id and BM25 score. */
export interface MatchedItem {
  id: string;
  score: number;
}

/** The rows matching any term of one query, scored. */
export interface KeywordRanking {
  /** How many rows matched. */
  readonly matched: number;
  /** The best `n` rows, best first. */
  top(n: number): RankedRow[];
  /**
   * The best `n` items whose status is one of `statuses` (a null status counts as active),
   * created within the range when one is given.
   */
  items(n: number, where: MemoryFilter): MatchedItem[];
}

/** What the index filters on besides the space. */
export interface MemoryFilter {
  statuses: readonly string[];
  created_after?: number;
  created_before?: number;
}

/** A row's indexed text as FTS5 reads it, with what the index filters on. */
interface RowText {
  pk: number;
  id: string;
  space: string;
  status: string | null;
  created_at: number;
  title: string | null;
  body: string;
  tags: string;
}

/** A row's tokens: weighted frequency per term, and its length in tokens. */
interface RowTokens {
  freqs: Map<string, number>;
  length: number;
}

/** Tokenizes text exactly as the store's full-text index does, through FTS5 itself. */
class Tokenizer {
  private readonly db = new Database(':memory:');
  private readonly insert;
  private readonly instances;
  private readonly clear;
  private readonly terms = new Map<string, string | null>();

  constructor() {
    this.db.exec(`
      CREATE VIRTUAL TABLE probe USING fts5(title, body, tags_text, content = '', tokenize = "${FTS_TOKENIZER}");
      CREATE VIRTUAL TABLE probe_instances USING fts5vocab(probe, instance);
    `);
    this.insert = this.db.prepare(
      'INSERT INTO probe(rowid, title, body, tags_text) VALUES (?, ?, ?, ?)',
    );
    this.instances = this.db.prepare('SELECT term, doc, col FROM probe_instances').raw();
    this.clear = this.db.prepare("INSERT INTO probe(probe) VALUES ('delete-all')");
  }

  /** The tokens of each row, in the order given. */
  rows(rows: readonly RowText[]): RowTokens[] {
    const out = rows.map(() => ({ freqs: new Map<string, number>(), length: 0 }));
    this.db.transaction(() => {
      rows.forEach((r, i) => this.insert.run(i + 1, r.title, r.body, r.tags));
    })();
    for (const [term, doc, col] of this.instances.iterate() as Iterable<[string, number, string]>) {
      const row = out[doc - 1]!;
      const weight = COLUMN_WEIGHTS[COLUMNS.indexOf(col as (typeof COLUMNS)[number])] ?? 1;
      row.freqs.set(term, (row.freqs.get(term) ?? 0) + weight);
      row.length++;
    }
    this.clear.run();
    return out;
  }

  /**
   * The token of each query term (a quoted FTS5 phrase): null when it has none; undefined when
   * some term splits into several tokens (a phrase this index does not answer).
   */
  query(terms: readonly string[]): (string | null)[] | undefined {
    const missing = [...new Set(terms.filter((t) => !this.terms.has(t)))];
    if (missing.length > 0) {
      if (this.terms.size + missing.length > TERM_CACHE_MAX) this.terms.clear();
      const tokens = this.rows(
        missing.map((body, i) => ({
          pk: i,
          id: '',
          space: '',
          status: null,
          created_at: 0,
          title: null,
          body,
          tags: '',
        })),
      );
      missing.forEach((term, i) => {
        const found = [...tokens[i]!.freqs.keys()];
        const one = tokens[i]!.length <= 1;
        this.terms.set(term, one ? (found[0] ?? null) : '\u0000');
      });
    }
    const out = terms.map((t) => this.terms.get(t)!);
    return out.includes('\u0000') ? undefined : out;
  }

  close(): void {
    this.db.close();
  }
}

/** A growable Int32Array. */
function grown(a: Int32Array<ArrayBuffer>, need: number): Int32Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const next = new Int32Array(Math.max(need, a.length * 2, 16));
  next.set(a);
  return next;
}

function grownF64(a: Float64Array<ArrayBuffer>, need: number): Float64Array<ArrayBuffer> {
  if (need <= a.length) return a;
  const next = new Float64Array(Math.max(need, a.length * 2, 16));
  next.set(a);
  return next;
}

/** The postings and row statistics; rows are slots, a slot is never reused until a rebuild. */
class Postings {
  private readonly termIds = new Map<string, number>();
  /** Per term: interleaved (slot, weighted frequency) pairs, in slot order. */
  private lists: Int32Array<ArrayBuffer>[] = [];
  private listUsed: number[] = [];
  private df: number[] = [];
  private slotPk = new Float64Array(0);
  private slotLength = new Float64Array(0);
  private slotSpace = new Int32Array(0);
  private slotStatus = new Int32Array(0);
  private slotCreated = new Float64Array(0);
  private slotId: string[] = [];
  private slotAlive = new Uint8Array(0);
  private slotTermsAt = new Int32Array(0);
  private slotTermsCount = new Int32Array(0);
  private rowTerms = new Int32Array(0);
  private rowTermsUsed = 0;
  private slots = 0;
  private readonly slotOf = new Map<number, number>();
  private readonly spaceCodes = new Map<string, number>();
  private readonly statusCodes = new Map<string, number>();
  /** Live rows and their total length in tokens (FTS5's row count and total size). */
  rows = 0;
  private tokens = 0;
  dead = 0;
  /** Scratch of `rank`: scores by slot (zero between queries) and the slots scored. */
  private scores = new Float64Array(0);
  private touched = new Int32Array(0);

  /** Removes the row `pk` if held. */
  remove(pk: number): void {
    const slot = this.slotOf.get(pk);
    if (slot === undefined) return;
    this.slotOf.delete(pk);
    this.slotAlive[slot] = 0;
    this.slotId[slot] = '';
    const at = this.slotTermsAt[slot]!;
    for (let i = at; i < at + this.slotTermsCount[slot]!; i++) this.df[this.rowTerms[i]!]!--;
    this.rows--;
    this.tokens -= this.slotLength[slot]!;
    this.dead++;
  }

  /** Adds (or replaces) a row. */
  put(r: RowText, row: RowTokens): void {
    const { pk, space } = r;
    this.remove(pk);
    const slot = this.slots++;
    if (slot >= this.slotPk.length) {
      const size = Math.max(16, this.slotPk.length * 2);
      this.slotPk = grownF64(this.slotPk, size);
      this.slotLength = grownF64(this.slotLength, size);
      this.slotSpace = grown(this.slotSpace, size);
      this.slotStatus = grown(this.slotStatus, size);
      this.slotCreated = grownF64(this.slotCreated, size);
      this.slotTermsAt = grown(this.slotTermsAt, size);
      this.slotTermsCount = grown(this.slotTermsCount, size);
      const alive = new Uint8Array(this.slotPk.length);
      alive.set(this.slotAlive);
      this.slotAlive = alive;
    }
    let code = this.spaceCodes.get(space);
    if (code === undefined) this.spaceCodes.set(space, (code = this.spaceCodes.size));
    this.slotPk[slot] = pk;
    this.slotLength[slot] = row.length;
    this.slotSpace[slot] = code;
    this.slotStatus[slot] = this.statusCode(r.status ?? 'active');
    this.slotCreated[slot] = r.created_at;
    this.slotId[slot] = r.id;
    this.slotAlive[slot] = 1;
    this.slotTermsAt[slot] = this.rowTermsUsed;
    this.slotTermsCount[slot] = row.freqs.size;
    this.rowTerms = grown(this.rowTerms, this.rowTermsUsed + row.freqs.size);
    for (const [term, freq] of row.freqs) {
      let id = this.termIds.get(term);
      if (id === undefined) {
        id = this.lists.length;
        this.termIds.set(term, id);
        this.lists.push(new Int32Array(4));
        this.listUsed.push(0);
        this.df.push(0);
      }
      const used = this.listUsed[id]!;
      const list = (this.lists[id] = grown(this.lists[id]!, used + 2));
      list[used] = slot;
      list[used + 1] = freq;
      this.listUsed[id] = used + 2;
      this.df[id]!++;
      this.rowTerms[this.rowTermsUsed++] = id;
    }
    this.slotOf.set(pk, slot);
    this.rows++;
    this.tokens += row.length;
  }

  private statusCode(status: string): number {
    let code = this.statusCodes.get(status);
    if (code === undefined) this.statusCodes.set(status, (code = this.statusCodes.size));
    return code;
  }

  /**
   * BM25 of every row of `space` matching any token, as FTS5 computes it: one phrase per query
   * term, in order (a token repeated counts again, as a repeated phrase does in FTS5).
   */
  rank(space: string, tokens: readonly (string | null)[]): KeywordRanking {
    const code = this.spaceCodes.get(space);
    if (code === undefined || this.rows === 0)
      return { matched: 0, top: () => [], items: () => [] };
    if (this.scores.length < this.slots) this.scores = new Float64Array(this.slotPk.length);
    const scores = this.scores;
    const avgdl = this.tokens / this.rows;
    if (this.touched.length < this.slots) this.touched = new Int32Array(this.slotPk.length);
    const touched = this.touched;
    const { slotAlive: alive, slotSpace: spaceOf, slotLength: lengthOf } = this;
    // One space held: no row needs its space checked.
    const spaces = this.spaceCodes.size > 1;
    let matched = 0;
    for (const token of tokens) {
      const id = token === null ? undefined : this.termIds.get(token);
      if (id === undefined) continue;
      const n = this.df[id]!;
      if (n === 0) continue;
      let idf = Math.log((this.rows - n + 0.5) / (n + 0.5));
      if (idf <= 0) idf = 1e-6;
      const list = this.lists[id]!;
      const used = this.listUsed[id]!;
      for (let i = 0; i < used; i += 2) {
        const slot = list[i]!;
        if (alive[slot] === 0 || (spaces && spaceOf[slot] !== code)) continue;
        const f = list[i + 1]!;
        const d = lengthOf[slot]!;
        const before = scores[slot]!;
        if (before === 0) touched[matched++] = slot;
        scores[slot] = before + idf * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * d) / avgdl)));
      }
    }
    const slots = touched.slice(0, matched);
    const found = new Float64Array(matched);
    for (let i = 0; i < matched; i++) {
      found[i] = scores[slots[i]!]!;
      scores[slots[i]!] = 0;
    }
    const { slotPk, slotStatus, slotId, slotCreated } = this;
    // The best `want` of the matched rows (those `where` allows, when given), ties by key.
    const best = (want: number, where?: { allowed: Uint8Array; after: number; before: number }) => {
      const top = new TopK(Math.min(want, matched));
      let floor = -Infinity;
      for (let i = 0; i < matched; i++) {
        const score = found[i]!;
        // Below the kept floor: out, whatever its key (ties at the floor are offered).
        if (score < floor) continue;
        const slot = slots[i]!;
        if (where) {
          if (where.allowed[slotStatus[slot]!] !== 1) continue;
          const created = slotCreated[slot]!;
          if (created < where.after || created >= where.before) continue;
        }
        top.push(slotPk[slot]!, score);
        floor = top.floor;
      }
      return top.sorted();
    };
    return {
      matched,
      top: (want) => best(want).map((h) => ({ pk: h.pk, rank: -h.score })),
      items: (want, where) => {
        const allowed = new Uint8Array(this.statusCodes.size + 1);
        for (const s of where.statuses) {
          const c = this.statusCodes.get(s);
          if (c !== undefined) allowed[c] = 1;
        }
        const after = where.created_after ?? -Infinity;
        const before = where.created_before ?? Infinity;
        return best(want, { allowed, after, before }).map((h) => ({
          id: slotId[this.slotOf.get(h.pk)!]!,
          score: h.score,
        }));
      },
    };
  }
}

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
