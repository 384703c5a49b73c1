/**
 * Recall's read cache on SQLite (src/store/sqlite/read-cache.ts): item records and session
 * neighbours kept between recalls are never served once anything changed: a write of another
 * connection, a write of this store through any path, a rolled-back write; recall's own access
 * accounting is applied to the kept records; callers get copies.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';

import { ReadCache } from '../src/store/sqlite/read-cache.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { draft, itemRecord, MODEL, T0 } from './fixtures/store-records.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

const ACTIVE = { space: 'default', statuses: ['active', 'challenged'] } as const;

async function conversation() {
  const dir = mkdtempSync(join(tmpdir(), 'engram-read-cache-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'engram.db');
  const store = openSqliteStore({ path });
  cleanups.push(() => store.close());
  const created = await store.createItems(
    Array.from({ length: 12 }, (_, n) =>
      draft({ body: `turn ${n + 1}`, source: { session: 's', turn: n + 1 } }),
    ),
  );
  const ids = created.map((o) => o.item.id);
  // Another connection on the same file, as another process would hold.
  const other = new Database(path);
  cleanups.push(() => other.close());
  return { store, ids, other, path };
}

const turns = (found: { turn: number }[]) => found.map((t) => t.turn).sort((a, b) => a - b);

describe('the SQLite read cache', () => {
  it('serves what a fresh read gives, and copies the caller may change', async () => {
    const { store, ids } = await conversation();
    const first = await store.getItems('default', [ids[0]!, ids[1]!]);
    first[0]!.tags.push('changed');
    first[0]!.body = 'changed';
    const again = await store.getItems('default', [ids[1]!, ids[0]!, 'missing']);
    expect(again.map((r) => r.body)).toEqual(['turn 2', 'turn 1']);
    expect(again[1]!.tags).toEqual([]);
    expect(turns(await store.sessionNeighbors!(ACTIVE, [ids[5]!], 2))).toEqual([4, 5, 6, 7, 8]);
    expect(turns(await store.sessionNeighbors!(ACTIVE, [ids[5]!, ids[10]!], 1))).toEqual([
      5, 6, 7, 10, 11, 12,
    ]);
  });

  it("sees another connection's commit at once", async () => {
    const { store, ids, other } = await conversation();
    await store.getItems('default', [ids[3]!]);
    expect(turns(await store.sessionNeighbors!(ACTIVE, [ids[5]!], 2))).toEqual([4, 5, 6, 7, 8]);
    other.prepare("UPDATE items SET status = 'forgotten', body = 'gone' WHERE id = ?").run(ids[3]!);
    const [record] = await store.getItems('default', [ids[3]!]);
    expect(record).toMatchObject({ status: 'forgotten', body: 'gone' });
    // A forgotten turn is no longer context.
    expect(turns(await store.sessionNeighbors!(ACTIVE, [ids[5]!], 2))).toEqual([5, 6, 7, 8]);
  });

  it("sees the store's own writes, whatever the path", async () => {
    const { store, ids } = await conversation();
    expect(turns(await store.sessionNeighbors!(ACTIVE, [ids[11]!], 2))).toEqual([10, 11, 12]);
    await store.getItems('default', [ids[11]!]);
    // A new turn of the session, then a change of an item through the mutation path.
    await store.createItems([draft({ body: 'turn 13', source: { session: 's', turn: 13 } })]);
    expect(turns(await store.sessionNeighbors!(ACTIVE, [ids[11]!], 2))).toEqual([10, 11, 12, 13]);
    await store.mutate('default', [ids[11]!], () => ({
      changes: [{ id: ids[11]!, patch: { body: 'turn twelve', updated_at: 9_000 } }],
    }));
    const [record] = await store.getItems('default', [ids[11]!]);
    expect(record!.body).toBe('turn twelve');
  });

  it('keeps write neighbours per seed and sees a new write next to them', async () => {
    const { store } = await conversation();
    const notes = (
      await store.createItems(
        Array.from({ length: 6 }, (_, n) =>
          draft({ body: `note ${n + 1}`, created_at: 1_000 + n * 1_000 }),
        ),
      )
    ).map((o) => o.item.id);
    const bodies = (found: { body: string }[]) => found.map((t) => t.body).sort();
    const around = () => store.writeNeighbors!(ACTIVE, [notes[1]!, notes[5]!], 1, 60_000);
    expect(bodies(await around())).toEqual(['note 1', 'note 2', 'note 3', 'note 5', 'note 6']);
    expect(bodies(await around())).toEqual(['note 1', 'note 2', 'note 3', 'note 5', 'note 6']);
    // Far apart in time: no neighbour.
    expect(await store.writeNeighbors!(ACTIVE, [notes[0]!], 1, 10)).toEqual([
      expect.objectContaining({ body: 'note 1' }),
    ]);
    await store.createItems([draft({ body: 'note 7', created_at: 7_000 })]);
    expect(bodies(await around())).toEqual([
      'note 1',
      'note 2',
      'note 3',
      'note 5',
      'note 6',
      'note 7',
    ]);
  });

  it("checks vector candidates against the filter again after another connection's commit", async () => {
    const { store, other } = await conversation();
    await store.publishModel(MODEL, 4, T0);
    const vectors = [
      [1, 0, 0, 0],
      [0.9, 0.1, 0, 0],
      [0, 1, 0, 0],
    ].map((v) => Float32Array.from(v));
    const ids = (
      await store.createItems(vectors.map((v, n) => draft({ body: `vector ${n}` }, v)))
    ).map((o) => o.item.id);
    const query = Float32Array.from([1, 0, 0, 0]);
    const top = async () => (await store.vectorSearch(ACTIVE, MODEL, query, 2)).map((h) => h.id);
    expect(await top()).toEqual([ids[0], ids[1]]);
    expect(await top()).toEqual([ids[0], ids[1]]);
    other.prepare("UPDATE items SET status = 'forgotten' WHERE id = ?").run(ids[0]!);
    expect(await top()).toEqual([ids[1], ids[2]]);
  });

  it('applies recall access counts to kept records, and drops them when another connection counted too', async () => {
    const { store, ids, other } = await conversation();
    await store.getItems('default', [ids[0]!, ids[1]!]);
    await store.recordAccessCounts('default', [{ id: ids[0]!, count: 2, at: 5_000 }]);
    const [counted] = await store.getItems('default', [ids[0]!]);
    const row = other
      .prepare('SELECT access_count, last_accessed_at FROM items WHERE id = ?')
      .get(ids[0]!);
    expect(row).toEqual({ access_count: 2, last_accessed_at: 5_000 });
    expect(counted).toMatchObject({ access_count: 2, last_accessed_at: 5_000 });
    other.prepare('UPDATE items SET access_count = access_count + 1 WHERE id = ?').run(ids[0]!);
    await store.recordAccessCounts('default', [{ id: ids[0]!, count: 1, at: 6_000 }]);
    const [both] = await store.getItems('default', [ids[0]!]);
    expect(both).toMatchObject({ access_count: 4, last_accessed_at: 6_000 });
  });
});

describe('ReadCache', () => {
  function cacheOn() {
    const db = new Database(':memory:');
    cleanups.push(() => db.close());
    db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, v TEXT)');
    db.prepare("INSERT INTO t VALUES ('a', 'one')").run();
    const cache = new ReadCache(db as never);
    const value = db.prepare('SELECT v FROM t WHERE id = ?').pluck();
    const read = () =>
      cache.records('default', ['a'], (missing) =>
        missing.map((id) => itemRecord({ id, body: value.get(id) as string })),
      );
    return { db, cache, read };
  }

  it('answers whole when a full map is emptied in the middle of a call', () => {
    const db = new Database(':memory:');
    cleanups.push(() => db.close());
    const cache = new ReadCache(db as never, 3);
    expect(cache.usable()).toBe(true);
    const record = (id: string) => itemRecord({ id, body: id });
    const records = (ids: string[]) =>
      cache.records('default', ids, (missing) => missing.map(record)).map((r) => r.id);
    expect(records(['a', 'b'])).toEqual(['a', 'b']);
    // Two kept, two read: the map overflows and is emptied, the answer still holds all four.
    expect(records(['a', 'b', 'c', 'd'])).toEqual(['a', 'b', 'c', 'd']);
    const turn = (id: string) => ({ id, session: 's', turn: 1, body: id });
    const near = (ids: string[]) =>
      cache
        .neighboursOf(
          'session 1',
          ACTIVE as never,
          ids,
          (missing) => new Map(missing.map((id) => [id, [turn(`${id}'`)]])),
        )
        .map((t) => t.id)
        .sort();
    expect(near(['a', 'b'])).toEqual(["a'", "b'"]);
    expect(near(['a', 'b', 'c', 'd'])).toEqual(["a'", "b'", "c'", "d'"]);
    const allowed = (pks: number[]) => [
      ...cache
        .allowed(
          ACTIVE as never,
          pks,
          (missing) => new Map(missing.filter((pk) => pk % 2).map((pk) => [pk, `id${pk}`])),
        )
        .keys(),
    ];
    expect(allowed([1, 2])).toEqual([1]);
    expect(allowed([1, 2, 3, 4, 5])).toEqual([1, 3, 5]);
  });

  it('keeps copies of its own: what a read built is handed out, never kept', () => {
    const db = new Database(':memory:');
    cleanups.push(() => db.close());
    const cache = new ReadCache(db as never);
    expect(cache.usable()).toBe(true);
    const built: ReturnType<typeof itemRecord>[] = [];
    const records = () =>
      cache.records('default', ['a'], (missing) =>
        missing.map((id) => {
          const record = itemRecord({ id, body: 'one', tags: ['t'] });
          built.push(record);
          return record;
        }),
      );
    const [first] = records();
    expect(first).toBe(built[0]);
    first!.body = 'changed';
    first!.tags.push('changed');
    const [second] = records();
    expect(built).toHaveLength(1);
    expect(second).not.toBe(first);
    expect(second!.body).toBe('one');
    expect(second!.tags).toEqual(['t']);
    const turns: { id: string; session: string; turn: number; body: string }[] = [];
    const near = () =>
      cache.neighboursOf('session 1', ACTIVE as never, ['a'], (missing) => {
        const turn = { id: 'b', session: 's', turn: 2, body: 'two' };
        turns.push(turn);
        return new Map(missing.map((id) => [id, [turn]]));
      });
    near();
    const [kept] = near();
    expect(turns).toHaveLength(1);
    expect(kept).toEqual(turns[0]);
    expect(kept).not.toBe(turns[0]);
  });

  it('stops keeping records when its map fills up having answered less than half, until another change', () => {
    const db = new Database(':memory:');
    cleanups.push(() => db.close());
    db.exec('CREATE TABLE t (v INTEGER)');
    const cache = new ReadCache(db as never, 3);
    let reads = 0;
    const records = (ids: string[]) =>
      cache
        .records('default', ids, (missing) => {
          reads += missing.length;
          return missing.filter((id) => id !== 'missing').map((id) => itemRecord({ id, body: id }));
        })
        .map((r) => r.id);
    expect(cache.usable()).toBe(true);
    expect(records(['a', 'b'])).toEqual(['a', 'b']);
    // Four asked, none answered from memory when the map fills up: it rests, the answer whole.
    expect(records(['c', 'd'])).toEqual(['c', 'd']);
    reads = 0;
    expect(records(['d', 'c', 'missing'])).toEqual(['d', 'c']);
    expect(records(['c'])).toEqual(['c']);
    expect(reads).toBe(4);
    // Recall's own access accounting keeps it resting...
    const before = cache.current();
    db.prepare('INSERT INTO t VALUES (1)').run();
    cache.accessed('default', [{ id: 'c', count: 1, at: 1 }], before, cache.current());
    expect(cache.usable()).toBe(true);
    reads = 0;
    records(['c']);
    records(['c']);
    expect(reads).toBe(2);
    // ...any other change makes it keep records again, from empty.
    db.prepare('INSERT INTO t VALUES (2)').run();
    expect(cache.usable()).toBe(true);
    reads = 0;
    records(['c']);
    records(['c']);
    expect(reads).toBe(1);
  });

  it('keeps neighbour lists and filter checks while they answer, and rests a map that does not', () => {
    const db = new Database(':memory:');
    cleanups.push(() => db.close());
    const cache = new ReadCache(db as never, 3);
    expect(cache.usable()).toBe(true);
    let reads = 0;
    const near = (ids: string[]) =>
      cache
        .neighboursOf('session 1', ACTIVE as never, ids, (missing) => {
          reads += missing.length;
          return new Map(
            missing.map((id) => [id, [{ id: `${id}'`, session: 's', turn: 1, body: id }]]),
          );
        })
        .map((t) => t.id)
        .sort();
    // Half answered from memory when the map fills: emptied, still kept.
    for (let i = 0; i < 3; i++) near(['a', 'b']);
    expect(near(['c', 'd'])).toEqual(["c'", "d'"]);
    reads = 0;
    near(['c', 'd']);
    expect(reads).toBe(0);
    // New seeds only from here: at the next fill it rests, and reads every lookup.
    near(['e', 'f']);
    expect(near(['g'])).toEqual(["g'"]);
    reads = 0;
    expect(near(['g', 'h'])).toEqual(["g'", "h'"]); // g answered, h read: the map fills and rests
    near(['g']);
    near(['g']);
    expect(reads).toBe(3);
    // The records map was never asked: it still keeps what it reads.
    let recordReads = 0;
    const read = (missing: readonly string[]) => {
      recordReads += missing.length;
      return missing.map((id) => itemRecord({ id, body: id }));
    };
    cache.records('default', ['x'], read);
    cache.records('default', ['x'], read);
    expect(recordReads).toBe(1);
  });

  it('is bypassed inside a transaction and emptied after a rolled-back write', () => {
    const { db, cache, read } = cacheOn();
    expect(cache.usable()).toBe(true);
    expect(read()[0]).toMatchObject({ body: 'one' });
    let inside: boolean | undefined;
    expect(() =>
      db.transaction(() => {
        db.prepare("UPDATE t SET v = 'two'").run();
        inside = cache.usable();
        throw new Error('roll back');
      })(),
    ).toThrow('roll back');
    expect(inside).toBe(false);
    // The rolled-back write still moved the token: the kept record is read again.
    const before = cache.current();
    expect(cache.usable()).toBe(true);
    let fresh = 0;
    cache.records('default', ['a'], (missing) => {
      fresh += missing.length;
      return [];
    });
    expect(fresh).toBe(1);
    expect(cache.current()).toEqual(before);
  });
});
