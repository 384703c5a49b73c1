/**
 * Access accounting (§3.6), optionally off recall's critical path: with `flush_ms` above 0 the hits
 * a recall returns are counted in memory and written to the store later, in one transaction per
 * space, instead of one write transaction per recall (the default, `flush_ms: 0`). Until they are
 * written, readers of the store (get, export, maintenance, dream runs) do not see them.
 *
 * - A flush runs `flush_ms` after the first access it will carry, or at once when `max_pending`
 *   items wait; `flush()` and `close()` write whatever waits (close: a clean shutdown loses
 *   nothing).
 * - Several recalls of one item within the window add up (`count`); the latest access time wins.
 * - A process killed before its flush loses at most the accesses of that window: each flush is
 *   one store transaction, so counts are behind, never half-written.
 * - `flush_ms: 0` writes each recall's accesses before the recall returns, as one transaction.
 */
import type { Logger } from '../domain/log.js';
import { type AccessCount, oneAccessEach, type Store } from '../store/store.js';

/** Where recall reports the hits it returned. */
export interface AccessRecorder {
  /** Counts one access of each id (each once) in `space`: written now, or behind when configured. */
  record(space: string, ids: readonly string[], at: number): Promise<void>;
}

/** The write-behind settings (`recall.access`). */
export interface LedgerSettings {
  /** Longest time an access waits in memory; 0 writes it within the recall. */
  flush_ms: number;
  /** Items waiting that trigger a flush at once. */
  max_pending: number;
}

/** Accesses waiting to be written, by space and item. */
type Pending = Map<string, Map<string, AccessCount>>;

/** Buffers accesses and writes them to the store in batches. */
export class AccessLedger implements AccessRecorder {
  private pending: Pending = new Map();
  private size = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The flush in progress (flushes run one at a time, in order). */
  private writing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly store: Pick<Store, 'recordAccessCounts'>,
    private readonly settings: LedgerSettings,
    private readonly log: Logger,
  ) {}

  /** Accesses counted and not yet handed to the store. */
  get waiting(): number {
    return this.size;
  }

  async record(space: string, ids: readonly string[], at: number): Promise<void> {
    if (ids.length === 0) return;
    if (this.closed || this.settings.flush_ms === 0) {
      await this.store.recordAccessCounts(space, oneAccessEach(ids, at));
      return;
    }
    let items = this.pending.get(space);
    if (!items) this.pending.set(space, (items = new Map()));
    for (const id of new Set(ids)) {
      const entry = items.get(id);
      if (entry) {
        entry.count += 1;
        entry.at = Math.max(entry.at, at);
      } else {
        items.set(id, { id, count: 1, at });
        this.size += 1;
      }
    }
    if (this.size >= this.settings.max_pending) void this.flushReporting();
    else
      this.timer ??= setTimeout(() => void this.flushReporting(), this.settings.flush_ms).unref();
  }

  /**
   * Writes every access counted so far; resolves when they are in the store. A failed write is
   * thrown to the caller and the accesses of the space it failed for are dropped (they are never
   * written twice); the other spaces' are written all the same.
   */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = new Map();
    this.size = 0;
    const run = this.writing.then(() => this.write(batch));
    // The next flush waits for this one whatever its outcome.
    this.writing = run.catch(() => {});
    return run;
  }

  /** Writes what waits; later accesses are written as they come. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  /**
   * Writes each space's accesses in its own transaction; a space whose write fails does not keep
   * the others from being written. The first failure is thrown once every space was tried.
   */
  private async write(batch: Pending): Promise<void> {
    let failure: { error: unknown } | undefined;
    for (const [space, items] of batch)
      try {
        await this.store.recordAccessCounts(space, [...items.values()]);
      } catch (error) {
        failure ??= { error };
      }
    if (failure) throw failure.error;
  }

  /** A flush nobody awaits: its failure is logged, since accounting never fails a recall. */
  private async flushReporting(): Promise<void> {
    try {
      await this.flush();
    } catch (err) {
      this.log.warn('access accounting skipped', { error: String(err) });
    }
  }
}
