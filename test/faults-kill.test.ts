/**
 * Trust under faults (§1.5, §12): writer processes SIGKILLed in the middle of their writes. Each
 * trial starts a writer (test/fixtures/kill-writer.ts) on the same store and kills it after a
 * seeded number of acknowledged writes, so every later trial runs on a store that survived the
 * kills before it. After each kill: every acknowledged memory is there with its body and whole
 * history, a batch is stored whole or not at all, SQLite's integrity check and the full-text
 * index's own pass, keyword search finds each body by its one distinctive word (and no body by a
 * word it no longer holds), and no item's vector_state disagrees with its vectors. On PostgreSQL
 * (when ENGRAM_TEST_PG_URL is set) a few trials check the acknowledged writes and that the store
 * opens and writes.
 */
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createEngram } from '../src/app.js';
import type { ConfigInput } from '../src/config/schema.js';
import { silentLogger } from '../src/domain/log.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { testCacheDir } from './cache-dir.js';
import { type BundledFixture, bundleFixture } from './fixtures/bundle-fixture.js';
import { type Finished, killRunning, startNode } from './fixtures/processes.js';
import { tempDir } from './helpers.js';
import { admin, dropSchema, PG_URL, pgConfig, randomSchema } from './postgres-helpers.js';

// bench/faults runs more trials with other seeds through these variables.
const SQLITE_TRIALS = Number(process.env.ENGRAM_FAULT_TRIALS ?? 24);
const PG_TRIALS = Number(process.env.ENGRAM_FAULT_PG_TRIALS ?? 4);
const SEED = Number(process.env.ENGRAM_FAULT_SEED ?? 0x5eed_2026);
/** Time for a test of `trials` trials (a trial takes a few seconds on a loaded 2-core machine). */
const budget = (trials: number) => Math.max(240_000, trials * 10_000);
/** Each trial's writer is killed after 1..MAX_ACKS acknowledged writes. */
const MAX_ACKS = 40;

/** mulberry32: the seeded generator of the kill points (the writer has its own, per trial). */
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

/** A trial's tag: `t` and two letters, so every trial's distinctive words differ. */
const trialTag = (trial: number) =>
  `t${String.fromCharCode(97 + Math.floor(trial / 26))}${String.fromCharCode(97 + (trial % 26))}`;

/** The writer bundled once: a child then starts without compiling the sources again. */
let writer: BundledFixture;

beforeAll(async () => {
  writer = await bundleFixture('kill-writer');
}, 120_000);

afterAll(() => writer?.remove());
afterEach(() => killRunning());

/** A line the writer printed. */
interface WriterLine {
  ready?: true;
  ack?: 'item' | 'revise';
  pending?: 'revise' | 'batch';
  id?: string;
  body?: string;
  words?: string[];
}

/**
 * What the store must hold, over every trial so far: the acknowledged writes, and after each
 * check everything that check found (a committed write that survived one kill must survive all).
 */
interface Ledger {
  /** Each memory's body: acknowledged, or found by a check. */
  bodies: Map<string, string>;
  /** The memory of each such body's distinctive word (a revision gives a memory a new word). */
  words: Map<string, string>;
  /** Every batch announced, as the distinctive words of its memories. */
  batches: string[][];
  /** A revision announced but not acknowledged (the kill may have landed inside it). */
  inFlight: { id: string; body: string } | null;
}

const newLedger = (): Ledger => ({
  bodies: new Map(),
  words: new Map(),
  batches: [],
  inFlight: null,
});

const wordOf = (body: string) => /^Note (\w+):/.exec(body)?.[1] ?? '';

function remember(ledger: Ledger, id: string, body: string): void {
  ledger.bodies.set(id, body);
  ledger.words.set(wordOf(body), id);
}

/** Records one writer line; returns true for an acknowledged write. */
function record(ledger: Ledger, line: WriterLine): boolean {
  if (line.pending === 'batch') ledger.batches.push(line.words!);
  if (line.pending === 'revise') ledger.inFlight = { id: line.id!, body: line.body! };
  if (!line.ack) return false;
  remember(ledger, line.id!, line.body!);
  if (line.ack === 'revise') ledger.inFlight = null;
  return true;
}

/** How a writer ends: killed after `killAfter` acknowledged writes, or done after `count`. */
type Stop = { killAfter: number } | { count: number };

/** A writer started ahead of its turn: its modules load while the writer before it runs. */
interface Writer {
  /** Lets it open the store and write; resolves once it has ended. */
  run(ledger: Ledger): Promise<{ finished: Finished; acks: number }>;
}

/**
 * Starts a writer that loads and then waits for its turn. Once running, it is SIGKILLed as soon as
 * it has acknowledged `killAfter` writes: the kill waits on the writer's own lines, never on time.
 */
function startWriter(args: readonly string[], stop: Stop): Writer {
  const count = 'count' in stop ? [String(stop.count)] : [];
  let onLine: (line: WriterLine) => void = () => {};
  const child = startNode([writer.script, '--wait', ...args, ...count], {
    timeoutMs: 180_000,
    onLine: (text) => text.startsWith('{') && onLine(JSON.parse(text) as WriterLine),
  });
  const ready = new Promise<void>((resolve) => (onLine = (line) => line.ready && resolve()));
  return {
    async run(ledger) {
      await Promise.race([ready, child.done]);
      let acks = 0;
      const killAfter = 'killAfter' in stop ? stop.killAfter : Infinity;
      onLine = (line) => {
        if (record(ledger, line) && ++acks === killAfter) child.kill('SIGKILL');
      };
      child.kill('SIGUSR2');
      return { finished: await child.done, acks };
    },
  };
}

/**
 * Runs one writer per stop on the same store, one after the other (the next one loads meanwhile),
 * and checks the store after each.
 */
async function runTrials(
  stops: readonly Stop[],
  argsOf: (trial: number) => string[],
  ledger: Ledger,
  check: () => Promise<void> | void,
): Promise<void> {
  let next = startWriter(argsOf(0), stops[0]!);
  for (const [trial, stop] of stops.entries()) {
    const current = next;
    if (trial + 1 < stops.length) next = startWriter(argsOf(trial + 1), stops[trial + 1]!);
    const { finished, acks } = await current.run(ledger);
    const story = `trial ${trial}: code ${finished.code}, signal ${finished.signal}, stderr:\n${finished.stderr}`;
    if ('killAfter' in stop) {
      expect(finished.signal, story).toBe('SIGKILL');
      expect(acks, story).toBeGreaterThanOrEqual(stop.killAfter);
    } else {
      expect(finished.code, story).toBe(0);
      expect(finished.stdout, story).toContain(`{"done":${stop.count}}`);
    }
    await check();
  }
}

/** Seeded kill points, 1..MAX_ACKS acknowledged writes each. */
function killPoints(seed: number, trials: number): Stop[] {
  const random = generator(seed);
  return Array.from({ length: trials }, () => ({
    killAfter: 1 + Math.floor(random() * MAX_ACKS),
  }));
}

/** One stored item and version, as the checks read them. */
interface StoredItem {
  id: string;
  body: string;
  status: string | null;
  version: number;
}
interface StoredVersion {
  item_id: string;
  version: number;
  body: string;
}

/**
 * Checks the items found against the ledger, then takes them into it: every memory it knows is
 * there, active, with its body (or the revision in flight at the kill); a batch is whole or absent;
 * every item has versions 1..n, the last holding its body.
 */
function checkItems(
  ledger: Ledger,
  items: readonly StoredItem[],
  versions: readonly StoredVersion[],
): void {
  const byId = new Map(items.map((i) => [i.id, i]));
  for (const [id, body] of ledger.bodies) {
    const item = byId.get(id);
    expect(item, `memory ${id} is missing`).toBeDefined();
    expect(item!.status).toBe('active');
    const allowed = [body, ...(ledger.inFlight?.id === id ? [ledger.inFlight.body] : [])];
    expect(allowed, `memory ${id}`).toContain(item!.body);
  }
  const present = new Set(items.map((i) => wordOf(i.body)));
  // A memory of a batch may have been revised since: then its id is there, with another word.
  const stored = (w: string) => present.has(w) || byId.has(ledger.words.get(w) ?? '');
  for (const words of ledger.batches) {
    const count = words.filter(stored).length;
    // One batch is one transaction: all of it, or (when the kill came first) none of it.
    if (words.some((w) => ledger.words.has(w))) expect(count, words[0]).toBe(words.length);
    else expect([0, words.length], words[0]).toContain(count);
  }
  const history = new Map<string, StoredVersion[]>();
  for (const v of versions) history.set(v.item_id, [...(history.get(v.item_id) ?? []), v]);
  for (const item of items) {
    const rows = (history.get(item.id) ?? []).sort((a, b) => a.version - b.version);
    const numbers = Array.from({ length: item.version }, (_, i) => i + 1);
    expect(
      rows.map((r) => r.version),
      item.id,
    ).toEqual(numbers);
    expect(rows.at(-1)?.body, item.id).toBe(item.body);
  }
  for (const item of items) remember(ledger, item.id, item.body);
  ledger.inFlight = null;
}

const PUBLISHED_MODEL =
  'SELECT id FROM models WHERE published_at IS NOT NULL ORDER BY published_at DESC LIMIT 1';

/** Items whose vector_state disagrees with their vectors of the published model (SQLite). */
const VECTOR_STATE_SQL = {
  readyWithoutVector: `SELECT i.id FROM items i WHERE i.vector_state = 'ready' AND NOT EXISTS
    (SELECT 1 FROM vectors v WHERE v.item_pk = i.pk AND v.model = ? AND v.version = i.version
     AND v.vector IS NOT NULL AND length(v.vector) = 4 * v.dimension)`,
  emptyWithoutRow: `SELECT i.id FROM items i WHERE i.vector_state = 'empty' AND NOT EXISTS
    (SELECT 1 FROM vectors v WHERE v.item_pk = i.pk AND v.model = ? AND v.vector IS NULL)`,
  pendingWithVector: `SELECT i.id FROM items i WHERE i.vector_state = 'pending' AND EXISTS
    (SELECT 1 FROM vectors v WHERE v.item_pk = i.pk AND v.model = ? AND v.version = i.version)`,
};

/** Checks the SQLite file as the kill left it, read-only; returns how many items are 'ready'. */
function checkSqliteFile(path: string, ledger: Ledger): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    expect(db.pragma('integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    const items = db
      .prepare('SELECT pk, id, body, status, version, vector_state FROM items')
      .all() as (StoredItem & { pk: number; vector_state: string })[];
    const versions = db.prepare('SELECT item_id, version, body FROM versions').all();
    checkKeywords(db, items, ledger);
    checkItems(ledger, items, versions as StoredVersion[]);
    const model = db.prepare(PUBLISHED_MODEL).pluck().get() as string | undefined;
    if (model !== undefined)
      for (const [name, sql] of Object.entries(VECTOR_STATE_SQL))
        expect(db.prepare(sql).pluck().all(model), name).toEqual([]);
    else expect(items.filter((i) => i.vector_state !== 'pending')).toEqual([]);
    const orphans = 'SELECT item_pk FROM vectors WHERE item_pk NOT IN (SELECT pk FROM items)';
    expect(db.prepare(orphans).all()).toEqual([]);
    return items.filter((i) => i.vector_state === 'ready').length;
  } finally {
    db.close();
  }
}

/**
 * Keyword search agrees with the items: each word ever written finds exactly the item whose body
 * holds it now (a revised-away word, or one of a batch the kill stopped, finds nothing).
 */
function checkKeywords(
  db: Database.Database,
  items: readonly (StoredItem & { pk: number })[],
  ledger: Ledger,
): void {
  const holder = new Map(items.map((i) => [wordOf(i.body), i.pk]));
  const match = db.prepare('SELECT rowid FROM items_fts WHERE items_fts MATCH ?').pluck();
  const words = new Set([...ledger.words.keys(), ...ledger.batches.flat(), ...holder.keys()]);
  for (const word of words) {
    const want = holder.has(word) ? [holder.get(word)] : [];
    expect(match.all(`"${word}"`), word).toEqual(want);
  }
}

/** The full-text index's own check against its content table, on a copy (the check writes). */
function checkFtsOnCopy(path: string): void {
  const copy = join(tempDir('engram-kill-copy-'), 'copy.db');
  copyFileSync(path, copy);
  if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
  const db = new Database(copy);
  try {
    db.prepare("INSERT INTO items_fts(items_fts, rank) VALUES ('integrity-check', 1)").run();
  } finally {
    db.close();
  }
}

/** The acknowledged writes, batches, history and vector states of a PostgreSQL schema. */
async function checkPostgres(schema: string, ledger: Ledger): Promise<void> {
  const items = await admin<StoredItem>(`SELECT id, body, status, version FROM "${schema}".items`);
  const versions = await admin<StoredVersion>(
    `SELECT item_id, version, body FROM "${schema}".versions`,
  );
  checkItems(ledger, items, versions);
  const [published] = await admin<{ id: string }>(
    PUBLISHED_MODEL.replace('FROM models', `FROM "${schema}".models`),
  );
  if (!published) return;
  const vector = (where: string) =>
    `EXISTS (SELECT 1 FROM "${schema}".vectors v WHERE v.item_pk = i.pk AND v.model = $1 AND v.version = i.version${where})`;
  const inconsistent = await admin(
    `SELECT i.id FROM "${schema}".items i WHERE
       (i.vector_state = 'ready' AND NOT ${vector(' AND v.embedding IS NOT NULL')})
       OR (i.vector_state = 'pending' AND ${vector('')})`,
    [published.id],
  );
  expect(inconsistent).toEqual([]);
}

/** A writer after the kills: this process opens the store, writes, and finds old and new. */
async function writesAfterKills(store: ConfigInput['store'], ledger: Ledger): Promise<void> {
  const engram = createEngram({
    config: { store, embedder: { cache_dir: testCacheDir() }, graph: { worker: false } },
    env: {},
    logger: silentLogger,
    background: false,
  });
  try {
    const body = 'After the kills the lighthouse keeper wrote a final quokkaword note';
    const { memory, created } = await engram.remember({ body });
    expect(created).toBe(true);
    const [id, old] = [...ledger.bodies][0]!;
    expect((await engram.get(id)).body).toBe(old);
    for (const [query, want] of [
      ['quokkaword', memory.id],
      [wordOf(old), id],
    ] as const) {
      const hits = (await engram.recall({ query, weights: { vector: 0 } })).hits;
      expect(hits.map((h) => h.id)).toContain(want);
    }
  } finally {
    await engram.close();
  }
}

describe('SIGKILL during writes (SQLite)', () => {
  it(
    `keeps every acknowledged write through ${SQLITE_TRIALS} kills on one store file`,
    async () => {
      const path = join(tempDir('engram-kill-'), 'engram.db');
      const ledger = newLedger();
      // The last writer is not killed: it finishes its writes and closes the store.
      const stops = [...killPoints(SEED, SQLITE_TRIALS), { count: 10 }];
      let ready = 0;
      await runTrials(
        stops,
        (trial) => ['sqlite', path, '-', trialTag(trial), String(SEED + trial)],
        ledger,
        () => {
          ready = checkSqliteFile(path, ledger);
          checkFtsOnCopy(path);
        },
      );
      // Writes embed within the write budget: the vector checks above looked at real vectors.
      expect(ready).toBeGreaterThan(0);
      const store = openSqliteStore({ path });
      try {
        expect(await store.integrityCheck()).toEqual({ ok: true, problems: [] });
      } finally {
        await store.close();
      }
      await writesAfterKills({ backend: 'sqlite', path }, ledger);
    },
    budget(SQLITE_TRIALS),
  );
});

describe.skipIf(!PG_URL)('SIGKILL during writes (PostgreSQL)', () => {
  it(
    `keeps every acknowledged write through ${PG_TRIALS} kills on one schema`,
    async () => {
      const schema = randomSchema('engram_kill');
      const ledger = newLedger();
      try {
        await runTrials(
          killPoints(SEED ^ 0xbeef, PG_TRIALS),
          (trial) => ['postgres', PG_URL!, schema, trialTag(trial), String(SEED + 100 + trial)],
          ledger,
          () => checkPostgres(schema, ledger),
        );
        await writesAfterKills(pgConfig(schema).store, ledger);
      } finally {
        await dropSchema(schema);
      }
    },
    budget(PG_TRIALS),
  );
});
