/**
 * Trust under faults (§1.5, §10): a dream run killed with SIGKILL at a write boundary. A store with
 * planted near-duplicates (more than one batch of merges), area variants, stale items and duplicate
 * skills is copied for each trial; a child process (test/fixtures/dream-killer.ts) runs a dream run
 * on the copy and kills itself right after its n-th committed write: after each merge batch, each
 * diary append and a seeded sample of the other writes. Then, on the copy: SQLite's integrity
 * check and the full-text index's own check pass; no vector is left without its item; every merged
 * memory has its live `merged_into` relation (a merge is whole or absent); the next dream run
 * (past the killed run's deadline) finalises the killed run as `interrupted` and completes; and
 * undoing the next run and then the killed one restores every memory and live relation to what
 * the store held before, including a run killed between a batch's changes and its diary entries
 * (the batch's write-ahead intent is logged from what the store shows when the run is finalised).
 */
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createEngram, type Engram } from '../src/app.js';
import type { ConfigInput } from '../src/config/schema.js';
import { silentLogger } from '../src/domain/log.js';
import { exportLines } from '../src/transfer/transfer.js';
import { testCacheDir } from './cache-dir.js';
import { type BundledFixture, bundleFixture } from './fixtures/bundle-fixture.js';
import { killRunning, startNode } from './fixtures/processes.js';
import { tempDir } from './helpers.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const DAY = 86_400_000;
/** Past the killed run's deadline (10 minutes) and the orphan grace (10 minutes). */
const LATER = NOW + 25 * 60_000;
/** Near-duplicate pairs: more than one batch (200) of merges. */
const PAIRS = 230;
// bench/faults runs more trials with other seeds through these variables.
const SEED = Number(process.env.ENGRAM_FAULT_SEED ?? 0x0d5e_a111);
/** Kill points beside the batches' intents, changes and diary appends. */
const OTHER_TRIALS = Number(process.env.ENGRAM_FAULT_DREAM_TRIALS ?? 4);

let killer: BundledFixture;

beforeAll(async () => {
  killer = await bundleFixture('dream-killer');
}, 120_000);

afterAll(() => killer?.remove());
afterEach(() => killRunning());

function config(path: string): ConfigInput {
  return {
    store: { path },
    embedder: { cache_dir: testCacheDir() },
    graph: { worker: false },
    dream: {
      duplicates: { daily_cap: 10_000 },
      stale: { enabled: true, daily_cap: 10_000 },
      skills: { max_active_per_area: 2 },
    },
  };
}

function open(path: string, now: number): Engram {
  return createEngram({
    config: config(path),
    env: {},
    logger: silentLogger,
    background: false,
    now: () => now,
  });
}

/** A made-up name per index: two syllables of a fixed list, so names never repeat. */
function nameOf(i: number): string {
  const a = ['Bra', 'Ko', 'Mil', 'Tes', 'Var', 'Quon', 'Zel', 'Orn', 'Pim', 'Dus', 'Fal', 'Gri'];
  const b = ['dor', 'vik', 'lan', 'mesh', 'tup', 'rin', 'sok', 'bel', 'gard', 'nox'];
  const c = ['a', 'o', 'is', 'en', 'um'];
  return `${a[i % a.length]}${b[Math.floor(i / a.length) % b.length]}${c[Math.floor(i / 120) % c.length]}`;
}

const THINGS = ['invoice', 'payroll', 'camera', 'ledger', 'archive', 'mailbox', 'sensor'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];

/** Seeds the store: planted duplicates, area variants, stale notes and duplicate skills. */
async function seed(path: string): Promise<void> {
  let t = NOW - DAY;
  const engram = createEngram({
    config: config(path),
    env: {},
    logger: silentLogger,
    background: false,
    now: () => t,
  });
  const pairs = Array.from({ length: PAIRS }, (_, i) => {
    const [name, thing, day] = [nameOf(i), THINGS[i % 7]!, DAYS[i % 5]!];
    const area = i % 2 === 0 ? 'projects/billing' : 'Projects/Billing';
    return [
      { body: `${name} keeps the ${thing} backups in bucket ${i} and checks them on ${day}`, area },
      { body: `On ${day} ${name} checks them and keeps the ${thing} backups in bucket ${i}`, area },
    ];
  });
  for (let i = 0; i < pairs.length; i += 100)
    await engram.rememberMany(pairs.slice(i, i + 100).flat(), { strict: true });
  await engram.rememberMany(
    [
      { body: '1. Run the tests\n2. Tag the release\n3. Push the tag', title: 'Release' },
      { body: '- Run the tests\n- Tag the release\n- Push the tag', title: 'release' },
      { body: 'Rotate the deploy keys every month', title: 'Keys' },
      { body: 'Renew the certificates before they expire', title: 'Certificates' },
    ].map((s) => ({ ...s, kind: 'skill' as const, area: 'ops' })),
    { strict: true },
  );
  t = NOW - 2 * 365 * DAY;
  await engram.rememberMany(
    Array.from({ length: 30 }, (_, i) => ({
      body: `An old remark number ${i} about the offsite agenda of team ${nameOf(500 + i)}`,
    })),
    { strict: true },
  );
  await engram.close();
}

/** Each memory's state and the live relations: what undo must give back. */
async function state(engram: Engram): Promise<unknown> {
  const items: Record<string, unknown> = {};
  const relations: string[] = [];
  for await (const line of exportLines(engram, null)) {
    const record = JSON.parse(line) as { type: string; [k: string]: unknown };
    if (record.type === 'item') {
      const { item } = record as unknown as { item: Record<string, unknown> };
      const { id, status, kind, area, body, title, tags, pinned, importance } = item;
      items[id as string] = { status, kind, area, body, title, tags, pinned, importance };
    } else if (record.type === 'relation') {
      const { relation: r } = record as unknown as { relation: Record<string, string | null> };
      if (r.invalidated_at === null) relations.push(`${r.type}:${r.from_id}->${r.to_id}`);
    }
  }
  return { items, relations: relations.sort() };
}

/** How the killer ended and what it printed. */
interface KillerRun {
  signal: NodeJS.Signals | null;
  code: number | null;
  writes: { write: number; in: string }[];
  done?: { done: number; run: string; state: string; applied: Record<string, number> };
  stderr: string;
}

async function runKiller(path: string, killAt: number): Promise<KillerRun> {
  const lines: KillerRun['writes'] = [];
  let done: KillerRun['done'];
  const child = startNode([killer.script, JSON.stringify(config(path)), String(killAt), `${NOW}`], {
    timeoutMs: 120_000,
    onLine: (text) => {
      if (!text.startsWith('{')) return;
      const line = JSON.parse(text) as KillerRun['writes'][number] & KillerRun['done'];
      if ('done' in line) done = line as KillerRun['done'];
      else lines.push(line);
    },
  });
  const finished = await child.done;
  return {
    signal: finished.signal,
    code: finished.code,
    writes: lines,
    done,
    stderr: finished.stderr,
  };
}

/** The file as the kill left it: integrity, orphan vectors, merged memories without their relation. */
function fileFacts(path: string): {
  integrity: unknown;
  orphans: unknown[];
  halfMerged: unknown[];
} {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return {
      integrity: db.pragma('integrity_check'),
      orphans: db
        .prepare('SELECT item_pk FROM vectors WHERE item_pk NOT IN (SELECT pk FROM items)')
        .all(),
      halfMerged: db
        .prepare(
          `SELECT i.id FROM items i WHERE i.status = 'merged' AND NOT EXISTS (SELECT 1 FROM relations r
             WHERE r.type = 'merged_into' AND r.from_id = i.id AND r.invalidated_at IS NULL)`,
        )
        .pluck()
        .all(),
    };
  } finally {
    db.close();
  }
}

/** Whether the first `killAt` writes end between a batch's changes and its diary entries. */
function beforeDiary(writes: KillerRun['writes'], killAt: number): boolean {
  let open = false;
  for (const w of writes.slice(0, killAt))
    if (w.in === 'mutate') open = true;
    else if (w.in === 'appendEntries') open = false;
  return open;
}

/** What one trial found. */
interface Trial {
  killAt: number;
  /** The store method the kill followed. */
  after: string;
  /** Killed after a merge batch committed and before its diary entries were appended. */
  beforeDiary: boolean;
  story: string;
  killed: KillerRun;
  file: ReturnType<typeof fileFacts>;
  integrity: { ok: boolean; problems: string[] };
  orphanBefore: string | undefined;
  next: string;
  orphanAfter: string;
  notRestored: unknown[];
  restored: boolean;
}

/** Kills a run on a copy of the seeded store at `killAt`, then checks and recovers the copy. */
async function trial(
  seeded: string,
  killAt: number,
  writes: KillerRun['writes'],
  before: unknown,
): Promise<Trial> {
  const after = writes[killAt - 1]!.in;
  const path = `${seeded}.kill-${killAt}.db`;
  copyFileSync(seeded, path);
  const killed = await runKiller(path, killAt);
  const file = fileFacts(path);
  const engram = open(path, LATER);
  try {
    const integrity = await engram.storeForTransfer.integrityCheck();
    const [orphan] = (await engram.dreamRuns()).runs;
    const next = await engram.dreamRun();
    const orphanAfter = (await engram.dreamDiary(orphan!.id)).run.state;
    const notRestored: unknown[] = [];
    for (const run of [next.run.id, orphan!.id])
      notRestored.push(...(await engram.dreamUndo(run)).not_restored);
    const restored = JSON.stringify(await state(engram)) === JSON.stringify(before);
    const story = `kill after write ${killAt} (${after}): ${killed.stderr}`;
    return {
      killAt,
      after,
      beforeDiary: beforeDiary(writes, killAt),
      story,
      killed,
      file,
      integrity,
      orphanBefore: orphan?.state,
      next: next.run.state,
      orphanAfter,
      notRestored,
      restored,
    };
  } finally {
    await engram.close();
    rmSync(path, { force: true });
  }
}

/** mulberry32, for the sample of kill points. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every batch's intent, changes and diary append, and a seeded sample of the other writes. */
function killPoints(writes: KillerRun['writes']): number[] {
  const key = writes
    .filter((w) => ['setIntent', 'mutate', 'appendEntries'].includes(w.in))
    .map((w) => w.write);
  const others = writes.map((w) => w.write).filter((n) => !key.includes(n) && n < writes.length);
  const random = generator(SEED);
  const sample = new Set<number>();
  while (sample.size < Math.min(OTHER_TRIALS, others.length))
    sample.add(others[Math.floor(random() * others.length)]!);
  return [...new Set([...key, ...sample])].sort((a, b) => a - b);
}

/** The trials, run once for the tests below. */
const trials: Trial[] = [];
let reference: KillerRun;

describe('SIGKILL during a dream run (SQLite)', () => {
  beforeAll(
    async () => {
      const dir = tempDir('engram-dream-kill-');
      const seeded = join(dir, 'seeded.db');
      await seed(seeded);
      const engram = open(seeded, NOW);
      const before = await state(engram).finally(() => engram.close());
      // A run that is not killed: how many writes it commits, and that it applies every kind.
      const copy = join(dir, 'reference.db');
      copyFileSync(seeded, copy);
      reference = await runKiller(copy, 0);
      if (reference.code !== 0) return;
      for (const killAt of killPoints(reference.writes))
        trials.push(await trial(seeded, killAt, reference.writes, before));
    },
    300_000 + OTHER_TRIALS * 15_000,
  );

  it('kills a run that applies merges in more than one batch, and other changes', () => {
    expect(reference.code, reference.stderr).toBe(0);
    expect(reference.done?.state).toBe('completed');
    expect(reference.done?.applied.merge ?? 0).toBeGreaterThan(200);
    expect(
      Object.keys(reference.done!.applied).length,
      JSON.stringify(reference.done),
    ).toBeGreaterThan(1);
    expect(trials.length).toBeGreaterThanOrEqual(4);
  });

  it('leaves a consistent store; the next run finalises the killed one and completes', () => {
    for (const t of trials) {
      expect(t.killed.signal, t.story).toBe('SIGKILL');
      expect(t.killed.writes.length, t.story).toBe(t.killAt);
      expect(t.file, t.story).toEqual({
        integrity: [{ integrity_check: 'ok' }],
        orphans: [],
        halfMerged: [],
      });
      expect(t.integrity, t.story).toEqual({ ok: true, problems: [] });
      expect([t.orphanBefore, t.next, t.orphanAfter], t.story).toEqual([
        'running',
        'completed',
        'interrupted',
      ]);
      expect(t.notRestored, t.story).toEqual([]);
    }
  });

  it('undoes a run killed anywhere but between a merge batch and its diary entries', () => {
    for (const t of trials.filter((t) => t.after !== 'mutate'))
      expect(t.restored, t.story).toBe(true);
  });

  it('undoes a run killed between a merge batch and its diary entries', () => {
    const between = trials.filter((t) => t.beforeDiary);
    expect(between.length).toBeGreaterThan(0);
    for (const t of between) expect(t.restored, t.story).toBe(true);
  });
});
