/**
 * The write-behind access ledger (src/access/ledger.ts) over a real SQLite store: accesses add up
 * in memory, leave by the timer, by the batch size, on flush or on close, one transaction per space
 * per flush, and a failed flush is reported without failing anyone's recall.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

import { AccessLedger } from '../src/access/ledger.js';
import type { Logger } from '../src/domain/log.js';
import { silentLogger } from '../src/domain/log.js';
import type { Store } from '../src/store/store.js';
import { testEngram } from './helpers.js';

async function storeWith(bodies: string[]): Promise<{ store: Store; ids: string[] }> {
  const engram = testEngram();
  const ids: string[] = [];
  for (const body of bodies) ids.push((await engram.remember({ body })).memory.id);
  return { store: engram.storeForTransfer, ids };
}

async function accessOf(store: Store, ids: string[]) {
  return (await store.getItems('default', ids)).map((m) => [m.access_count, m.last_accessed_at]);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('AccessLedger', () => {
  it('adds repeated accesses of an item within the window and keeps the latest time', async () => {
    const { store, ids } = await storeWith(['alpha note', 'beta note']);
    const ledger = new AccessLedger(store, { flush_ms: 60_000, max_pending: 100 }, silentLogger);
    await ledger.record('default', [ids[0]!, ids[1]!, ids[0]!], 1_000);
    await ledger.record('default', [ids[0]!], 3_000);
    await ledger.record('default', [ids[0]!], 2_000);
    expect(ledger.waiting).toBe(2);
    expect(await accessOf(store, ids)).toEqual([
      [0, null],
      [0, null],
    ]);
    await ledger.flush();
    expect(ledger.waiting).toBe(0);
    expect(await accessOf(store, ids)).toEqual([
      [3, 3_000],
      [1, 1_000],
    ]);
    await ledger.close();
  });

  it('flushes when flush_ms has passed since the first waiting access', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { store, ids } = await storeWith(['gamma note']);
    const ledger = new AccessLedger(store, { flush_ms: 1_000, max_pending: 100 }, silentLogger);
    await ledger.record('default', ids, 5_000);
    await vi.advanceTimersByTimeAsync(999);
    expect(ledger.waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(ledger.waiting).toBe(0);
    await ledger.flush(); // waits for the timer's flush to finish
    expect(await accessOf(store, ids)).toEqual([[1, 5_000]]);
  });

  it('flushes at once when max_pending items wait', async () => {
    const { store, ids } = await storeWith(['delta note', 'epsilon note', 'zeta note']);
    const ledger = new AccessLedger(store, { flush_ms: 60_000, max_pending: 2 }, silentLogger);
    await ledger.record('default', [ids[0]!], 1);
    expect(ledger.waiting).toBe(1);
    await ledger.record('default', [ids[1]!, ids[2]!], 2);
    expect(ledger.waiting).toBe(0);
    await ledger.flush();
    expect((await accessOf(store, ids)).map(([n]) => n)).toEqual([1, 1, 1]);
  });

  it('writes through after close, and with flush_ms 0', async () => {
    const { store, ids } = await storeWith(['eta note']);
    const closed = new AccessLedger(store, { flush_ms: 60_000, max_pending: 100 }, silentLogger);
    await closed.close();
    await closed.record('default', ids, 10);
    expect(await accessOf(store, ids)).toEqual([[1, 10]]);
    const direct = new AccessLedger(store, { flush_ms: 0, max_pending: 100 }, silentLogger);
    await direct.record('default', ids, 20);
    expect(direct.waiting).toBe(0);
    expect(await accessOf(store, ids)).toEqual([[2, 20]]);
  });

  it('reports a failed background flush and drops its batch; the next flush writes the rest', async () => {
    const { store, ids } = await storeWith(['theta note', 'iota note']);
    const warnings: string[] = [];
    const log: Logger = { ...silentLogger, warn: (message) => warnings.push(message) };
    let fail = true;
    // The store itself, refusing one write: what a full disk or a lost server would do.
    const flaky = {
      recordAccessCounts: (space: string, counts: Parameters<Store['recordAccessCounts']>[1]) =>
        fail ? Promise.reject(new Error('disk full')) : store.recordAccessCounts(space, counts),
    };
    const ledger = new AccessLedger(flaky, { flush_ms: 60_000, max_pending: 1 }, log);
    await ledger.record('default', [ids[0]!], 1);
    await expect(ledger.flush()).resolves.toBeUndefined();
    expect(warnings).toEqual(['access accounting skipped']);
    fail = false;
    await ledger.record('default', [ids[1]!], 2);
    await ledger.flush();
    expect(await accessOf(store, ids)).toEqual([
      [0, null],
      [1, 2],
    ]);
  });

  it("writes the other spaces' accesses when one space's write fails", async () => {
    const { store, ids } = await storeWith(['kappa note']);
    const written: string[] = [];
    const flaky = {
      recordAccessCounts: (space: string, counts: Parameters<Store['recordAccessCounts']>[1]) => {
        if (space === 'broken') return Promise.reject(new Error('disk full'));
        written.push(space);
        return store.recordAccessCounts(space, counts);
      },
    };
    const ledger = new AccessLedger(flaky, { flush_ms: 60_000, max_pending: 100 }, silentLogger);
    // The failing space comes first, so a write that stopped at it would lose the second.
    await ledger.record('broken', ['01J0000000000000000000000X'], 1);
    await ledger.record('default', [ids[0]!], 5);
    await expect(ledger.flush()).rejects.toThrow('disk full');
    expect(written).toEqual(['default']);
    expect(await accessOf(store, ids)).toEqual([[1, 5]]);
  });
});
