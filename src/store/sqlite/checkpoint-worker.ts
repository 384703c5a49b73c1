/**
 * Worker-thread entry of the WAL checkpointer (checkpointer.ts): its own connection to the store
 * file, on which it runs passive checkpoints when asked. Messages in: `'checkpoint'` (run one
 * within `delayMs`; requests arriving meanwhile join it) and `'close'`. Out: `{ ready: true }` once
 * the file is open, `{ checkpoint: { log, checkpointed, busy } }` after each checkpoint, and
 * `{ error }` when one fails (the thread then stops).
 */
import { parentPort, workerData } from 'node:worker_threads';

import Database from 'better-sqlite3';

/** What the main thread passes when it starts the worker. */
export interface CheckpointWorkerData {
  path: string;
  busyTimeoutMs: number;
  delayMs: number;
}

/**
 * One checkpoint's outcome: WAL frames, frames copied into the database file, and whether it was
 * kept from finishing (`busy` 1; `log` and `checkpointed` -1 when another connection was running
 * one).
 */
export interface CheckpointResult {
  log: number;
  checkpointed: number;
  busy: number;
}

const data = workerData as CheckpointWorkerData;
const port = parentPort!;

let db: Database.Database | null = null;
let timer: NodeJS.Timeout | null = null;

function fail(err: unknown): void {
  port.postMessage({ error: err instanceof Error ? err.message : String(err) });
  close();
}

function close(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  try {
    db?.close();
  } catch {
    // Closing is best effort: the main connection stays the file's owner.
  }
  db = null;
  port.close();
}

function checkpoint(): void {
  timer = null;
  if (!db) return;
  try {
    // PASSIVE: copies what no reader still needs, never waits for readers or writers.
    const [row] = db.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[];
    port.postMessage({ checkpoint: row });
  } catch (err) {
    // Another process's connection is checkpointing the same file: this one is not needed.
    const code = (err as { code?: string }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED')
      port.postMessage({ checkpoint: { log: -1, checkpointed: -1, busy: 1 } });
    else fail(err);
  }
}

try {
  db = new Database(data.path, { fileMustExist: true, timeout: data.busyTimeoutMs });
  // This connection never writes; it must not checkpoint on its own schedule either.
  db.pragma('wal_autocheckpoint = 0');
  port.postMessage({ ready: true });
} catch (err) {
  fail(err);
}

port.on('message', (message: 'checkpoint' | 'close') => {
  if (message === 'close') close();
  else if (db && !timer) timer = setTimeout(checkpoint, data.delayMs);
});
