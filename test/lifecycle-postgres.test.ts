/**
 * What the lifecycle capability needs from PostgreSQL beyond the suites every backend runs
 * (test/lifecycle-*.test.ts, test/autorecall*.test.ts): the version-2 migration on a store that
 * predates it, several processes reinforcing and maintaining one store at once, the JSONL backup
 * (items and lifecycle state) restored by the real `engram import`, and text PostgreSQL cannot
 * hold, written or imported. Skipped without
 * ENGRAM_TEST_PG_URL.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import pg from 'pg';
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { planMaintenance } from '../src/lifecycle/maintain.js';
import type { MaintenanceWrite } from '../src/store/lifecycle-store.js';
import type { PostgresStore } from '../src/store/postgres/postgres-store.js';
import { writeExportFile } from '../src/transfer/export-file.js';
import { importLines } from '../src/transfer/transfer.js';
import { tempDir } from './helpers.js';
import { clockedEngram, DAY, failure, type TestClock, testClock } from './lifecycle-helpers.js';
import { PG_URL, waitFor, waitingBehind } from './postgres-helpers.js';

const NO_EMBEDDER = { embedder: { provider: 'none' as const } };

/** An engram on the PostgreSQL schema of `dir` (a fresh one per folder, dropped after the test). */
function pgEngram(clock: TestClock, dir = tempDir()): Engram {
  return clockedEngram(clock, { backend: 'postgres', dir, config: NO_EMBEDDER });
}

function pgStore(engram: Engram): PostgresStore {
  return engram.storeForTransfer as PostgresStore;
}

/** Runs the engram CLI from source, as `engram ...`, against a schema of the test server. */
function cli(
  schema: string,
  args: string[],
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((done, fail) => {
    const main = resolve(import.meta.dirname, '../src/interfaces/cli/main.ts');
    const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], {
      cwd: resolve(import.meta.dirname, '..'),
      env: {
        PATH: process.env.PATH ?? '',
        HOME: tempDir(),
        ENGRAM_STORE_BACKEND: 'postgres',
        ENGRAM_STORE_URL: PG_URL!,
        ENGRAM_STORE_SCHEMA: schema,
        ENGRAM_EMBEDDER_PROVIDER: 'none',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, out, err }));
  });
}

/** The lifecycle state a backup should bring back, as the store's reads show it. */
async function lifecycleState(engram: Engram, used: string) {
  const store = pgStore(engram).lifecycle;
  return {
    facts: await store.decayFacts('default'),
    uses: await store.useEvents('default', used),
    settings: await engram.autoRecallSettings(),
    stats: await engram.autoRecallStats(),
    conversation: await store.conversation('default', 'c-1'),
    run: await store.lastMaintenance(null),
  };
}

/** Writes `n` working notes through the service; returns their ids. */
async function seedWorking(engram: Engram, n: number): Promise<string[]> {
  const inputs = Array.from({ length: n }, (_, i) => ({ body: `scratch ${i}`, kind: 'working' }));
  return (await engram.rememberMany(inputs, { strict: true })).flatMap((r) =>
    r.ok ? [r.memory.id] : [],
  );
}

describe.skipIf(!PG_URL)('PostgreSQL lifecycle', () => {
  it('creates the lifecycle tables in migration 2 and brings an older store up to it', async () => {
    const clock = testClock();
    const dir = tempDir();
    const engram = pgEngram(clock, dir);
    const [id] = await seedWorking(engram, 1);
    const store = pgStore(engram);
    expect(store.capabilities.onlineBackup).toBe(true);
    expect(store.lifecycle).toBeDefined();
    expect(
      await store.query('SELECT version, name FROM schema_migrations WHERE version = 2'),
    ).toEqual([
      {
        version: 2,
        name: 'lifecycle: strength base, use events, settings, conversations, maintenance runs',
      },
    ]);
    const columns = await store.query<{ t: string; c: string; type: string }>(
      `SELECT table_name AS t, column_name AS c, data_type AS type FROM information_schema.columns
       WHERE table_schema = current_schema() AND (table_name, column_name) IN (('items', 'strength_base'),
         ('use_events', 'context_tags'), ('use_events', 'cross_domain'), ('settings', 'value'),
         ('autorecall_conversations', 'topics'), ('maintenance_runs', 'summary'))
       ORDER BY 1, 2`,
    );
    expect(columns.map((r) => `${r.t}.${r.c}: ${r.type}`)).toEqual([
      'autorecall_conversations.topics: json',
      'items.strength_base: double precision',
      'maintenance_runs.summary: json',
      'settings.value: json',
      'use_events.context_tags: ARRAY',
      'use_events.cross_domain: boolean',
    ]);
    // Turn the schema back into one written before version 2 existed.
    await store.query(`DROP TABLE use_events, settings, autorecall_conversations, maintenance_runs;
      ALTER TABLE items DROP COLUMN strength_base; DELETE FROM schema_migrations WHERE version = 2`);
    await engram.close();

    const upgraded = pgEngram(clock, dir);
    clock.advance(40 * DAY);
    expect(await upgraded.observeMemoryUsage([id!])).toMatchObject({ applied: 1 });
    expect(await upgraded.get(id!)).toMatchObject({ use_count: 1, status: 'active' });
    expect(pgStore(upgraded).schemaVersion).toBeGreaterThanOrEqual(2);
  });

  it('lets two processes run maintenance at once, past the lease, without doing it twice', async () => {
    const clock = testClock();
    const dir = tempDir();
    const [a, b] = [pgEngram(clock, dir), pgEngram(clock, dir)];
    const ids = await seedWorking(a, 300);
    clock.advance(40 * DAY);
    const config = a.config.lifecycle;
    // Straight to the stores: the service's lease would refuse the second run instead.
    const run = (engram: Engram, n: number) =>
      pgStore(engram).lifecycle.applyMaintenance(null, (facts) => {
        const plan = planMaintenance(facts, clock.now(), config);
        return {
          updates: plan.updates,
          transitions: plan.transitions.map((t) => t.transition),
          run: {
            id: `run-${n}`,
            space: null,
            started_at: clock.now(),
            finished_at: clock.now(),
            backup_path: null,
            summary: {},
          },
        };
      });
    const results: MaintenanceWrite[] = [];
    await pgStore(b).connect();
    // Another session holds one item, so both runs are inside their transactions at once.
    const holder = new pg.Client({ connectionString: PG_URL });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(
        `SELECT 1 FROM "${a.config.store.schema}".items WHERE id = $1 FOR UPDATE`,
        [ids[150]],
      );
      const [{ pid }] = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid'))
        .rows as [{ pid: number }];
      const pending = Promise.all([run(a, 1), run(b, 2)]);
      // Both runs wait, one on the held item and the other behind it (or on it as well).
      await waitFor(async () => (await waitingBehind(holder, pid)) >= 2);
      await holder.query('COMMIT');
      results.push(...(await pending));
    } finally {
      await holder.end();
    }
    expect(results.map((r) => r.transitions.length).sort((x, y) => x - y)).toEqual([0, 300]);
    for (const id of ids.slice(0, 5)) {
      const events = (await b.history(id)).status_events;
      expect(events.map((e) => [e.to_status, e.reason, e.actor])).toEqual([
        ['archived', 'decay', 'engram:maintain'],
      ]);
    }
    const [runs] = await pgStore(a).query<{ n: number }>(
      'SELECT count(*) AS n FROM maintenance_runs',
    );
    expect(runs!.n).toBe(2);
  });

  it('loses no reinforcement when processes record uses of one item at once', async () => {
    const clock = testClock();
    const dir = tempDir();
    const [a, b] = [pgEngram(clock, dir), pgEngram(clock, dir)];
    const [id] = await seedWorking(a, 1);
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        (i % 2 ? a : b).observeMemoryUsage({ memory_ids: [id!], actor: `agent-${i}` }),
      ),
    );
    expect((await a.get(id!)).use_count).toBe(12);
    const events = await pgStore(a).lifecycle.useEvents('default', id!);
    expect(events).toHaveLength(12);
    // each use raised the base the previous one left (capped at max_base 2)
    const chain = events.map((e) => [e.base_before, e.base_after]).sort((x, y) => x[0]! - y[0]!);
    for (let i = 1; i < chain.length; i++) expect(chain[i]![0]).toBe(chain[i - 1]![1]);
    expect(chain[0]![0]).toBe(1);
    expect(chain.at(-1)![1]).toBe(2);
  });

  it('restores its JSONL backup with engram import into an empty schema', async () => {
    const clock = testClock();
    const dir = tempDir();
    const engram = pgEngram(clock, dir);
    const ids = await seedWorking(engram, 20);
    const { memory: fact } = await engram.remember({ body: 'the wiki moved', kind: 'fact' });
    await engram.relate(fact.id, ids[0]!, { type: 'related' });
    await engram.revise(fact.id, { body: 'the wiki moved to the new host' });
    // lifecycle state: uses, settings, a conversation and an earlier maintenance run
    await engram.observeMemoryUsage({ memory_ids: [fact.id], context_tags: ['infra'] });
    await engram.configureAutoRecall({ enabled: true, mode: 'silent', relevance_threshold: 0.05 });
    await engram.processMessage({ message: 'Where did the wiki move to?', conversation_id: 'c-1' });
    const first = await engram.maintain();
    clock.advance(40 * DAY);
    const before = await engram.list({ statuses: ['active', 'candidate'], limit: 100 });
    const state = await lifecycleState(engram, fact.id);
    expect(state.run).toMatchObject({ id: first.run_id });
    const report = await engram.maintain();
    expect(report.archived).toBe(20);
    const path = report.backup!.path;
    expect(readdirSync(join(dir, 'backups'))).toContain(path.split('/').pop());
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'engram-export', version: 1, space: null });
    expect(lines.filter((l) => l.startsWith('{"type":"item"'))).toHaveLength(21);
    expect(lines.filter((l) => l.startsWith('{"type":"relation"'))).toHaveLength(1);
    for (const type of ['strength_base', 'use_event', 'setting', 'autorecall_conversation'])
      expect(lines.filter((l) => l.startsWith(`{"type":"${type}"`)).length).toBeGreaterThan(0);
    // the backup is taken before its own run is recorded: it holds the earlier run only
    expect(lines.filter((l) => l.startsWith('{"type":"maintenance_run"'))).toHaveLength(1);

    const copy = pgEngram(clock);
    const imported = await cli(copy.config.store.schema, ['--json', 'import', path]);
    expect(imported.code, imported.err).toBe(0);
    expect(JSON.parse(imported.out.trim().split('\n').at(-1)!)).toMatchObject({
      summary: { imported: lines.length - 1, error: 0 },
    });
    expect(await copy.list({ statuses: ['active', 'candidate'], limit: 100 })).toEqual(before);
    expect(await lifecycleState(copy, fact.id)).toEqual(state);
    const history = await copy.history(fact.id);
    expect(history.versions.map((v) => v.body)).toEqual([
      'the wiki moved',
      'the wiki moved to the new host',
    ]);
    expect(history.relations).toHaveLength(1);
  });

  it('writes a backup whole or not at all', async () => {
    const engram = pgEngram(testClock());
    await seedWorking(engram, 3);
    const missing = join(tempDir(), 'no-such-folder', 'engram-x.jsonl');
    const err = await failure(writeExportFile(pgStore(engram), missing));
    expect(err).toMatchObject({
      code: 'STORE_UNAVAILABLE',
      details: { field: 'lifecycle.backup.dir' },
    });
    expect(existsSync(`${missing}.partial`)).toBe(false);
    expect(existsSync(missing)).toBe(false);
  });

  it('treats text PostgreSQL cannot hold as unknown ids or a bad field, writing nothing', async () => {
    const clock = testClock();
    const engram = pgEngram(clock);
    const [id] = await seedWorking(engram, 1);
    const result = await engram.observeMemoryUsage([id!, 'bad\u0000id']);
    expect(result.results.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['ok', 'NOT_FOUND']);
    const err = await failure(engram.observeMemoryUsage({ memory_ids: [id!], actor: 'a\u0000b' }));
    expect(err).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'actor' } });
    await engram.configureAutoRecall({ enabled: true });
    const chat = await failure(
      engram.processMessage({ message: 'hi there!', conversation_id: 'c\u0000' }),
    );
    expect(chat).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'conversation_id' } });
    expect((await engram.get(id!)).use_count).toBe(1);
  });

  it('fails an imported lifecycle line PostgreSQL cannot hold alone, naming its field', async () => {
    const engram = pgEngram(testClock());
    const [id] = await seedWorking(engram, 1);
    const use = (eventId: string, actor: string) =>
      JSON.stringify({
        type: 'use_event',
        event: {
          id: eventId,
          space: 'default',
          item_id: id,
          at: '2026-01-02T00:00:00.000Z',
          source: 'explicit',
          conversation_id: null,
          actor,
          context_tags: [],
          context_area: null,
          cross_domain: false,
          base_before: 1,
          base_after: 1.1,
          strength_before: 1,
          strength_after: 1,
        },
      });
    const setting = JSON.stringify({
      type: 'setting',
      setting: {
        space: 'default',
        key: 'notes',
        value: { note: 'a\u0000b' },
        updated_at: '2026-01-02T00:00:00.000Z',
      },
    });
    const report = await importLines(engram, [use('U1', 'a\u0000b'), setting, use('U2', 'agent')]);
    expect(report.errors.map((e) => [e.line, e.error?.code, e.error?.field])).toEqual([
      [1, 'INVALID_INPUT', 'event.actor'],
      [2, 'INVALID_INPUT', 'setting.value.note'],
    ]);
    expect(report.imported).toBe(1);
    const events = await pgStore(engram).lifecycle.useEvents('default', id!);
    expect(events.map((e) => [e.id, e.actor])).toEqual([['U2', 'agent']]);
  });
});
