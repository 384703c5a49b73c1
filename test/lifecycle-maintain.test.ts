// `maintain` (§7.3): dry runs write nothing, a real run backs up first and applies everything in
// one transaction, an interrupted run (a thrown error or a killed process) changes nothing, and
// runs never overlap. Each store-facing suite runs on SQLite and (with a server) PostgreSQL.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';

import { createEngram, type Engram } from '../src/app.js';
import { EngramError } from '../src/domain/errors.js';
import { silentLogger } from '../src/domain/log.js';
import { nextRunAt, startSchedule } from '../src/lifecycle/scheduler.js';
import { requireLifecycle } from '../src/store/lifecycle-store.js';
import type { Store } from '../src/store/store.js';
import { importLines } from '../src/transfer/transfer.js';
import { tempDir, testConfig, testEngram } from './helpers.js';
import {
  type Backend,
  backendConfig,
  backendEngram,
  type BackendEngramOptions,
  clockedEngram,
  DAY,
  describeBackends,
  failure,
  type TestClock,
  testClock,
} from './lifecycle-helpers.js';
import { admin } from './postgres-helpers.js';

/** Every row that a maintenance run could touch, as plain data. */
async function snapshot(backend: Backend, engram: Engram) {
  const items =
    'SELECT id, status, strength, strength_base, prior, updated_at FROM items ORDER BY id';
  const events = 'SELECT * FROM status_events ORDER BY id';
  const runs = 'SELECT count(*) AS n FROM maintenance_runs';
  if (backend === 'postgres') {
    const schema = engram.config.store.schema;
    const q = (sql: string) => admin(sql.replace(/FROM (\w+)/u, `FROM "${schema}".$1`));
    return { items: await q(items), events: await q(events), runs: await q(runs) };
  }
  const db = new Database(engram.config.store.path!, { readonly: true });
  try {
    return {
      items: db.prepare(items).all(),
      events: db.prepare(events).all(),
      runs: db.prepare(runs).all(),
    };
  } finally {
    db.close();
  }
}

async function seed(engram: Engram, n = 30) {
  const kinds = ['working', 'episode', 'note', 'fact'] as const;
  const inputs = Array.from({ length: n }, (_, i) => ({
    body: `maintenance fixture ${i}`,
    kind: kinds[i % kinds.length],
    status: i % 7 === 0 ? 'candidate' : 'active',
    importance: i % 5 === 0 ? 0.9 : 0.5,
  }));
  const items = [];
  for (let i = 0; i < n; i += 1000) {
    for (const r of await engram.rememberMany(inputs.slice(i, i + 1000), { strict: true }))
      if (r.ok) items.push(r.memory);
  }
  return items;
}

describeBackends('maintain --dry-run', (backend) => {
  const engramOn = (clock: TestClock, options: BackendEngramOptions = {}) =>
    clockedEngram(clock, { backend, ...options });

  it('reports transitions, a histogram and edge cases and writes nothing', async () => {
    const clock = testClock();
    const dir = tempDir();
    const engram = engramOn(clock, { dir, config: { embedder: { provider: 'none' } } });
    const items = await seed(engram);
    await engram.observeMemoryUsage([items[0]!.id]); // candidate 0 -> base 0.55
    clock.advance(34 * DAY);
    const before = await snapshot(backend, engram);
    const report = await engram.maintain({ dry_run: true });
    expect(await snapshot(backend, engram)).toEqual(before);
    expect(existsSync(join(dir, 'backups'))).toBe(false);
    expect(report).toMatchObject({ dry_run: true, backup: null, run_id: null, items_scanned: 30 });
    expect(report.histogram.reduce((s, b) => s + b.count, 0)).toBe(30);
    expect(report.archived).toBeGreaterThan(0);
    expect(report.promoted).toBe(1);
    expect(report.transitions_total).toBe(report.archived + report.promoted);
    expect(report.transitions.every((t) => t.reason === 'decay' || t.reason === 'promotion')).toBe(
      true,
    );
    // important items archived by this run are called out
    const important = report.transitions
      .filter((t) => t.to === 'archived' && t.importance >= 0.7)
      .map((t) => t.id);
    expect(report.edge_cases.important_archived.ids.sort()).toEqual(important.sort());
    // the preview is exactly what a real run then does
    const real = await engram.maintain();
    expect(real.transitions).toEqual(report.transitions);
    expect(real.histogram).toEqual(report.histogram);
  });
});

/** Opens a copy of the store from a backup: the database file, or the JSONL imported afresh. */
async function restore(backend: Backend, path: string): Promise<Engram> {
  const config = { embedder: { provider: 'none' as const } };
  if (backend === 'sqlite')
    return createEngram({
      logger: silentLogger,
      background: false,
      env: {},
      config: testConfig(tempDir(), { ...config, store: { path } }),
    });
  const copy = backendEngram({ backend, config });
  const report = await importLines(copy, readFileSync(path, 'utf8').split('\n'));
  expect(report).toMatchObject({ error: 0, errors: [] });
  return copy;
}

describeBackends('maintain', (backend) => {
  const engramOn = (clock: TestClock, options: BackendEngramOptions = {}) =>
    clockedEngram(clock, { backend, ...options });
  const extension = backend === 'sqlite' ? 'db' : 'jsonl';

  it('takes a restorable backup first, then applies the run, and records it', async () => {
    const clock = testClock();
    const dir = tempDir();
    const engram = engramOn(clock, { dir, config: { embedder: { provider: 'none' } } });
    await seed(engram, 12);
    const { memory: linked } = await engram.remember({ body: 'a linked fixture', kind: 'fact' });
    const seeded = (await engram.list({ limit: 100 })).items;
    await engram.relate(linked.id, seeded.at(-1)!.id, { type: 'related' });
    clock.advance(40 * DAY);
    const before = await engram.list({ statuses: ['active', 'candidate'], limit: 100 });
    const report = await engram.maintain();
    expect(report.backup?.path).toMatch(
      new RegExp(`backups/engram-20260210T000000000Z\\.${extension}$`, 'u'),
    );
    expect(readdirSync(join(dir, 'backups'))).toEqual([`engram-20260210T000000000Z.${extension}`]);
    expect(report.archived).toBeGreaterThan(0);
    expect(await requireLifecycle(engram.storeForTransfer).lastMaintenance(null)).toMatchObject({
      id: report.run_id,
      space: null,
      backup_path: report.backup!.path,
      summary: { items_scanned: 13, archived: report.archived, promoted: report.promoted },
    });
    const restored = await restore(backend, report.backup!.path);
    try {
      const copy = await restored.list({ statuses: ['active', 'candidate'], limit: 100 });
      expect(copy.items).toEqual(before.items);
      expect((await restored.history(linked.id)).relations).toEqual(
        (await engram.history(linked.id)).relations,
      );
      expect((await restored.storeForTransfer.integrityCheck()).ok).toBe(true);
    } finally {
      await restored.close();
    }
  });

  it('keeps backups for keep_days and prunes older ones', async () => {
    const clock = testClock();
    const dir = tempDir();
    const engram = engramOn(clock, {
      dir,
      config: {
        embedder: { provider: 'none' },
        lifecycle: { backup: { keep_days: 3, dir: 'snapshots' } },
      },
    });
    await seed(engram, 3);
    const paths: string[] = [];
    for (let day = 0; day < 6; day++) {
      paths.push((await engram.maintain()).backup!.path);
      clock.advance(DAY);
    }
    const kept = readdirSync(join(dir, 'snapshots')).sort();
    expect(kept).toHaveLength(4); // days 2..5 (day 2 is exactly 3 days old at day 5)
    expect(paths.slice(2).map((p) => p.split('/').pop())).toEqual(kept);
  });

  it('rolls everything back when the run is interrupted mid-write', async () => {
    const clock = testClock();
    const dir = tempDir();
    const engram = engramOn(clock, { dir, config: { embedder: { provider: 'none' } } });
    await seed(engram, 3000);
    clock.advance(40 * DAY);
    const before = await snapshot(backend, engram);
    let calls = 0;
    const err = await engram
      .maintain({}, () => {
        calls++;
        throw new Error('interrupted');
      })
      .catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain('interrupted');
    expect(calls).toBe(1); // it stopped at the first progress report, mid-run
    expect(await snapshot(backend, engram)).toEqual(before);
    // the interrupted run let go of its lease: the next one runs
    expect((await engram.maintain()).archived).toBeGreaterThan(0);
  });

  it('leaves the store unchanged when the process is killed mid-transaction', async () => {
    const clock = testClock();
    const dir = tempDir();
    const engram = engramOn(clock, { dir, config: { embedder: { provider: 'none' } } });
    await seed(engram, 3000);
    await engram.close();
    const before = await snapshot(backend, engram);
    const script = join(dir, 'crash.mts');
    const app = resolve(import.meta.dirname, '../src/app.ts');
    const config = testConfig(
      dir,
      backendConfig(backend, dir, {
        embedder: { provider: 'none' },
        lifecycle: { backup: { enabled: false } },
      }),
    );
    writeFileSync(
      script,
      `import { createEngram } from ${JSON.stringify(app)};
const engram = createEngram({ env: {}, background: false, now: () => ${clock.now() + 40 * DAY},
  config: ${JSON.stringify(config)} });
await engram.maintain({}, (done) => { if (done >= 2000) process.kill(process.pid, 'SIGKILL'); });
console.log('not killed');
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], {
      cwd: resolve(import.meta.dirname, '..'),
      stdio: 'pipe',
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const signal = await new Promise<NodeJS.Signals | null>((res) =>
      child.on('exit', (_code, sig) => res(sig)),
    );
    expect(signal, out).toBe('SIGKILL');
    // PostgreSQL rolls back a transaction whose connection drops; give it a moment to notice
    await vi.waitFor(async () => expect(await snapshot(backend, engram)).toEqual(before), {
      timeout: 10_000,
    });
    const reopened = engramOn(clock, { dir, config: { embedder: { provider: 'none' } } });
    expect((await reopened.storeForTransfer.integrityCheck()).ok).toBe(true);
  });

  it('never runs twice at once: a run while another holds the lease is refused, naming the holder', async () => {
    const clock = testClock();
    const dir = tempDir();
    const first = engramOn(clock, { dir, config: { embedder: { provider: 'none' } } });
    const second = engramOn(clock, { dir, config: { embedder: { provider: 'none' } } });
    await seed(first, 50);
    clock.advance(40 * DAY);
    // The first holds the maintenance lease (as its own run would) while the second asks: no race
    // between two runs' timings decides what this test sees.
    const held = await first.storeForTransfer.withLease('engram:maintenance', 60_000, () =>
      second.maintain().then(
        () => null,
        (err: unknown) => err,
      ),
    );
    expect(held.acquired).toBe(true);
    const refused = held.acquired ? held.value : null;
    expect(refused).toMatchObject({
      code: 'CONFLICT',
      details: { rule: 'one maintenance run at a time' },
    });
    expect((refused as Error).message).toMatch(/maintenance is already running/);
    // the lease is released when the holder ends; a dry run never needs it
    await second.maintain();
    expect((await second.maintain()).archived).toBe(0);
    expect((await first.maintain({ dry_run: true })).archived).toBe(0);
  });
});

describe('maintain (any backend)', () => {
  it('refuses clearly on a store without the lifecycle capability', async () => {
    const store = { capabilities: { backend: 'memory' } } as unknown as Store;
    const err = await failure(Promise.resolve().then(() => requireLifecycle(store)));
    expect(err.code).toBe('STORE_UNAVAILABLE');
    expect(err.message).toMatch(/memory store does not support lifecycle/);
  });

  it.each([
    [{ lifecycle: { archive_threshold: 1.5 } }, 'lifecycle.archive_threshold'],
    [{ lifecycle: { archive_threshold: 0.6 } }, 'lifecycle.archive_threshold'],
    [
      { lifecycle: { review: { window_low: 0.5, window_high: 0.3 } } },
      'lifecycle.review.window_low',
    ],
    [{ lifecycle: { decay_rates: { note: -1 } } }, 'lifecycle.decay_rates.note'],
    [{ lifecycle: { schedule: { time: '25:00' } } }, 'lifecycle.schedule.time'],
    [{ lifecycle: { backup: { keep_days: -1 } } }, 'lifecycle.backup.keep_days'],
  ])('rejects bad lifecycle configuration %j naming the key', async (config, field) => {
    const err = await failure(
      Promise.resolve().then(() => testEngram({ config: config as never })),
    );
    expect(err.code).toBe('CONFIG_INVALID');
    expect(err.details.field).toBe(field);
  });
});

describe('the nightly schedule', () => {
  it('finds the next run time of day', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(new Date(nextRunAt(now, '03:30', true)).toISOString()).toBe('2026-03-11T03:30:00.000Z');
    expect(new Date(nextRunAt(now, '13:05', true)).toISOString()).toBe('2026-03-10T13:05:00.000Z');
    expect(
      new Date(nextRunAt(Date.parse('2026-03-10T13:05:00Z'), '13:05', true)).toISOString(),
    ).toBe('2026-03-11T13:05:00.000Z');
  });

  it('runs maintenance when due, skips when another process ran recently, and stops', async () => {
    const timers: { fn: () => void; ms: number }[] = [];
    const run = vi.fn(async () => undefined);
    const state: { last?: number } = {};
    const wall = Date.parse('2026-03-10T12:00:00Z');
    const schedule = startSchedule({
      schedule: { enabled: true, time: '03:30', utc: true },
      run,
      lastRunAt: async () => state.last,
      log: silentLogger,
      clock: () => wall,
      setTimer: (fn, ms) => timers.push({ fn, ms }),
      clearTimer: () => undefined,
    });
    expect(schedule.next_run_at).toBe('2026-03-11T03:30:00.000Z');
    expect(timers[0]!.ms).toBe(15.5 * 3_600_000);
    timers[0]!.fn();
    await vi.waitFor(() => expect(timers).toHaveLength(2));
    expect(run).toHaveBeenCalledTimes(1);
    state.last = wall - 3_600_000;
    timers[1]!.fn();
    await vi.waitFor(() => expect(timers).toHaveLength(3));
    expect(run).toHaveBeenCalledTimes(1);
    schedule.stop();
    expect(schedule.next_run_at).toBeNull();
    timers[2]!.fn();
    await new Promise((r) => setTimeout(r, 10));
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('skips a run quietly while another process holds the maintenance lease', async () => {
    const timers: (() => void)[] = [];
    const logged: string[] = [];
    const log = {
      ...silentLogger,
      info: (message: string) => void logged.push(`info: ${message}`),
      warn: (message: string) => void logged.push(`warn: ${message}`),
    };
    const busy = new EngramError('CONFLICT', 'maintenance is already running on this store', {
      rule: 'one maintenance run at a time',
    });
    const schedule = startSchedule({
      schedule: { enabled: true, time: '03:30', utc: true },
      run: () => Promise.reject(busy),
      lastRunAt: async () => undefined,
      log,
      clock: () => Date.parse('2026-03-10T12:00:00Z'),
      setTimer: (fn) => timers.push(fn),
      clearTimer: () => undefined,
    });
    timers[0]!();
    await vi.waitFor(() => expect(timers).toHaveLength(2)); // re-armed for the next day
    expect(logged).toEqual(['info: scheduled maintenance skipped: another process is running it']);
    schedule.stop();
  });

  it('is started by the service and runs a real maintenance', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock, {
      config: {
        embedder: { provider: 'none' },
        lifecycle: { schedule: { time: '00:00', utc: true } },
      },
    });
    const { memory } = await engram.remember({ body: 'scheduled scratch', kind: 'working' });
    clock.advance(40 * DAY);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const schedule = engram.startMaintenanceSchedule();
      expect(schedule.next_run_at).not.toBeNull();
      // A minute past the due time: the wall clock moves on between arming and advancing, and
      // the next timer is a day away.
      await vi.advanceTimersByTimeAsync(Date.parse(schedule.next_run_at!) - Date.now() + 60_000);
      vi.useRealTimers();
      await vi.waitFor(async () => expect((await engram.get(memory.id)).status).toBe('archived'));
      schedule.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
