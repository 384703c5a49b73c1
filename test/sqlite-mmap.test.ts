/**
 * `store.mmap_mb`: the SQLite store reads its file through memory mapping up to that size, and
 * not at all at 0; what it stores and answers is the same either way.
 */
import { describe, expect, it } from 'vitest';

import { loadConfig } from '../src/config/load.js';
import { silentLogger } from '../src/domain/log.js';
import { openStore } from '../src/store/open.js';
import { openDatabase } from '../src/store/sqlite/database.js';
import type { SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { storeFiles } from './fixtures/store-files.js';

const files = storeFiles('engram-mmap-');

const mmapOf = (store: SqliteStore) => Number(store['db'].pragma('mmap_size', { simple: true }));

describe('store.mmap_mb', () => {
  it('maps 256 MiB of the file by default, the configured size, or none at 0', () => {
    const path = files.freshPath();
    const open = (overrides: object) =>
      files.track(
        openStore(
          loadConfig({ env: {}, overrides: { store: { path, ...overrides } } }),
          silentLogger,
        ) as SqliteStore,
      );
    expect(mmapOf(open({}))).toBe(256 * 1024 * 1024);
    expect(mmapOf(open({ mmap_mb: 8 }))).toBe(8 * 1024 * 1024);
    expect(mmapOf(open({ mmap_mb: 0 }))).toBe(0);
  });

  it('rejects a negative or fractional size, naming the key', () => {
    expect(() => loadConfig({ env: {}, overrides: { store: { mmap_mb: -1 } } })).toThrow(
      /store\.mmap_mb/,
    );
    expect(() => loadConfig({ env: {}, overrides: { store: { mmap_mb: 1.5 } } })).toThrow(
      /store\.mmap_mb/,
    );
  });

  it('reads rows written through another connection the same, mapped or not', () => {
    const path = files.freshPath();
    const writer = openDatabase({ path, busyTimeoutMs: 1_000 }).db;
    writer.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)');
    const insert = writer.prepare('INSERT INTO t (v) VALUES (?)');
    writer.transaction(() => {
      for (let i = 0; i < 5_000; i++) insert.run(`row ${i} ${'x'.repeat(200)}`);
    })();
    const mapped = openDatabase({ path, busyTimeoutMs: 1_000, mmapMb: 1 }).db;
    const plain = openDatabase({ path, busyTimeoutMs: 1_000 }).db;
    const read = (db: typeof writer) =>
      db.prepare('SELECT count(*) AS n, sum(length(v)) AS bytes FROM t').get();
    expect(read(mapped)).toEqual(read(plain));
    // A write after the mapping was made (the file grows past the mapped MiB) is seen too.
    writer.pragma('wal_checkpoint(TRUNCATE)');
    insert.run('late');
    expect(mapped.prepare('SELECT v FROM t ORDER BY k DESC LIMIT 1').get()).toEqual({ v: 'late' });
    for (const db of [writer, mapped, plain]) db.close();
  });
});
