/**
 * The SQLite store's approximate vector index (HNSW): same answers as the exact scan, explicit
 * exact fallback when the index file is missing, corrupt or stale, incremental catch-up after
 * adds, revisions and purges, persistence across reopen, and several stores (connections and a
 * real second process) on one file.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { describe, expect, it, vi } from 'vitest';

import type { ItemFilter } from '../src/domain/filter.js';
import type { ItemRecord } from '../src/domain/records.js';
import { STATUSES } from '../src/domain/types.js';
import { HnswIndex } from '../src/store/sqlite/ann-index.js';
import { searchEf } from '../src/store/sqlite/ann-model.js';
import { ANN_DEFAULTS, type AnnOptions } from '../src/store/sqlite/ann-search.js';
import { openSqliteStore, type SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { storeFiles } from './fixtures/store-files.js';
import { draft, MODEL, randomUnit, seeded, T0 } from './fixtures/store-records.js';
import { testEngram } from './helpers.js';

const DIM = 24;
const { freshPath, track, release } = storeFiles('engram-ann-');

/** A store whose vector channel uses the index from 50 vectors on. */
function open(path: string, ann: Partial<AnnOptions> = {}): SqliteStore {
  const store = openSqliteStore({ path, ann: { ...ANN_DEFAULTS, min_items: 50, ...ann } });
  return track(store);
}

/** A store on the same file that always scans exactly: the reference answers. */
function exact(path: string): SqliteStore {
  return open(path, { enabled: false });
}

const all = (space = 'default', extra: Partial<ItemFilter> = {}): ItemFilter => ({
  space,
  statuses: STATUSES,
  ...extra,
});

/** Creates `n` items with random vectors; returns them with their vectors. */
async function fill(
  store: SqliteStore,
  n: number,
  seed: number,
  extra: (i: number) => Partial<ItemRecord> = () => ({}),
): Promise<{ item: ItemRecord; vector: Float32Array }[]> {
  const random = seeded(seed);
  const out: { item: ItemRecord; vector: Float32Array }[] = [];
  for (let start = 0; start < n; start += 500) {
    const batch = Array.from({ length: Math.min(500, n - start) }, (_, j) => {
      const vector = randomUnit(random, DIM);
      const i = start + j;
      return {
        d: draft({ body: `memory ${seed}-${i}`, created_at: T0 + i, ...extra(i) }, vector),
        vector,
      };
    });
    const outcomes = await store.createItems(batch.map((b) => b.d));
    outcomes.forEach((o, j) => out.push({ item: o.item, vector: batch[j]!.vector }));
  }
  return out;
}

async function ids(store: SqliteStore, query: Float32Array, k = 10, filter = all()) {
  return (await store.vectorSearch(filter, MODEL, query, k)).map((h) => h.id);
}

function queries(n: number, seed: number): Float32Array[] {
  const random = seeded(seed);
  return Array.from({ length: n }, () => randomUnit(random, DIM));
}

describe('ANN: the HNSW path answers like the exact scan', () => {
  it('returns the same top results and the same scores once the index is built', async () => {
    const path = freshPath();
    const ann = open(path);
    await fill(ann, 1500, 1);
    const status = await ann.vectorIndex.flush(MODEL, DIM);
    expect(status).toMatchObject({ state: 'ready', pending: 0, vectors: 1500 });
    const reference = exact(path);
    const search = vi.spyOn(HnswIndex.prototype, 'search');
    for (const query of queries(25, 2)) {
      const got = await ann.vectorSearchReport(all(), MODEL, query, 10);
      const want = await reference.vectorSearch(all(), MODEL, query, 10);
      expect(got.degraded).toBeUndefined();
      expect(got.hits).toEqual(want);
    }
    expect(search).toHaveBeenCalledTimes(25);
  });

  it('applies filters by over-fetching, and goes exact for a filter too selective for that', async () => {
    const path = freshPath();
    const ann = open(path);
    await fill(ann, 1200, 3, (i) => ({
      kind: i % 3 === 0 ? 'rule' : 'note',
      tags: i % 300 === 7 ? ['rare'] : [],
    }));
    await ann.vectorIndex.flush(MODEL, DIM);
    const reference = exact(path);
    for (const query of queries(10, 4)) {
      for (const filter of [
        all('default', { kinds: ['rule'] }),
        all('default', { tags: ['rare'] }),
      ]) {
        expect(await ids(ann, query, 5, filter)).toEqual(await ids(reference, query, 5, filter));
      }
    }
    expect(await ids(ann, queries(1, 5)[0]!, 10, all('default', { tags: ['rare'] }))).toHaveLength(
      4,
    );
  });

  it('keeps spaces apart inside one index', async () => {
    const path = freshPath();
    const ann = open(path);
    const mine = await fill(ann, 400, 6);
    const theirs = await fill(ann, 400, 7, () => ({ space: 'other' }));
    await ann.vectorIndex.flush(MODEL, DIM);
    const reference = exact(path);
    const query = theirs[0]!.vector;
    expect(await ids(ann, query, 10, all('other'))).toEqual(
      await ids(reference, query, 10, all('other')),
    );
    expect((await ids(ann, query, 10, all('other')))[0]).toBe(theirs[0]!.item.id);
    const inMine = await ids(ann, query, 400, all());
    expect(new Set(inMine)).toEqual(new Set(mine.map((m) => m.item.id)));
  });

  it('scans a small space of a shared index exactly, without a restricted walk', async () => {
    const path = freshPath();
    const ann = open(path);
    await fill(ann, 900, 42);
    const tiny = await fill(ann, 60, 43, () => ({ space: 'tiny' }));
    await ann.vectorIndex.flush(MODEL, DIM);
    const reference = exact(path);
    const search = vi.spyOn(HnswIndex.prototype, 'search');
    const query = tiny[4]!.vector;
    const got = await ann.vectorSearchReport(all('tiny'), MODEL, query, 10);
    expect(got.degraded).toBeUndefined();
    expect(got.hits).toEqual(await reference.vectorSearch(all('tiny'), MODEL, query, 10));
    expect(got.hits[0]!.id).toBe(tiny[4]!.item.id);
    expect(search).not.toHaveBeenCalled();
    await ann.vectorSearch(all(), MODEL, query, 10);
    expect(search).toHaveBeenCalledTimes(1);
  });

  it('widens the candidate list in proportion to the index beyond 100k vectors, within a cap', () => {
    expect(searchEf(400, 1_000)).toBe(400);
    expect(searchEf(400, 100_000)).toBe(400);
    expect(searchEf(400, 1_000_000)).toBe(4_000);
    expect(searchEf(400, 50_000_000)).toBe(10_000);
    expect(searchEf(20_000, 10)).toBe(10_000);
  });

  it('scans exactly below the size threshold and says nothing about it', async () => {
    const path = freshPath();
    const small = open(path, { min_items: 10_000 });
    await fill(small, 100, 8);
    const got = await small.vectorSearchReport(all(), MODEL, queries(1, 9)[0]!, 5);
    expect(got.degraded).toBeUndefined();
    expect(small.vectorIndex.status()).toEqual([]);
    expect(readdirSync(resolve(path, '..')).some((f) => f.endsWith('.hnsw'))).toBe(false);
  });
});

describe('ANN: exact fallback, reported in degraded', () => {
  it('reports ann_index_unavailable while there is no index file, then builds one', async () => {
    const path = freshPath();
    await fill(exact(path), 300, 10);
    const ann = open(path, { max_pending: 100 });
    const reference = exact(path);
    const query = queries(1, 11)[0]!;
    const first = await ann.vectorSearchReport(all(), MODEL, query, 10);
    expect(first.degraded).toBe('ann_index_unavailable');
    expect(first.hits).toEqual(await reference.vectorSearch(all(), MODEL, query, 10));
    await ann.vectorIndex.flush(MODEL, DIM);
    const later = await ann.vectorSearchReport(all(), MODEL, query, 10);
    expect(later.degraded).toBeUndefined();
    expect(later.hits).toEqual(first.hits);
    expect(indexFiles(path)).toHaveLength(1);
  });

  it('reports ann_index_unavailable when the index file is missing or corrupt, and repairs it', async () => {
    const path = freshPath();
    const builder = open(path);
    await fill(builder, 300, 12);
    await builder.vectorIndex.flush(MODEL, DIM);
    await release(builder);
    const query = queries(1, 13)[0]!;
    const want = await exact(path).vectorSearch(all(), MODEL, query, 10);

    const [file] = indexFiles(path);
    const bytes = readFileSync(file!);
    bytes.fill(0x5a, 64, 256);
    writeFileSync(file!, bytes);
    const corrupt = open(path, { max_pending: 100 });
    const got = await corrupt.vectorSearchReport(all(), MODEL, query, 10);
    expect(got).toEqual({ hits: want, degraded: 'ann_index_unavailable' });
    expect(corrupt.vectorIndex.status()[0]!.last_error).toMatch(/checksum/);
    await corrupt.vectorIndex.flush(MODEL, DIM);
    await release(corrupt);

    const repaired = open(path, { max_pending: 100 });
    expect(await repaired.vectorSearchReport(all(), MODEL, query, 10)).toEqual({ hits: want });
    expect(repaired.vectorIndex.status()[0]).toMatchObject({ loaded_from_file: true, pending: 0 });
    await release(repaired);

    for (const f of indexFiles(path)) rmSync(f);
    const missing = open(path, { max_pending: 100 });
    expect(await missing.vectorSearchReport(all(), MODEL, query, 10)).toEqual({
      hits: want,
      degraded: 'ann_index_unavailable',
    });
  });

  it('never loads the index of a store file that was deleted and created again', async () => {
    const path = freshPath();
    const old = open(path);
    await fill(old, 300, 40);
    await old.vectorIndex.flush(MODEL, DIM);
    await release(old);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    await new Promise((r) => setTimeout(r, 5));
    const created = await fill(exact(path), 400, 41);
    const fresh = open(path, { max_pending: 100 });
    const got = await fresh.vectorSearchReport(all(), MODEL, created[9]!.vector, 1);
    expect(got).toEqual({
      hits: [{ id: created[9]!.item.id, score: expect.closeTo(1, 5) }],
      degraded: 'ann_index_unavailable',
    });
    expect(fresh.vectorIndex.status()[0]).toMatchObject({ loaded_from_file: false });
  });

  it('rebuilds an index saved with other m / ef_construction than configured', async () => {
    const path = freshPath();
    const first = open(path);
    await fill(first, 300, 44);
    await first.vectorIndex.flush(MODEL, DIM);
    await release(first);
    const changed = open(path, { m: 8, max_pending: 100 });
    const query = queries(1, 45)[0]!;
    const got = await changed.vectorSearchReport(all(), MODEL, query, 10);
    expect(got.degraded).toBe('ann_index_unavailable');
    expect(changed.vectorIndex.status()[0]!.last_error).toMatch(/rebuilding/);
    await changed.vectorIndex.flush(MODEL, DIM);
    const sidecar = JSON.parse(readFileSync(`${path}.${sidecarName(path)}`, 'utf8')) as {
      m: number;
    };
    expect(sidecar.m).toBe(8);
  });

  it('reports ann_index_stale when the saved index is too far behind the store', async () => {
    const path = freshPath();
    const builder = open(path);
    await fill(builder, 200, 14);
    await builder.vectorIndex.flush(MODEL, DIM);
    await release(builder);
    const added = await fill(exact(path), 50, 15);
    const stale = open(path, { max_pending: 20 });
    const got = await stale.vectorSearchReport(all(), MODEL, added[3]!.vector, 1);
    expect(got).toEqual({
      hits: [{ id: added[3]!.item.id, score: expect.closeTo(1, 5) }],
      degraded: 'ann_index_stale',
    });
    await stale.vectorIndex.flush(MODEL, DIM);
    expect(
      (await stale.vectorSearchReport(all(), MODEL, added[3]!.vector, 1)).degraded,
    ).toBeUndefined();
  });

  it('puts the reason in the recall envelope', async () => {
    const engram = testEngram({ config: { store: { ann: { min_items: 5, max_pending: 0 } } } });
    await engram.rememberMany(
      [
        'the kettle needs descaling',
        'herons nest by the river',
        'the boiler was serviced',
        'tea at four',
        'buy oat milk',
        'call the plumber',
      ].map((body) => ({ body })),
    );
    const vectorOnly = { keyword: 0, vector: 1, graph: 0 };
    const first = await engram.recall({ query: 'boiler service', weights: vectorOnly });
    expect(first.degraded).toEqual([{ channel: 'vector', reason: 'ann_index_unavailable' }]);
    expect(first.hits.length).toBeGreaterThan(0);
    // The index absorbs the new items in the background, between recalls.
    let later = first;
    for (let i = 0; i < 50 && later.degraded.length > 0; i++) {
      await new Promise((r) => setTimeout(r, 20));
      later = await engram.recall({ query: 'boiler service', weights: vectorOnly });
    }
    expect(later.degraded).toEqual([]);
    expect(later.hits.map((h) => h.id)).toEqual(first.hits.map((h) => h.id));
  });
});

describe('ANN: incremental maintenance and persistence', () => {
  it('follows adds, revisions and purges, before and after they reach the index', async () => {
    const path = freshPath();
    const ann = open(path);
    const base = await fill(ann, 600, 16);
    await ann.vectorIndex.flush(MODEL, DIM);
    const writer = exact(path);
    const added = await fill(writer, 60, 17);
    const random = seeded(18);
    const revised = base.slice(0, 20).map((b) => ({ ...b, next: randomUnit(random, DIM) }));
    for (const r of revised)
      await writer.mutate('default', [r.item.id], () => ({
        changes: [
          {
            id: r.item.id,
            version: {
              title: null,
              body: `${r.item.body} (revised)`,
              tags: [],
              actor: null,
              reason: null,
              at: T0 + 9,
            },
            vector: { model: MODEL, vector: r.next },
          },
        ],
      }));
    const purged = base.slice(20, 40);
    for (const p of purged)
      await writer.purge('default', p.item.id, { actor: null, reason: 'test', at: T0 });

    const check = async () => {
      for (const a of added.slice(0, 10)) expect((await ids(ann, a.vector, 1))[0]).toBe(a.item.id);
      for (const r of revised.slice(0, 10)) expect((await ids(ann, r.next, 1))[0]).toBe(r.item.id);
      const gone = new Set(purged.map((p) => p.item.id));
      for (const p of purged.slice(0, 10)) {
        const found = await ids(ann, p.vector, 50);
        expect(found.some((id) => gone.has(id))).toBe(false);
      }
      for (const query of queries(10, 19))
        expect(await ids(ann, query)).toEqual(await ids(writer, query));
    };
    await check();
    expect(ann.vectorIndex.status()[0]!.pending).toBeGreaterThan(0);
    await ann.vectorIndex.flush(MODEL, DIM);
    expect(ann.vectorIndex.status()[0]!.pending).toBe(0);
    const search = vi.spyOn(HnswIndex.prototype, 'search');
    await check();
    expect(search).toHaveBeenCalled();
  });

  it('loads the saved index on reopen instead of rebuilding, and catches up with changes made meanwhile', async () => {
    const path = freshPath();
    const first = open(path);
    await fill(first, 500, 20);
    await first.vectorIndex.flush(MODEL, DIM);
    await release(first);
    const added = await fill(exact(path), 30, 21);

    const create = vi.spyOn(HnswIndex, 'create');
    const reopened = open(path);
    expect((await ids(reopened, added[0]!.vector, 1))[0]).toBe(added[0]!.item.id);
    expect(create).not.toHaveBeenCalled();
    expect(reopened.vectorIndex.status()[0]).toMatchObject({ loaded_from_file: true, pending: 30 });
    await release(reopened);
    // Closing saved the caught-up index: the next process starts with nothing pending.
    const again = open(path);
    await ids(again, added[1]!.vector, 1);
    expect(again.vectorIndex.status()[0]).toMatchObject({ loaded_from_file: true, pending: 0 });
  });
});

describe('ANN: several stores on one file', () => {
  it('keeps two connections correct while both write, build and save', async () => {
    const path = freshPath();
    const a = open(path);
    const b = open(path);
    await fill(a, 300, 22);
    await a.vectorIndex.flush(MODEL, DIM);
    const fromB = await fill(b, 300, 23);
    await b.vectorIndex.flush(MODEL, DIM);
    const fromA = await fill(a, 100, 24);
    const reference = exact(path);
    for (const store of [a, b]) {
      expect((await ids(store, fromA[5]!.vector, 1))[0]).toBe(fromA[5]!.item.id);
      expect((await ids(store, fromB[5]!.vector, 1))[0]).toBe(fromB[5]!.item.id);
      for (const query of queries(5, 25))
        expect(await ids(store, query)).toEqual(await ids(reference, query));
    }
  });

  it('reloads a newer index saved by another store instead of catching up itself', async () => {
    const path = freshPath();
    const a = open(path);
    await fill(a, 300, 31);
    await a.vectorIndex.flush(MODEL, DIM);
    const b = open(path);
    await ids(b, queries(1, 32)[0]!);
    expect(b.vectorIndex.status()[0]).toMatchObject({ loaded_from_file: true, pending: 0 });
    const added = await fill(a, 200, 33);
    const saved = await a.vectorIndex.flush(MODEL, DIM);
    await new Promise((r) => setTimeout(r, 1_100));
    await ids(b, queries(1, 34)[0]!);
    for (let i = 0; i < 100 && b.vectorIndex.status()[0]!.covered_seq < saved!.covered_seq; i++) {
      await new Promise((r) => setTimeout(r, 20));
      await ids(b, queries(1, 35)[0]!);
    }
    expect(b.vectorIndex.status()[0]).toMatchObject({
      covered_seq: saved!.covered_seq,
      file: saved!.file,
      pending: 0,
    });
    expect((await ids(b, added[7]!.vector, 1))[0]).toBe(added[7]!.item.id);
  });

  it('stays correct beside a second process that writes and saves the index', async () => {
    const path = freshPath();
    const parent = open(path);
    await fill(parent, 300, 26);
    await parent.vectorIndex.flush(MODEL, DIM);
    const child = runChild(path);
    const mine = await fill(parent, 200, 28);
    for (const query of queries(5, 29)) await ids(parent, query);
    const result = await child;
    expect(result.code, result.stderr).toBe(0);
    const theirs = JSON.parse(result.stdout) as { id: string; vector: number[] }[];
    const reference = exact(path);
    for (const t of theirs.slice(0, 10))
      expect((await ids(parent, Float32Array.from(t.vector), 1))[0]).toBe(t.id);
    for (const m of mine.slice(0, 10)) expect((await ids(parent, m.vector, 1))[0]).toBe(m.item.id);
    for (const query of queries(10, 30))
      expect(await ids(parent, query)).toEqual(await ids(reference, query));
    const sidecar = JSON.parse(readFileSync(`${path}.${sidecarName(path)}`, 'utf8')) as {
      covered_seq: number;
    };
    expect(sidecar.covered_seq).toBeGreaterThan(0);
  });
});

function indexFiles(path: string): string[] {
  const dir = resolve(path, '..');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.hnsw'))
    .map((f) => join(dir, f));
}

function sidecarName(path: string): string {
  const dir = resolve(path, '..');
  const name = readdirSync(dir).find((f) => /\.ann-[0-9a-f]+\.json$/u.test(f))!;
  return name.slice(name.indexOf('.ann-') + 1);
}

/** A second process: writes 300 items, searches (building its index) and saves it; prints what it wrote. */
function runChild(path: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const script = join(resolve(path, '..'), 'child.mts');
  const src = (p: string) => pathToFileURL(resolve(import.meta.dirname, p)).href;
  writeFileSync(
    script,
    `
import { openSqliteStore } from ${JSON.stringify(src('../src/store/sqlite/sqlite-store.ts'))};
import { ANN_DEFAULTS } from ${JSON.stringify(src('../src/store/sqlite/ann-search.ts'))};
import { storeFiles } from './fixtures/store-files.js';
import { draft, MODEL, randomUnit, seeded, T0 } from ${JSON.stringify(src('./fixtures/store-records.ts'))};
const store = openSqliteStore({ path: ${JSON.stringify(path)}, ann: { ...ANN_DEFAULTS, min_items: 50 } });
const random = seeded(27);
const out = [];
for (let b = 0; b < 3; b++) {
  const drafts = Array.from({ length: 100 }, (_, i) => {
    const vector = randomUnit(random, ${DIM});
    out.push({ vector: Array.from(vector) });
    return draft({ body: 'child ' + b + '-' + i, created_at: T0 + i }, vector);
  });
  const made = await store.createItems(drafts);
  made.forEach((m, i) => (out[b * 100 + i].id = m.item.id));
  await store.vectorSearch({ space: 'default', statuses: ['active'] }, MODEL, Float32Array.from(out[0].vector), 5);
}
await store.vectorIndex.flush(MODEL, ${DIM});
await store.close();
process.stdout.write(JSON.stringify(out));
`,
  );
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: resolve(import.meta.dirname, '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}
