/**
 * WAL checkpoints in a worker thread (src/store/sqlite/checkpointer.ts), on real store files: the
 * thread starts only after a connection has written a while, copies the whole log back into the
 * file, raises the connection's own threshold, hands checkpoints back when it fails, and closes
 * before the connection does, which then removes the log.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';

import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

import { silentLogger } from '../src/domain/log.js';
import { Checkpointer, SQLITE_AUTOCHECKPOINT } from '../src/store/sqlite/checkpointer.js';
import { onCommit, openDatabase, writeWithRetry } from '../src/store/sqlite/database.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { tempDir } from './helpers.js';

function table(path: string) {
  const { db } = openDatabase({ path, busyTimeoutMs: 5_000 });
  db.exec('CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO notes (body) VALUES (?)');
  const write = (n: number) =>
    writeWithRetry(db, path, 1_000, () => {
      for (let i = 0; i < n; i++) insert.run(`note ${i} `.repeat(200));
    });
  return { db, write };
}

const run = promisify(execFile);

const autocheckpoint = (db: Database.Database) =>
  db.pragma('wal_autocheckpoint', { simple: true }) as number;

describe('the WAL checkpoint thread', () => {
  it('starts after enough commits and copies the whole log back into the file', async () => {
    const path = join(tempDir(), 'store.db');
    const { db, write } = table(path);
    const checkpointer = new Checkpointer(db, path, 5_000, { startAfter: 3, delayMs: 1 });
    onCommit(db, () => checkpointer.committed());
    await write(10);
    await write(10);
    expect(checkpointer.state).toBe('waiting');
    const first = checkpointer.nextCheckpoint();
    await write(10);
    expect(checkpointer.state).toBe('starting');
    const done = await first;
    expect(checkpointer.state).toBe('running');
    expect(done.log).toBeGreaterThan(0);
    expect(done.checkpointed).toBe(done.log);
    expect(autocheckpoint(db)).toBe(10_000);

    // Later commits ask again; the next checkpoint copies what they wrote.
    const second = checkpointer.nextCheckpoint();
    await write(50);
    const again = await second;
    expect(again.checkpointed).toBe(again.log);
    expect(checkpointer.checkpoints).toBeGreaterThanOrEqual(2);

    await checkpointer.close();
    expect(checkpointer.state).toBe('stopped');
    expect(autocheckpoint(db)).toBe(SQLITE_AUTOCHECKPOINT);
    db.close();
    const reread = new Database(path, { readonly: true });
    expect(reread.prepare('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 80 });
    reread.close();
  });

  it('hands checkpoints back to the connection when the thread fails', async () => {
    const path = join(tempDir(), 'store.db');
    const { db, write } = table(path);
    // A thread that opens, answers its first checkpoint, and fails on the second.
    const failing = () =>
      new Worker(
        `const { parentPort } = require('node:worker_threads');
         let asked = 0;
         parentPort.postMessage({ ready: true });
         parentPort.on('message', () => {
           if (++asked > 1) throw new Error('no checkpoint here');
           parentPort.postMessage({ checkpoint: { log: 0, checkpointed: 0, busy: 0 } });
         });`,
        { eval: true },
      );
    let failed!: (message: string) => void;
    const failure = new Promise<string>((resolve) => (failed = resolve));
    const checkpointer = new Checkpointer(
      db,
      path,
      5_000,
      { startAfter: 1, onError: (message) => failed(message) },
      failing,
    );
    onCommit(db, () => checkpointer.committed());
    const first = checkpointer.nextCheckpoint();
    await write(5);
    await first;
    expect(checkpointer.state).toBe('running');
    expect(autocheckpoint(db)).toBe(10_000);
    await write(5);
    expect(await failure).toMatch(/no checkpoint here/);
    expect(checkpointer.state).toBe('stopped');
    expect(autocheckpoint(db)).toBe(SQLITE_AUTOCHECKPOINT);
    // Writing goes on as before.
    await write(5);
    expect(db.prepare('SELECT count(*) AS n FROM notes').get()).toEqual({ n: 15 });
    db.close();
  });

  it('runs beside a store that writes a while, and closes before it', async () => {
    const path = join(tempDir(), 'store.db');
    const store = openSqliteStore({ path, logger: silentLogger });
    const checkpointer = store.checkpointer!;
    expect(checkpointer.state).toBe('waiting');
    const first = checkpointer.nextCheckpoint();
    // Access accounting: one write transaction each, as every recall commits one.
    for (let i = 0; i < 260; i++) await store.recordAccess('default', [`id-${i}`], Date.now());
    await first;
    expect(checkpointer.state).toBe('running');
    await store.close();
    expect(checkpointer.state).toBe('stopped');
    // The last connection to close checkpoints and removes the log.
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('closes before the process may end, the thread holding it open no longer', async () => {
    const path = join(tempDir(), 'store.db');
    const fixture = join(import.meta.dirname, 'fixtures', 'checkpoint-close.ts');
    // Waits for the child to end (its own exit is the signal); the test's timeout bounds a hang.
    const { stdout } = await run(process.execPath, ['--import', 'tsx', fixture, path], {
      encoding: 'utf8',
    });
    expect(stdout.trim()).toBe('closed stopped');
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('is not started when the configuration turns it off, nor for an in-memory store', async () => {
    const off = openSqliteStore({ path: join(tempDir(), 'store.db'), checkpointThread: false });
    expect(off.checkpointer).toBeUndefined();
    await off.close();
    const memory = openSqliteStore({ path: ':memory:' });
    expect(memory.checkpointer).toBeUndefined();
    await memory.close();
  });
});
