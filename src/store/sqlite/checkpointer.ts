/**
 * WAL checkpoints off the main thread. SQLite copies its write-ahead log back into the database
 * file when a commit finds the log over `wal_autocheckpoint` pages (1,000 by default), about 15 µs
 * a page: the write that crossed the line paid 15-25 ms, and with access accounting written in
 * every recall, that was one recall in a hundred or so (bench/results/scale-*.md).
 *
 * Once a connection has committed `startAfter` write transactions (a short-lived process never
 * gets there), a worker thread opens the file on a connection of its own and runs a passive
 * checkpoint (which never blocks readers or writers) `delayMs` after a commit asks for one; commits
 * meanwhile join it. The main connection's own threshold then rises to `safetyPages`, a bound for
 * when the worker falls behind. When the worker cannot start or fails, the threshold returns to
 * SQLite's default: checkpoints happen in the committing call again, and nothing else changes.
 */
import type { Worker } from 'node:worker_threads';

import { startWorkerScript } from '../../domain/worker-script.js';
import type { CheckpointResult, CheckpointWorkerData } from './checkpoint-worker.js';
import type { SqliteDatabase } from './database.js';

/** SQLite's own `wal_autocheckpoint`, which the connection keeps without a worker. */
export const SQLITE_AUTOCHECKPOINT = 1000;

/** When and how the worker checkpoints. */
export interface CheckpointerOptions {
  /** Commits on this connection before the worker starts (default 256). */
  startAfter?: number;
  /** Wait after the first commit asking, so later commits join one checkpoint (default 1,000 ms). */
  delayMs?: number;
  /** The main connection's `wal_autocheckpoint` while the worker runs (default 10,000 pages). */
  safetyPages?: number;
  /** Told when the worker stopped on an error; checkpoints are the connection's own again. */
  onError?: (message: string) => void;
}

type Reply = { ready: true } | { checkpoint: CheckpointResult } | { error: string };

/** Where a checkpointer stands. */
export type CheckpointerState = 'waiting' | 'starting' | 'running' | 'stopped';

/** Moves one connection's WAL checkpoints to a worker thread (see the file header). */
export class Checkpointer {
  private worker: Worker | null = null;
  private commits = 0;
  private asked = false;
  private exited: Promise<void> | null = null;
  private listeners: ((result: CheckpointResult) => void)[] = [];
  private readonly options: Required<Omit<CheckpointerOptions, 'onError'>>;
  private readonly onError: (message: string) => void;
  private phase: CheckpointerState = 'waiting';
  private ran = 0;
  private latest: CheckpointResult | null = null;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly path: string,
    private readonly busyTimeoutMs: number,
    options: CheckpointerOptions = {},
    /** Starts the worker thread (a test may hand one that fails). */
    private readonly start: (data: CheckpointWorkerData) => Worker = (data) =>
      startWorkerScript(import.meta.url, 'checkpoint-worker', { workerData: data }),
  ) {
    this.options = {
      startAfter: options.startAfter ?? 256,
      delayMs: options.delayMs ?? 1_000,
      safetyPages: options.safetyPages ?? 10_000,
    };
    this.onError = options.onError ?? (() => {});
  }

  /** Where the worker stands. */
  get state(): CheckpointerState {
    return this.phase;
  }

  /** Checkpoints the worker ran. */
  get checkpoints(): number {
    return this.ran;
  }

  /** The last checkpoint's outcome, once one ran. */
  get last(): CheckpointResult | null {
    return this.latest;
  }

  /**
   * Called after each committed write transaction on the connection. Never throws: the write it
   * follows has committed, whatever becomes of the thread.
   */
  committed(): void {
    if (this.phase === 'stopped') return;
    try {
      if (this.phase === 'waiting') {
        if (++this.commits >= this.options.startAfter) this.launch();
      } else if (this.phase === 'running' && !this.asked) {
        this.asked = true;
        this.worker!.postMessage('checkpoint');
      }
    } catch (err) {
      this.fail(err instanceof Error ? err.message : String(err));
    }
  }

  /**
   * Resolves with the outcome of the next checkpoint the worker runs (for tests and benchmarks);
   * never, once the thread has stopped.
   */
  nextCheckpoint(): Promise<CheckpointResult> {
    return new Promise((resolve) => this.listeners.push(resolve));
  }

  /** Stops the worker and waits for its thread to end; the connection checkpoints on its own again. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.stop();
    if (!worker) return;
    // Held open until the thread has closed its connection (it is unref'd while it runs).
    worker.ref();
    worker.postMessage('close');
    await this.exited;
  }

  private launch(): void {
    this.phase = 'starting';
    let worker: Worker;
    try {
      worker = this.start({
        path: this.path,
        busyTimeoutMs: this.busyTimeoutMs,
        delayMs: this.options.delayMs,
      });
    } catch (err) {
      this.fail(err instanceof Error ? err.message : String(err));
      return;
    }
    this.worker = worker;
    // The thread never holds the process open: a store left unclosed does not keep it alive.
    worker.unref();
    this.exited = new Promise((resolve) => worker.once('exit', () => resolve()));
    worker.on('message', (reply: Reply) => this.reply(reply));
    worker.once('error', (err) => this.fail(err.message));
    worker.once('exit', () => {
      if (this.phase !== 'stopped') this.fail('the checkpoint thread ended');
    });
  }

  private reply(reply: Reply): void {
    if ('error' in reply) {
      this.fail(reply.error);
    } else if ('ready' in reply) {
      if (this.phase !== 'starting') return;
      this.phase = 'running';
      this.db.pragma(`wal_autocheckpoint = ${this.options.safetyPages}`);
      this.asked = true;
      this.worker!.postMessage('checkpoint');
    } else {
      this.asked = false;
      this.ran++;
      this.latest = reply.checkpoint;
      const listeners = this.listeners;
      this.listeners = [];
      for (const listener of listeners) listener(reply.checkpoint);
    }
  }

  private fail(message: string): void {
    if (this.phase === 'stopped') return;
    this.stop();
    this.onError(message);
  }

  /** Hands checkpoints back to the connection (SQLite's default threshold). */
  private stop(): void {
    const wasRunning = this.phase === 'running';
    this.phase = 'stopped';
    this.worker = null;
    if (wasRunning && this.db.open) this.db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT}`);
  }
}
