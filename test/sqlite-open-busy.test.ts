/**
 * Opening a SQLite store while another connection holds its write lock: the opening waits and
 * retries (as writes do) instead of failing with STORE_BUSY, and gives up with a clear
 * STORE_BUSY once its retry window has passed. The lock is held by a worker thread, since
 * opening blocks the thread that opens.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

import { afterEach, describe, expect, it } from 'vitest';

import { openDatabase } from '../src/store/sqlite/database.js';

const HOLDER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require('better-sqlite3');
const db = new Database(workerData.path);
db.pragma('journal_mode = WAL');
db.exec('BEGIN IMMEDIATE');
parentPort.postMessage('locked');
const flag = new Int32Array(workerData.release);
// Held until the test says so, or for holdMs when set.
if (workerData.holdMs > 0) Atomics.wait(flag, 0, 0, workerData.holdMs);
else Atomics.wait(flag, 0, 0);
db.exec('COMMIT');
db.close();
parentPort.postMessage('released');
`;

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function holdLock(path: string, holdMs: number) {
  const release = new SharedArrayBuffer(4);
  const worker = new Worker(HOLDER, { eval: true, workerData: { path, release, holdMs } });
  const locked = new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  const done = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    locked,
    done,
    release() {
      const flag = new Int32Array(release);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
    },
  };
}

describe('opening a store another connection is writing', () => {
  it('waits for the write lock and migrates the new file once it is free', async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-open-busy-'));
    const path = join(dir, 'engram.db');
    const holder = holdLock(path, 300);
    await holder.locked;
    // The driver's own busy wait is 1 ms: only the retry of the whole opening can succeed.
    const opened = openDatabase({ path, busyTimeoutMs: 1, retryMs: 30_000 });
    try {
      expect(opened.schemaVersion).toBeGreaterThan(0);
      const tables = opened.db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'items'")
        .all();
      expect(tables).toHaveLength(1);
    } finally {
      opened.db.close();
    }
    await holder.done;
  });

  it('fails with STORE_BUSY naming the store once its retry window has passed', async () => {
    dir = mkdtempSync(join(tmpdir(), 'engram-open-busy-'));
    const path = join(dir, 'engram.db');
    const holder = holdLock(path, 0);
    await holder.locked;
    try {
      expect(() => openDatabase({ path, busyTimeoutMs: 1, retryMs: 50 })).toThrow(
        expect.objectContaining({ code: 'STORE_BUSY', message: expect.stringContaining(path) }),
      );
    } finally {
      holder.release();
      await holder.done;
    }
  });
});
