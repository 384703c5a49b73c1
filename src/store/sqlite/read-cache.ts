/**
 * Recall's reads kept in memory between recalls: item records by id, each seed's session and
 * write neighbours, and whether a vector candidate passes a filter; valid while nothing in the
 * database has changed. On a LoCoMo conversation these reads were a third of a recall
 * (bench/locomo/levers.md); most of them repeat from one recall to the next while no memory is
 * written.
 *
 * Nothing stale is ever served: every use first compares the connection's change token, SQLite's
 * `total_changes()` (rows this connection changed, whatever the code path, triggers and rolled
 * back writes included) and `PRAGMA data_version` (moves when any other connection, in this
 * process or another, commits). Any difference empties the cache. Inside a transaction the cache
 * serves only while its token is still current, and is never emptied and refilled there (it
 * could otherwise keep rows a rollback undoes). Each map is bounded (emptied wholesale when
 * full). The one write let through is recall's own access accounting: when nothing else
 * changed, it is applied to the kept records (`accessed`) instead of emptying them, so recall
 * after recall stays served.
 *
 * Where reads do not repeat, a map stops keeping them: one that fills up having answered less
 * than half the lookups asked of it since it was last emptied goes idle (every lookup read,
 * nothing kept) until something other than recall's accounting changes the database. At
 * 100,000 memories the records map answered 15% before it first filled, and keeping what it
 * read, copying it out and emptying it again cost recall more than the reads it saved
 * (bench/locomo/levers.md).
 */
import type { ItemFilter } from '../../domain/filter.js';
import type { ItemRecord } from '../../domain/records.js';
import type { AccessCount, SessionTurn } from '../store.js';
import type { SqliteDatabase } from './database.js';

/** Where the connection stood: its own changes and the other connections' commits. */
export interface ChangeToken {
  changes: number;
  version: number;
}

/** Entries per map before it is emptied wholesale (refilling is one query). */
const MAX_ENTRIES_DEFAULT = 20_000;

/** The cache of one connection. */
export class ReadCache {
  private readonly tokenSql;
  private token: ChangeToken | null = null;
  private readonly items = new Map<string, ItemRecord>();
  /** Lookups of records since `items` was last emptied, those it answered, and whether it rests. */
  private readonly itemsUse = newUse();
  /** Ids of the items passing a filter, by filter and key (null: it does not pass). */
  private readonly passing: ShapedMemo<number, string | null>;
  /** Neighbour lists by lookup and filter, then by seed id. */
  private readonly neighbours: ShapedMemo<string, SessionTurn[]>;
  /** Other lookups (`lookups`) by kind, then by key. */
  private readonly other: ShapedMemo<string, unknown>;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly maxEntries = MAX_ENTRIES_DEFAULT,
  ) {
    this.passing = new ShapedMemo(maxEntries);
    this.neighbours = new ShapedMemo(maxEntries);
    this.other = new ShapedMemo(maxEntries);
    this.tokenSql = db.prepare(
      'SELECT total_changes() AS changes, (SELECT data_version FROM pragma_data_version) AS version',
    );
  }

  /** The connection's change token now. */
  current(): ChangeToken {
    return this.tokenSql.get() as ChangeToken;
  }

  /**
   * Whether the cache may serve now. Outside a transaction it always may, emptied first when
   * anything changed since it was filled; inside one only while it is current (the transaction
   * has changed nothing yet, so its reads are the committed rows the cache holds), and it is
   * never emptied there.
   */
  usable(): boolean {
    const now = this.current();
    if (this.db.inTransaction) return this.token !== null && same(this.token, now);
    if (!this.token || !same(this.token, now)) {
      this.items.clear();
      Object.assign(this.itemsUse, newUse());
      this.neighbours.reset();
      this.passing.reset();
      this.other.reset();
      this.token = now;
    }
    return true;
  }

  /**
   * Records of `ids` in `space` (each a copy), reading only those not kept through `read`; in
   * the order of `ids`, missing ones left out.
   */
  records(
    space: string,
    ids: readonly string[],
    read: (missing: readonly string[]) => ItemRecord[],
  ): ItemRecord[] {
    const use = this.itemsUse;
    if (use.idle) {
      // Read fresh and handed out as read: nothing kept, nothing to copy.
      const byId = new Map(read(ids).map((r) => [r.id, r]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    }
    const got = new Map<string, ItemRecord>();
    const missing: string[] = [];
    for (const id of ids) {
      const record = this.items.get(key(space, id));
      if (record) got.set(id, record);
      else missing.push(id);
    }
    count(use, ids.length, missing.length);
    const fresh = new Map<string, ItemRecord>();
    if (missing.length > 0) {
      const found = read(missing);
      if (this.items.size + found.length > this.maxEntries) {
        this.items.clear();
        full(use);
      }
      for (const record of found) {
        if (!use.idle) this.items.set(key(space, record.id), kept(record));
        fresh.set(record.id, record);
      }
    }
    // A record just read is handed out as read; one kept, as a copy.
    return ids.flatMap((id) => {
      const read = fresh.get(id);
      if (read) return [read];
      const record = got.get(id);
      return record ? [copy(record)] : [];
    });
  }

  /**
   * The neighbouring turns of each seed (within `window` of its session or of its write order,
   * as `lookup` names, passing `filter`), reading only the seeds not kept through `read`, which
   * answers for each seed it is given (none for a seed that has no such neighbours); each turn
   * once, in no particular order (as the store's query answers).
   */
  neighboursOf(
    lookup: string,
    filter: ItemFilter,
    ids: readonly string[],
    read: (missing: readonly string[]) => Map<string, SessionTurn[]>,
  ): SessionTurn[] {
    const lists = this.neighbours.get(
      `${lookup}\u0000${JSON.stringify(filter)}`,
      ids,
      (missing) => {
        const found = read(missing);
        return (id) => found.get(id) ?? [];
      },
      keptTurns,
    );
    const out = new Map<string, SessionTurn>();
    for (const turns of lists) for (const turn of turns) out.set(turn.id, turn);
    return [...out.values()];
  }

  /**
   * The value of each of `keys` for one kind of lookup (`shape`, naming everything besides the
   * key that the value depends on), reading only the keys not kept through `read`, which gives a
   * value for each key it is handed; in the order of `keys`. Values are shared with later calls:
   * callers copy what they hand out.
   */
  lookups<V>(
    shape: string,
    keys: readonly string[],
    read: (missing: readonly string[]) => (key: string) => V,
  ): V[] {
    return this.other.get(shape, keys, read) as V[];
  }

  /**
   * Which of the keys `pks` pass `filter`, with their ids, reading only the keys not kept through
   * `read` (which returns those that pass).
   */
  allowed(
    filter: ItemFilter,
    pks: readonly number[],
    read: (missing: readonly number[]) => Map<number, string>,
  ): Map<number, string> {
    const ids = this.passing.get(JSON.stringify(filter), pks, (missing) => {
      const found = read(missing);
      return (pk) => found.get(pk) ?? null;
    });
    const out = new Map<number, string>();
    pks.forEach((pk, i) => {
      const id = ids[i];
      if (id != null) out.set(pk, id);
    });
    return out;
  }

  /**
   * Recall's access accounting, committed between `before` and `after`: applied to the kept
   * records when the cache was current at `before`, so it stays valid; otherwise left to the
   * next use to empty it.
   */
  accessed(
    space: string,
    counts: readonly AccessCount[],
    before: ChangeToken,
    after: ChangeToken,
  ): void {
    if (!this.token || !same(this.token, before)) return;
    for (const c of counts) {
      const record = this.items.get(key(space, c.id));
      if (!record) continue;
      record.access_count += c.count;
      record.last_accessed_at = Math.max(record.last_accessed_at ?? c.at, c.at);
    }
    this.token = after;
  }
}

/**
 * A value per key for each shape (a filter, a lookup), read on a miss; all shapes together hold
 * at most `max` entries, and are emptied wholesale past it.
 */
class ShapedMemo<K, V> {
  private readonly shapes = new Map<string, Map<K, V>>();
  private entries = 0;
  private readonly use = newUse();

  constructor(private readonly max: number) {}

  /** Empties it and starts counting again (the database changed). */
  reset(): void {
    this.clear();
    Object.assign(this.use, newUse());
  }

  private clear(): void {
    this.shapes.clear();
    this.entries = 0;
  }

  /**
   * The value of each of `keys` (in their order), the missing ones through `read`, which gives a
   * value for each key it is handed. An emptying past the bound never loses this call's values.
   */
  get(
    shape: string,
    keys: readonly K[],
    read: (missing: K[]) => (key: K) => V,
    keep: (value: V) => V = (value) => value,
  ): V[] {
    if (this.use.idle) return keys.map(read([...keys]));
    let kept = this.shapes.get(shape) ?? new Map<K, V>();
    const values: (V | undefined)[] = [];
    const missing: K[] = [];
    for (const key of keys) {
      const value = kept.get(key);
      if (value === undefined) missing.push(key);
      values.push(value);
    }
    count(this.use, keys.length, missing.length);
    if (missing.length > 0) {
      const valueOf = read(missing);
      if (this.entries + missing.length > this.max) {
        this.clear();
        kept = new Map();
        if (full(this.use)) return keys.map((key, i) => values[i] ?? valueOf(key));
      }
      for (const key of missing) kept.set(key, keep(valueOf(key)));
      this.entries += missing.length;
      keys.forEach((key, i) => (values[i] ??= kept.get(key)));
    }
    this.shapes.set(shape, kept);
    return values as V[];
  }
}

/** Lookups asked of a map since it was last emptied, those it answered, and whether it rests. */
interface Use {
  asked: number;
  answered: number;
  idle: boolean;
}

function newUse(): Use {
  return { asked: 0, answered: 0, idle: false };
}

function count(use: Use, asked: number, missing: number): void {
  use.asked += asked;
  use.answered += asked - missing;
}

/** A map filled up: it rests when it answered less than half of what it was asked (true then). */
function full(use: Use): boolean {
  if (use.answered * 2 < use.asked) use.idle = true;
  use.asked = 0;
  use.answered = 0;
  return use.idle;
}

function same(a: ChangeToken, b: ChangeToken): boolean {
  return a.changes === b.changes && a.version === b.version;
}

function key(space: string, id: string): string {
  return `${space}\u0000${id}`;
}

/*
 * What the cache keeps is a copy made here, never the object a read handed it, and what it hands
 * out of what it keeps is a copy made elsewhere (`copy`). V8 decides per allocation site whether
 * to create objects straight in the old generation, once and for good, from how many of them
 * outlive their first garbage collection. Were the kept records those the store's read builds, the
 * cache filling up at its first recalls would teach V8 to place every record that read builds
 * there, including, once the cache rests in a large store, the ones that die with their recall:
 * every minor collection then copied what those dead records still point to. At 100,000 memories
 * that made minor collections 2-3 times slower (bench/locomo/levers.md).
 */

/** The copy of a record the cache keeps. */
function kept(record: ItemRecord): ItemRecord {
  return {
    ...record,
    tags: [...record.tags],
    source: record.source ? { ...record.source } : null,
    prior: record.prior ? { ...record.prior } : null,
  };
}

/** The copies of neighbour turns the cache keeps. */
function keptTurns(turns: SessionTurn[]): SessionTurn[] {
  return turns.map((t) => ({ ...t }));
}

/**
 * A record the caller may change without touching the kept one: `kept`'s fields, at an allocation
 * site of its own.
 */
function copy(record: ItemRecord): ItemRecord {
  return {
    ...record,
    tags: [...record.tags],
    source: record.source ? { ...record.source } : null,
    prior: record.prior ? { ...record.prior } : null,
  };
}
