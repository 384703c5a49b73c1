/**
 * Several real processes on one SQLite store: concurrent writers (library processes and CLI
 * runs) and a SIGKILL in the middle of an import. These spawn the built engram, compiled once
 * into a private directory, and bound every child's lifetime.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { ItemRecord } from '../src/domain/records.js';
import { normalizeBody } from '../src/domain/text.js';
import { openSqliteStore, type SqliteStore } from '../src/store/sqlite/sqlite-store.js';
import {
  buildPrivateDist,
  type Finished,
  jsonLines,
  killRunning,
  ROOT,
  runNode,
  startNode,
  writeConfig,
} from './fixtures/processes.js';

const LOCKED = /database is locked|SQLITE_BUSY|STORE_BUSY/i;

let dist: { dir: string; remove(): void };
let dir: string | undefined;

// Compiling takes long on a busy machine: the hook gets its own bound.
beforeAll(async () => {
  dist = await buildPrivateDist();
}, 300_000);

afterAll(() => {
  dist?.remove();
});

afterEach(() => {
  killRunning();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function fresh(): { dir: string; storePath: string; config: string } {
  const made = mkdtempSync(join(tmpdir(), 'engram-procs-'));
  dir = made;
  const storePath = join(made, 'engram.db');
  return { dir: made, storePath, config: writeConfig(made, storePath) };
}

const cli = () => join(dist.dir, 'bin', 'engram.js');

/** Every active or candidate item of one space, read page by page. */
async function allItems(store: SqliteStore, space = 'default'): Promise<ItemRecord[]> {
  const filter = { space, statuses: ['active', 'candidate'] as const };
  const items: ItemRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.listItems({ filter, limit: 1000, order: 'created', cursor });
    items.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return items;
}

async function withStore<T>(path: string, fn: (store: SqliteStore) => Promise<T>): Promise<T> {
  const store = openSqliteStore({ path });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

function expectClean(run: Finished, what: string): void {
  const story = `${what} ended with code ${run.code}, signal ${run.signal}; stderr:\n${run.stderr}`;
  expect(run.signal, story).toBeNull();
  expect(run.code, story).toBe(0);
  expect(run.stderr, story).not.toMatch(LOCKED);
}

describe('SQLite store shared by several processes', () => {
  it('keeps every write of two library processes and concurrent CLI runs', async () => {
    const { storePath, config } = fresh();
    const worker = join(ROOT, 'test', 'fixtures', 'remember-worker.mjs');
    const perWorker = 300;
    // Both workers open the brand-new file at the same moment: creation and migration race too.
    const workers = ['alpha', 'beta'].map((prefix) =>
      runNode([worker, dist.dir, storePath, prefix, String(perWorker)], 300_000),
    );
    const cliBodies = Array.from({ length: 6 }, (_, i) => `CLI memory ${i}: written from the CLI`);
    const cliRuns: Promise<Finished>[] = [];
    for (const body of cliBodies) {
      await sleep(150);
      cliRuns.push(
        runNode([cli(), '--config', config, '--json', 'remember', body, '--tag', 'cli']),
      );
    }
    const [alpha, beta] = await Promise.all(workers);
    const cliDone = await Promise.all(cliRuns);

    const expected = new Map<string, string>();
    const shared: { id: string; body: string; created: boolean }[] = [];
    for (const [name, run] of [
      ['alpha', alpha!],
      ['beta', beta!],
    ] as const) {
      expectClean(run, name);
      const lines = jsonLines<{ id: string; body: string; created: boolean; shared?: true }>(
        run.stdout,
      );
      const own = lines.filter((l) => !l.shared);
      expect(own).toHaveLength(perWorker);
      expect(own.every((l) => l.created)).toBe(true);
      for (const l of lines) expected.set(l.id, l.body);
      shared.push(...lines.filter((l) => l.shared));
    }
    // Both processes wrote each shared body: one item each, created once, the same id for both.
    const sharedBodies = new Set(shared.map((l) => l.body));
    expect(sharedBodies.size).toBe(perWorker / 30);
    for (const body of sharedBodies) {
      const writes = shared.filter((l) => l.body === body);
      expect(writes).toHaveLength(2);
      expect(writes[0]!.id).toBe(writes[1]!.id);
      expect(writes.filter((l) => l.created)).toHaveLength(1);
    }
    cliDone.forEach((run, i) => {
      expectClean(run, `cli ${i}`);
      const out = JSON.parse(run.stdout) as { memory: { id: string; body: string } };
      expect(out).toMatchObject({ created: true, memory: { body: cliBodies[i] } });
      expected.set(out.memory.id, out.memory.body);
    });
    expect(expected.size).toBe(2 * perWorker + sharedBodies.size + cliBodies.length);

    await withStore(storePath, async (store) => {
      expect(await store.integrityCheck()).toEqual({ ok: true, problems: [] });
      const items = await allItems(store);
      expect(items).toHaveLength(expected.size);
      expect(new Map(items.map((i) => [i.id, i.body]))).toEqual(expected);
    });
  }, 600_000);
});

/**
 * `count` plain memory lines; every 97th repeats an earlier body in another case and spacing, so
 * the distinct memories (by normalised body) are fewer than the lines.
 */
function memoryLines(count: number): string[] {
  const words = ['amber', 'birch', 'cobalt', 'delta', 'ember', 'fjord', 'granite', 'harbor'];
  const bodies: string[] = [];
  for (let i = 0; i < count; i++) {
    const [a, b, c] = [i % 8, Math.floor(i / 8) % 8, Math.floor(i / 64) % 8].map((n) => words[n]);
    bodies.push(
      i % 97 === 96
        ? `  ${bodies[i - 50]!.toUpperCase().replaceAll(' ', '   ')} `
        : `Entry ${i}: the ${a} ${b} report mentions ${c} at checkpoint ${i * 7 + 3}.`,
    );
  }
  return bodies.map((body) => JSON.stringify({ body }));
}

interface LineResult {
  line?: number;
  status?: string;
  id?: string;
  summary?: Record<string, number>;
}

describe('SQLite store after a SIGKILL in the middle of an import', () => {
  it('keeps every acknowledged line, stays consistent and re-imports idempotently', async () => {
    const { dir: work, storePath, config } = fresh();
    const lines = memoryLines(20_000);
    const file = join(work, 'memories.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const keyOf = (line: number) =>
      normalizeBody((JSON.parse(lines[line - 1]!) as { body: string }).body);
    const distinct = new Set(lines.map((_, i) => keyOf(i + 1))).size;
    expect(distinct).toBeLessThan(lines.length);

    // Lines the importer acknowledged (it prints a result only after the batch committed).
    const acked = new Map<number, string>();
    let killed = false;
    const importer = startNode([cli(), '--config', config, '--json', 'import', file], {
      timeoutMs: 300_000,
      onLine: (text) => {
        if (!text.startsWith('{')) return;
        const result = JSON.parse(text) as LineResult;
        if (result.status === 'created' || result.status === 'duplicate')
          acked.set(result.line!, result.id!);
        if (!killed && acked.size >= 2_000) {
          killed = true;
          importer.kill('SIGKILL');
        }
      },
    });
    const first = await importer.done;
    expect(first.signal, `the import was not killed; stderr:\n${first.stderr}`).toBe('SIGKILL');
    expect(acked.size).toBeGreaterThanOrEqual(2_000);
    expect(acked.size).toBeLessThan(lines.length);
    expect(first.stdout).not.toContain('"summary"');

    const survivors = await withStore(storePath, async (store) => {
      expect(await store.integrityCheck()).toEqual({ ok: true, problems: [] });
      const found = new Map(
        (await store.getItems('default', [...acked.values()])).map((i) => [i.id, i]),
      );
      for (const [line, id] of acked) expect(normalizeBody(found.get(id)!.body)).toBe(keyOf(line));
      return (await store.stats(null)).items_total;
    });
    expect(survivors).toBeGreaterThanOrEqual(new Set(acked.values()).size);

    const second = await runNode([cli(), '--config', config, '--json', 'import', file], 420_000);
    expectClean(second, 'second import');
    const results = jsonLines<LineResult>(second.stdout);
    const summary = results.find((r) => r.summary)!.summary!;
    expect(summary).toMatchObject({
      lines: lines.length,
      created: distinct - survivors,
      duplicate: lines.length - (distinct - survivors),
      error: 0,
    });
    const byLine = new Map(results.filter((r) => r.line).map((r) => [r.line!, r]));
    for (const [line, id] of acked)
      expect(byLine.get(line)).toMatchObject({ status: 'duplicate', id });

    await withStore(storePath, async (store) => {
      expect(await store.integrityCheck()).toEqual({ ok: true, problems: [] });
      expect((await store.stats(null)).items_total).toBe(distinct);
      const keys = new Set((await allItems(store)).map((i) => normalizeBody(i.body)));
      expect(keys.size).toBe(distinct);
      expect(lines.every((_, i) => keys.has(keyOf(i + 1)))).toBe(true);
    });
  }, 600_000);
});
