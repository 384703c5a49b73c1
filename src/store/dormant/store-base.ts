/**
 * The DormantStore operations every backend shares, written once over a backend's two ways of
 * running a flow (a write transaction with a short lock wait, and plain reads) and its SQL
 * primitives. A backend adds the exact scan, its connection and its transactions.
 */
import { EngramError } from '../../domain/errors.js';
import type { Kind } from '../../domain/types.js';
import type {
  DormantEventRecord,
  DormantRecordRequest,
  DormantRetention,
  DormantScanHit,
  DormantScanRequest,
  DormantStateRecord,
  DormantStore,
} from '../dormant-store.js';
import { type DormantPages, exportDormantEvents, exportDormantStates } from './export.js';
import {
  call,
  type DormantFlow,
  eventFlow,
  feedbackFlow,
  importEventsFlow,
  importStatesFlow,
  markShownFlow,
  pruneFlow,
  recordFlow,
} from './flows.js';
import { eventFromRow, stateFromRow } from './rows.js';

/** What importing one row did. */
type ImportOutcome = 'imported' | 'exists';

/** A DormantStore whose writes and reads are the shared flows; backends supply how they run. */
export abstract class DormantStoreBase implements DormantStore {
  abstract scan(request: DormantScanRequest): Promise<{ hits: DormantScanHit[]; scanned: number }>;

  /**
   * Runs a flow in one write transaction with the short lock wait (creating the tables first);
   * null when the wait ran out, so the caller fails open. `flow` makes a fresh flow per attempt.
   */
  protected abstract tryRun<T>(flow: () => DormantFlow<T>): Promise<T | null>;

  /** Runs a flow of reads outside a write transaction, creating the tables first when missing. */
  protected abstract read<T>(flow: () => DormantFlow<T>): Promise<T>;

  /** True when both tables exist (export never creates them). */
  protected abstract tablesExist(): Promise<boolean>;

  /** Like tryRun, but a lock wait that runs out is STORE_BUSY (explicit calls never fail open). */
  private async run<T>(flow: () => DormantFlow<T>): Promise<T> {
    const out = await this.tryRun(flow);
    if (out === null)
      throw new EngramError('STORE_BUSY', 'the store stayed busy; try again', { rule: 'busy' });
    return out;
  }

  async record(request: DormantRecordRequest): Promise<DormantEventRecord | null> {
    return this.tryRun(() => recordFlow(request));
  }

  async prune(
    space: string,
    retention: DormantRetention,
    kinds: readonly Kind[],
  ): Promise<boolean> {
    return (await this.tryRun(() => pruneFlow(space, retention, kinds))) !== null;
  }

  async review(
    space: string,
    limit: number,
    retention: DormantRetention,
    kinds: readonly Kind[],
  ): Promise<DormantEventRecord[]> {
    // Pruning needs the write lock; when another writer holds it, review still answers.
    await this.prune(space, retention, kinds);
    return (await this.read(() => call('listEvents', space, limit))).map(eventFromRow);
  }

  async event(space: string, id: string): Promise<DormantEventRecord | undefined> {
    return this.read(() => eventFlow(space, id));
  }

  async state(space: string, itemId: string): Promise<DormantStateRecord | undefined> {
    const row = await this.read(() => call('readState', space, itemId));
    return row ? stateFromRow(row) : undefined;
  }

  async markShown(
    ...args: Parameters<DormantStore['markShown']>
  ): ReturnType<DormantStore['markShown']> {
    return this.run(() => markShownFlow(...args));
  }

  async feedback(
    ...args: Parameters<DormantStore['feedback']>
  ): ReturnType<DormantStore['feedback']> {
    return this.run(() => feedbackFlow(...args));
  }

  exportEvents(space: string | null): AsyncIterable<DormantEventRecord> {
    return exportDormantEvents(this.pages, space);
  }

  exportStates(space: string | null): AsyncIterable<DormantStateRecord> {
    return exportDormantStates(this.pages, space);
  }

  /** The export's reads, on this store's own connection. */
  private readonly pages: DormantPages = {
    tablesExist: () => this.tablesExist(),
    page: (table, space, after, limit) => this.read(() => call('page', table, space, after, limit)),
  };

  async importEvents(records: readonly DormantEventRecord[]): Promise<ImportOutcome[]> {
    return this.run(() => importEventsFlow(records));
  }

  async importStates(records: readonly DormantStateRecord[]): Promise<ImportOutcome[]> {
    return this.run(() => importStatesFlow(records));
  }
}
