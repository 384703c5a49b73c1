/**
 * Leases for background work (§11), one suite for both backends: PostgreSQL always when
 * ENGRAM_TEST_PG_URL is set, SQLite always. Several connections (and processes) contend for one
 * lease; exactly one holds it, it is renewed while the work runs, a holder killed with SIGKILL
 * frees it after its time-to-live, and a holder whose lease was taken away is told so.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { openSqliteStore, type SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { LeaseOutcome, Store } from '../src/store/store.js';
import { PG_URL, schemaStore } from './postgres-helpers.js';

/** Two stores on one shared location, how to start another process on it, and raw SQL. */
interface Shared {
  a: Store;
  b: Store;
  backend: 'sqlite' | 'postgres';
  location: string;
  schema: string;
  /** Hands the lease to someone else behind the holder's back. */
  steal(name: string): Promise<void>;
  cleanup(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function holdInChild(shared: Shared, name: string, ttlMs: number) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'fixtures', 'store-worker.ts'),
      'hold-lease',
      shared.backend,
      shared.location,
      shared.schema,
      name,
      String(ttlMs),
    ],
    { cwd: join(import.meta.dirname, '..'), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const held = new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /held (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`lease holder exited (${code}): ${err}`)));
  });
  return { child, held };
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

function leaseSuite(name: string, open: () => Promise<Shared>): void {
  describe(`leases: ${name}`, () => {
    async function withShared(fn: (s: Shared) => Promise<void>): Promise<void> {
      const shared = await open();
      try {
        await fn(shared);
      } finally {
        await shared.cleanup();
      }
    }

    it('runs the function under the lease and frees it afterwards', () =>
      withShared(async ({ a }) => {
        const first = await a.withLease('jobs:backfill', 1_000, async (lease) => {
          expect(lease.name).toBe('jobs:backfill');
          expect(lease.signal.aborted).toBe(false);
          return 42;
        });
        expect(first).toEqual({ acquired: true, value: 42 });
        expect(await a.withLease('jobs:backfill', 1_000, async () => 'again')).toEqual({
          acquired: true,
          value: 'again',
        });
        await expect(
          a.withLease('jobs:x', 1_000, () => Promise.reject(new Error('boom'))),
        ).rejects.toThrow('boom');
        expect((await a.withLease('jobs:x', 1_000, async () => 1)).acquired).toBe(true);
      }));

    it('refuses a second holder on another connection and names the holder', () =>
      withShared(async ({ a, b }) => {
        const gate = deferred();
        let holder = '';
        const running = a.withLease('decay', 5_000, async (lease) => {
          holder = lease.holder;
          await gate.promise;
          return 'done';
        });
        while (!holder) await sleep(5);
        const refused = await b.withLease('decay', 5_000, async () => 'should not run');
        expect(refused).toMatchObject({ acquired: false, holder });
        expect((refused as { expires_at: number }).expires_at).toBeGreaterThan(Date.now());
        expect((await a.withLease('decay', 5_000, async () => 1)).acquired).toBe(false);
        gate.resolve();
        expect(await running).toEqual({ acquired: true, value: 'done' });
        expect(await b.withLease('decay', 5_000, async () => 'b ran')).toEqual({
          acquired: true,
          value: 'b ran',
        });
      }));

    it('lets exactly one of many simultaneous contenders run the job', () =>
      withShared(async ({ a, b }) => {
        let runs = 0;
        const outcomes: LeaseOutcome<number>[] = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            (i % 2 ? a : b).withLease('nightly', 5_000, async () => {
              runs++;
              await sleep(400);
              return i;
            }),
          ),
        );
        expect(runs).toBe(1);
        expect(outcomes.filter((o) => o.acquired)).toHaveLength(1);
      }));

    it('renews the lease while the work outlasts its time-to-live', () =>
      withShared(async ({ a, b }) => {
        let aborted = false;
        const running = a.withLease('long', 800, async (lease) => {
          await sleep(2_600);
          aborted = lease.signal.aborted;
          return 'finished';
        });
        for (const at of [900, 900, 500]) {
          await sleep(at);
          expect((await b.withLease('long', 800, async () => 'stolen')).acquired).toBe(false);
        }
        expect(await running).toEqual({ acquired: true, value: 'finished' });
        expect(aborted).toBe(false);
      }));

    it('frees the lease of a process killed while holding it, after the time-to-live', () =>
      withShared(async (shared) => {
        const { child, held } = holdInChild(shared, 'dream', 1_500);
        const holder = await held;
        await killed(child);
        expect(await shared.a.withLease('dream', 1_500, async () => 1)).toMatchObject({
          acquired: false,
          holder,
        });
        await sleep(1_700);
        expect(await shared.a.withLease('dream', 1_500, async () => 'took over')).toEqual({
          acquired: true,
          value: 'took over',
        });
      }));

    it('aborts the holder when its lease is taken away', () =>
      withShared(async (shared) => {
        const outcome = await shared.a.withLease('rebuild', 300, async (lease) => {
          await shared.steal('rebuild');
          await new Promise<void>((resolve) => {
            if (lease.signal.aborted) resolve();
            lease.signal.addEventListener('abort', () => resolve());
          });
          return lease.signal.reason as { code: string; message: string };
        });
        expect(outcome).toMatchObject({
          acquired: true,
          value: { code: 'CONFLICT', message: expect.stringContaining('lease rebuild was lost') },
        });
      }));

    it('rejects bad lease names and times', () =>
      withShared(async ({ a }) => {
        await expect(a.withLease('', 1_000, async () => 1)).rejects.toMatchObject({
          code: 'INVALID_INPUT',
          details: { field: 'name' },
        });
        await expect(a.withLease('ok', 5, async () => 1)).rejects.toMatchObject({
          code: 'INVALID_INPUT',
          details: { field: 'ttlMs' },
        });
      }));
  });
}

leaseSuite('sqlite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-lease-'));
  const path = join(dir, 'engram.db');
  const a = openSqliteStore({ path });
  const b = openSqliteStore({ path });
  return {
    a,
    b,
    backend: 'sqlite',
    location: path,
    schema: '-',
    async steal(name) {
      (a as SqliteStore).connection
        .prepare("UPDATE leases SET holder = 'thief' WHERE name = ?")
        .run(name);
    },
    async cleanup() {
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

if (PG_URL) {
  leaseSuite('postgres', async () => {
    const first = schemaStore();
    const second = schemaStore({ schema: first.schema });
    await first.store.connect();
    return {
      a: first.store,
      b: second.store,
      backend: 'postgres',
      location: PG_URL!,
      schema: first.schema,
      async steal(name) {
        await (first.store as PostgresStore).query(
          "UPDATE leases SET holder = 'thief' WHERE name = $1",
          [name],
        );
      },
      async cleanup() {
        await second.store.close();
        await first.cleanup();
      },
    };
  });
}
