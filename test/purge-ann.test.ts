/**
 * A purge leaves no copy of the purged item's vector in the approximate index files saved beside a
 * SQLite store: not in the file saved before the purge, not in a later save of the process that
 * purged, and not in a save of another process that loaded the index before the purge and had
 * not caught up with it. Checked by reading the raw bytes of every file in the store's folder.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { ItemRecord } from '../src/domain/records.js';
import { STATUSES } from '../src/domain/types.js';
import { HnswIndex, IndexFiles } from '../src/store/sqlite/ann-index.js';
import { ANN_DEFAULTS } from '../src/store/sqlite/ann-search.js';
import { openSqliteStore, type SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { draft, MODEL, randomUnit, seeded, T0 } from './fixtures/store-records.js';

const DIM = 24;
const dirs: string[] = [];
const stores: SqliteStore[] = [];
const AUDIT = { actor: 'tester', reason: 'privacy request', at: T0 };

afterEach(async () => {
  while (stores.length) await stores.pop()!.close();
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'engram-purge-ann-'));
  dirs.push(dir);
  return dir;
}

/** A store whose vector channel uses (and saves) the index from 50 vectors on. */
function open(path: string, enabled = true): SqliteStore {
  const store = openSqliteStore({ path, ann: { ...ANN_DEFAULTS, min_items: 50, enabled } });
  stores.push(store);
  return store;
}

async function closeStore(store: SqliteStore): Promise<void> {
  stores.splice(stores.indexOf(store), 1);
  await store.close();
}

async function fill(
  store: SqliteStore,
  n: number,
  seed: number,
): Promise<{ item: ItemRecord; vector: Float32Array }[]> {
  const random = seeded(seed);
  const batch = Array.from({ length: n }, (_, i) => {
    const vector = randomUnit(random, DIM);
    return { d: draft({ body: `memory ${seed}-${i}`, created_at: T0 + i }, vector), vector };
  });
  const made = await store.createItems(batch.map((b) => b.d));
  return made.map((m, i) => ({ item: m.item, vector: batch[i]!.vector }));
}

const all = { space: 'default', statuses: STATUSES };

async function nearest(store: SqliteStore, vector: Float32Array, k: number): Promise<string[]> {
  return (await store.vectorSearch(all, MODEL, vector, k)).map((h) => h.id);
}

/** The files of the folder whose raw bytes hold the vector's float32 bytes. */
function filesHolding(dir: string, vector: Float32Array): string[] {
  const needle = Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
  return readdirSync(dir).filter((name) => readFileSync(join(dir, name)).includes(needle));
}

function indexFileNames(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.hnsw'));
}

describe('purge and the saved approximate index (SQLite)', () => {
  it('leaves no copy of the vector in the index files, before or after later saves', async () => {
    const dir = freshDir();
    const path = join(dir, 'engram.db');
    const store = open(path);
    const items = await fill(store, 400, 1);
    await store.vectorIndex.flush(MODEL, DIM);
    const secret = items[123]!;
    // The check can fail: the saved index holds the vector before the purge.
    expect(filesHolding(dir, secret.vector).filter((n) => n.endsWith('.hnsw'))).not.toEqual([]);

    await store.purge('default', secret.item.id, AUDIT);
    expect(filesHolding(dir, secret.vector)).toEqual([]);

    // The purging process keeps its index in memory: its later saves hold no copy either.
    await fill(store, 50, 2);
    expect(await nearest(store, secret.vector, 20)).not.toContain(secret.item.id);
    await store.vectorIndex.flush(MODEL, DIM);
    await closeStore(store);
    expect(filesHolding(dir, secret.vector)).toEqual([]);

    // The patched file still loads (its checksum was refreshed) and answers.
    const again = open(path);
    const other = items[7]!;
    expect((await nearest(again, other.vector, 1))[0]).toBe(other.item.id);
    expect(again.vectorIndex.status()[0]).toMatchObject({ loaded_from_file: true });
    expect(await nearest(again, secret.vector, 20)).not.toContain(secret.item.id);
  });

  it('keeps a store that loaded the index before the purge from saving the vector back', async () => {
    const dir = freshDir();
    const path = join(dir, 'engram.db');
    const first = open(path);
    const items = await fill(first, 400, 3);
    await first.vectorIndex.flush(MODEL, DIM);
    await closeStore(first);
    const secret = items[42]!;

    // A long-running store loads the index, then absorbs changes it has seen...
    const server = open(path);
    await nearest(server, items[0]!.vector, 1);
    expect(server.vectorIndex.status()[0]).toMatchObject({ loaded_from_file: true });
    const other = open(path, false);
    await fill(other, 30, 4);
    await nearest(server, items[0]!.vector, 1);
    // ...while another one (the CLI, say) purges; the server saves on close without a new sync.
    // Its background save may also come first, before the purge (when is up to the event loop):
    // whichever saves happen, no file may hold the vector afterwards.
    await other.purge('default', secret.item.id, AUDIT);
    // A save of the server still writing its temporary file may hold the vector until it ends:
    // it zeroes the points of items deleted meanwhile before the file is named.
    expect(filesHolding(dir, secret.vector).filter((f) => !f.endsWith('.tmp'))).toEqual([]);
    await closeStore(server);
    expect(indexFileNames(dir).length).toBeGreaterThan(0);
    expect(filesHolding(dir, secret.vector)).toEqual([]);
  });

  it('removes an index file it cannot read, with its sidecar, so the index is built again', async () => {
    const dir = freshDir();
    const path = join(dir, 'engram.db');
    const store = open(path);
    const items = await fill(store, 200, 5);
    await store.vectorIndex.flush(MODEL, DIM);
    await closeStore(store);
    const [file] = indexFileNames(dir);
    writeFileSync(join(dir, file!), Buffer.alloc(64, 7));
    const writer = open(path, false);
    await writer.purge('default', items[3]!.item.id, AUDIT);
    expect(readdirSync(dir).filter((n) => n.includes('.ann-'))).toEqual([]);
    const reopened = open(path);
    expect((await nearest(reopened, items[9]!.vector, 1))[0]).toBe(items[9]!.item.id);
  });
});

describe('saving the approximate index', () => {
  /** An index of `count` random unit vectors labelled 0 to count - 1. */
  function filledIndex(seed: number, count: number) {
    const random = seeded(seed);
    const vectors = Array.from({ length: count }, () => randomUnit(random, DIM));
    const index = HnswIndex.create(DIM, ANN_DEFAULTS, count);
    vectors.forEach((v, label) => index.upsert(label, v));
    return { random, vectors, index };
  }

  it('zeroes the vectors of deleted points, and the file still loads and answers', async () => {
    const dir = freshDir();
    const { random, vectors, index } = filledIndex(6, 300);
    const removed = [5, 77, 150, 299];
    for (const label of removed) index.remove(label);
    const files = new IndexFiles(join(dir, 'x.db'), 'id', MODEL, DIM);
    expect(await files.save(index, 1, ANN_DEFAULTS, false)).toBe(true);
    for (const label of removed) expect(filesHolding(dir, vectors[label]!)).toEqual([]);
    expect(filesHolding(dir, vectors[6]!)).not.toEqual([]);

    const sidecar = files.readSidecar()!;
    const loaded = HnswIndex.loadSync(files.pathOf(sidecar), sidecar);
    expect(loaded.search(vectors[6]!, 1, 50)).toEqual([6]);
    for (const label of removed)
      expect(loaded.search(vectors[label]!, 10, 50)).not.toContain(label);
    // A deleted label comes back with a new vector.
    const next = randomUnit(random, DIM);
    loaded.upsert(77, next);
    expect(loaded.search(next, 1, 50)).toEqual([77]);
  });

  it('zeroes the points of items deleted while the file was written before naming it', async () => {
    const dir = freshDir();
    const { vectors, index } = filledIndex(7, 100);
    const files = new IndexFiles(join(dir, 'x.db'), 'id', MODEL, DIM);
    // As a purge in another process committed while the file was written would be read.
    let asked = 0;
    const deletedSince = () => {
      asked++;
      return [12, 40];
    };
    expect(await files.save(index, 1, ANN_DEFAULTS, false, undefined, deletedSince)).toBe(true);
    expect(asked).toBe(1);
    for (const label of [12, 40]) expect(filesHolding(dir, vectors[label]!)).toEqual([]);
    expect(filesHolding(dir, vectors[13]!)).not.toEqual([]);
    const sidecar = files.readSidecar()!;
    const loaded = HnswIndex.loadSync(files.pathOf(sidecar), sidecar);
    expect(loaded.search(vectors[40]!, 10, 50)).not.toContain(40);
    expect(loaded.search(vectors[13]!, 1, 50)).toEqual([13]);
  });
});
