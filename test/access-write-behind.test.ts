/**
 * Access accounting written behind recall (§3.6, src/access/ledger.ts), on a real store: a clean
 * close loses no access, `idle` writes what waits, and a recalling process killed with SIGKILL
 * leaves counts at most its unflushed window behind and the store intact.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngram, type Engram } from '../src/app.js';
import { silentLogger } from '../src/domain/log.js';
import { type BundledFixture, bundleFixture } from './fixtures/bundle-fixture.js';
import { childEnv } from './fixtures/processes.js';
import { tempDir, testConfig } from './helpers.js';

const BODIES = [
  'The billing service retries failed card payments three times',
  'Alex owns the billing dashboards and the invoice exports',
  'The kitten sleeps on the warm router every afternoon',
];

function open(dir: string, flushMs = 60_000): Engram {
  return createEngram({
    config: testConfig(dir, { recall: { access: { flush_ms: flushMs, max_pending: 100_000 } } }),
    env: {},
    logger: silentLogger,
    background: false,
  });
}

async function seeded(dir: string): Promise<void> {
  const engram = open(dir);
  for (const body of BODIES) await engram.remember({ body });
  await engram.close();
}

/** access_count of every memory, by id, read after the engram that wrote them is gone. */
async function counts(dir: string): Promise<Map<string, number>> {
  const engram = open(dir);
  const { items } = await engram.list({ limit: 50 });
  await engram.close();
  return new Map(items.map((m) => [m.id, m.access_count]));
}

const tally = (ids: readonly string[]) => {
  const out = new Map<string, number>();
  for (const id of ids) out.set(id, (out.get(id) ?? 0) + 1);
  return out;
};

describe('write-behind access accounting', () => {
  it('writes nothing during recall, everything on idle, and loses nothing on a clean close', async () => {
    const dir = tempDir();
    await seeded(dir);
    const engram = open(dir);
    const first = (await engram.recall({ query: 'billing', k: 2 })).hits.map((h) => h.id);
    expect(first).toHaveLength(2);
    // Waiting in memory: the store still holds no access.
    expect((await engram.get(first[0]!)).access_count).toBe(0);
    await engram.idle();
    expect((await engram.get(first[0]!)).access_count).toBe(1);
    const second = (await engram.recall({ query: 'billing', k: 2 })).hits.map((h) => h.id);
    await engram.recall({ query: 'billing', k: 2 });
    await engram.close();
    const after = await counts(dir);
    for (const [id, n] of tally([...first, ...second, ...second]))
      expect(after.get(id), id).toBe(n);
  });

  it('with flush_ms 0 each recall writes its accesses before it returns', async () => {
    const dir = tempDir();
    await seeded(dir);
    const engram = open(dir, 0);
    const [hit] = (await engram.recall({ query: 'kitten', k: 1 })).hits;
    expect((await engram.get(hit!.id)).access_count).toBe(1);
    expect((await engram.get(hit!.id)).last_accessed_at).not.toBeNull();
    await engram.close();
  });
});

describe('a recalling process killed with SIGKILL', () => {
  let killer: BundledFixture;
  beforeAll(async () => {
    killer = await bundleFixture('recall-killer');
  }, 120_000);
  afterAll(() => killer?.remove());

  it('keeps the flushed accesses, loses at most the unflushed window, and leaves the store intact', async () => {
    const dir = tempDir();
    await seeded(dir);
    const path = String(testConfig(dir).store!.path);
    const child = spawn(process.execPath, [killer.script, path, 'billing', '3', '2'], {
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let flushed: string[] = [];
    let waiting: string[] = [];
    for await (const line of createInterface({ input: child.stdout! })) {
      const event = JSON.parse(line) as { flushed?: number; recalled?: number; ids: string[] };
      if (event.flushed !== undefined) flushed = event.ids;
      if (event.recalled !== undefined) {
        waiting = event.ids;
        child.kill('SIGKILL');
        break;
      }
    }
    await exited;
    expect(flushed).toHaveLength(6);
    expect(waiting).toHaveLength(4);
    const db = new Database(join(dir, 'engram.db'));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    // Exactly the flushed recalls are counted: the window behind is lost, nothing is half-written.
    const after = await counts(dir);
    const expected = tally(flushed);
    for (const [id, n] of after) expect(n, id).toBe(expected.get(id) ?? 0);
  }, 120_000);
});
