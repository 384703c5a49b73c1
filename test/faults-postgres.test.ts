/**
 * Trust under faults (§1.5, §12) on PostgreSQL: the server stopped at once (`pg_ctl -m immediate`,
 * as a crash: no checkpoint, recovery from its WAL at the next start) while several writers
 * write, three times on one store. Each writer remembers memories, batches and revisions, each with
 * a distinctive word, and keeps going through the outage. After each restart: every acknowledged
 * write is there with its body, a write that failed is there whole or not at all (a batch is all
 * or none of it, a memory is there at most once), every memory's versions run 1..n with the last
 * holding its body, the store's integrity check passes, and a failure while the server was down
 * was STORE_UNAVAILABLE (never an internal error). Runs with a server of its own, with
 * `synchronous_commit = on` (the shared test server runs with it off, which loses the last
 * acknowledged commits in a crash), when ENGRAM_TEST_PG_URL says PostgreSQL tests run here.
 */
import { describe, expect, it } from 'vitest';

import { createEngram, type Engram } from '../src/app.js';
import { isEngramError } from '../src/domain/errors.js';
import { silentLogger } from '../src/domain/log.js';
import { testCacheDir } from './cache-dir.js';
import { admin, PG_URL, pgConfig, randomSchema, startOwnServer } from './postgres-helpers.js';

const WRITERS = 3;
/** Crashes on one store (bench/faults asks for more through ENGRAM_FAULT_PG_CYCLES). */
const CYCLES = Number(process.env.ENGRAM_FAULT_PG_CYCLES ?? 3);
/** Acknowledged writes between two crashes. */
const ACKS_PER_CYCLE = 60;

/** What the store must hold, and what it may hold. */
interface Ledger {
  /** Acknowledged memories: id -> body. */
  acked: Map<string, string>;
  /** Bodies a memory may hold instead, from revisions that failed (their commit is unknown). */
  maybe: Map<string, Set<string>>;
  /** Every distinctive word written or attempted, with the batch it belongs to. */
  words: Set<string>;
  /** Batches (their words), acknowledged or not. */
  batches: string[][];
  /** Codes of the failures seen. */
  failures: Map<string, number>;
}

const newLedger = (): Ledger => ({
  acked: new Map(),
  maybe: new Map(),
  words: new Set(),
  batches: [],
  failures: new Map(),
});

/** `n` in the letters a-z, ending in z: a word no tokenizer splits and no stemmer shortens. */
const word = (writer: number, n: number) =>
  `w${String.fromCharCode(97 + writer)}x${[...n.toString(26)].map((c) => String.fromCharCode(97 + parseInt(c, 26))).join('')}z`;
const bodyOf = (w: string) => `Crash note ${w}: the relay station logged the tide.`;
const wordOf = (body: string) => /^Crash note (\w+):/.exec(body)?.[1] ?? '';

/** One writer: writes until `stop`, counting acknowledged writes through `ack`. */
async function writer(
  engram: Engram,
  index: number,
  ledger: Ledger,
  ack: () => void,
  stop: () => boolean,
): Promise<void> {
  let n = 0;
  let step = 0;
  const mine: string[] = [];
  while (!stop()) {
    const kind = step++ % 4;
    try {
      if (kind === 3 && mine.length > 0) {
        const id = mine[(step * 7) % mine.length]!;
        const w = word(index, n++);
        ledger.words.add(w);
        const body = bodyOf(w);
        const maybe = ledger.maybe.get(id) ?? new Set<string>();
        maybe.add(body);
        ledger.maybe.set(id, maybe);
        await engram.revise(id, { body });
        ledger.acked.set(id, body);
      } else if (kind === 2) {
        const words = Array.from({ length: 1 + (step % 8) }, () => word(index, n++));
        words.forEach((w) => ledger.words.add(w));
        ledger.batches.push(words);
        const results = await engram.rememberMany(words.map((w) => ({ body: bodyOf(w) })));
        results.forEach((r, i) => {
          if (!r.ok) throw new Error(`batch item failed: ${r.error.message}`);
          ledger.acked.set(r.memory.id, bodyOf(words[i]!));
          mine.push(r.memory.id);
        });
      } else {
        const w = word(index, n++);
        ledger.words.add(w);
        const { memory } = await engram.remember({ body: bodyOf(w) });
        ledger.acked.set(memory.id, memory.body);
        mine.push(memory.id);
      }
      ack();
    } catch (err) {
      const code = isEngramError(err) ? err.code : `not an EngramError: ${String(err)}`;
      ledger.failures.set(code, (ledger.failures.get(code) ?? 0) + 1);
      // While the server is down every call fails at once: let the event loop breathe.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

interface Row {
  id: string;
  body: string;
  version: number;
}

/** Checks the schema against the ledger, then takes what it found into it. */
async function check(url: string, schema: string, ledger: Ledger): Promise<void> {
  const items = await admin<Row>(`SELECT id, body, version FROM "${schema}".items`, [], url);
  const versions = await admin<{ item_id: string; version: number; body: string }>(
    `SELECT item_id, version, body FROM "${schema}".versions ORDER BY item_id, version`,
    [],
    url,
  );
  const byId = new Map(items.map((i) => [i.id, i]));
  for (const [id, body] of ledger.acked) {
    const item = byId.get(id);
    expect(item, `acknowledged memory ${id} is missing`).toBeDefined();
    expect([body, ...(ledger.maybe.get(id) ?? [])], id).toContain(item!.body);
  }
  const holders = new Map<string, number>();
  for (const v of versions) holders.set(wordOf(v.body), (holders.get(wordOf(v.body)) ?? 0) + 1);
  for (const w of ledger.words) expect(holders.get(w) ?? 0, w).toBeLessThanOrEqual(1);
  for (const words of ledger.batches) {
    const stored = words.filter((w) => holders.has(w)).length;
    expect([0, words.length], words.join(' ')).toContain(stored);
  }
  const history = new Map<string, number[]>();
  for (const v of versions) history.set(v.item_id, [...(history.get(v.item_id) ?? []), v.version]);
  for (const item of items) {
    const numbers = Array.from({ length: item.version }, (_, i) => i + 1);
    expect(history.get(item.id), item.id).toEqual(numbers);
    const last = versions.filter((v) => v.item_id === item.id).at(-1);
    expect(last?.body, item.id).toBe(item.body);
  }
  for (const item of items) ledger.acked.set(item.id, item.body);
  ledger.maybe.clear();
}

describe.skipIf(!PG_URL)('PostgreSQL stopped at once during writes', () => {
  it(
    `keeps every acknowledged write through ${CYCLES} crashes and restarts`,
    async () => {
      const server = startOwnServer();
      // The test servers trade durability for speed (synchronous_commit off): a crash then loses the
      // last commits by design. A commit is durable once acknowledged only with it on.
      await admin('ALTER SYSTEM SET synchronous_commit = on', [], server.url);
      await admin('SELECT pg_reload_conf()', [], server.url);
      const schema = randomSchema('engram_crash');
      const engram = createEngram({
        config: {
          ...pgConfig(schema, { url: server.url }),
          embedder: { cache_dir: testCacheDir() },
          graph: { worker: false },
        },
        env: {},
        logger: silentLogger,
        background: false,
      });
      const ledger = newLedger();
      try {
        await engram.status(); // migrates the schema before the writers start
        for (let cycle = 0; cycle < CYCLES; cycle++) {
          let acks = 0;
          let stopped = false;
          let crash!: () => void;
          const due = new Promise<void>((resolve) => (crash = resolve));
          const onAck = () => {
            if (++acks === ACKS_PER_CYCLE) crash();
          };
          const writers = Array.from({ length: WRITERS }, (_, i) =>
            writer(engram, i + cycle * WRITERS, ledger, onAck, () => stopped),
          );
          await Promise.race([due, Promise.all(writers)]);
          server.crash();
          const failedBefore = sum(ledger.failures);
          // Writes fail while the server is down; each writer sees at least one failure.
          await until(() => sum(ledger.failures) >= failedBefore + WRITERS);
          server.resume();
          const resumedAt = acks;
          await until(() => acks >= resumedAt + ACKS_PER_CYCLE / 2);
          stopped = true;
          await Promise.all(writers);
          await check(server.url, schema, ledger);
        }
        expect([...ledger.failures.keys()]).toEqual(['STORE_UNAVAILABLE']);
        expect(ledger.acked.size).toBeGreaterThan(CYCLES * ACKS_PER_CYCLE);
        expect(await engram.storeForTransfer.integrityCheck()).toEqual({ ok: true, problems: [] });
        const after = await engram.remember({ body: bodyOf('finalz') });
        expect((await engram.get(after.memory.id)).body).toBe(bodyOf('finalz'));
      } finally {
        await engram.close().catch(() => {});
        server.stop();
      }
    },
    120_000 + CYCLES * 30_000,
  );
});

function sum(counts: Map<string, number>): number {
  return [...counts.values()].reduce((a, b) => a + b, 0);
}

/** Resolves once `condition` holds, checking after each turn of the event loop. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
