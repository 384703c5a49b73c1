/**
 * Lifecycle state in the JSONL export (§7, §12): reinforcement bases, use events,
 * settings, auto-recall conversations and maintenance runs travel to a new store, so reinforced
 * memories keep decaying as reinforced and `auto-recall stats` carries on; import is idempotent,
 * each bad line fails alone naming its line, field and rule, and a confined import stays in its
 * space. Imports run on both backends (PostgreSQL with a server); the SQLite -> PostgreSQL ->
 * SQLite move is in postgres-transfer.test.ts.
 */
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { requireLifecycle } from '../src/store/lifecycle-store.js';
import { importLines, type ImportReport } from '../src/transfer/transfer.js';
import {
  clockedEngram,
  DAY,
  describeBackends,
  type TestClock,
  testClock,
} from './lifecycle-helpers.js';
import { exportedLines, lineCounts, linesOf, populateLifecycle } from './transfer-helpers.js';

const LIFECYCLE_TYPES = [
  'strength_base',
  'use_event',
  'setting',
  'autorecall_conversation',
  'maintenance_run',
];

/** Memories of two spaces; returns the ids the lifecycle state is built on. */
async function seed(engram: Engram) {
  const remember = async (body: string, extra: Record<string, unknown> = {}) =>
    (await engram.remember({ body, ...extra })).memory.id;
  const kettle = await remember('Descale the kettle every month with citric acid or vinegar', {
    tags: ['kitchen', 'chores'],
    kind: 'procedure',
  });
  const rota = await remember('The cleaning rota changes every Sunday evening', {
    kind: 'note',
    importance: 0.9,
  });
  await remember('Deploys go out on Tuesdays after the standup', { kind: 'rule' });
  await remember('Green tea brews best at 80 degrees', { kind: 'preference', space: 'alice' });
  return { kettle, rota };
}

/** A store with lifecycle state, the clock it runs on, and its export. */
async function source() {
  const clock = testClock();
  const engram = clockedEngram(clock);
  const ids = await seed(engram);
  clock.advance(DAY);
  await populateLifecycle(engram, { used: ids.kettle, reviewed: ids.rota });
  return { clock, engram, ids, lines: await exportedLines(engram) };
}

/** An empty store that has published its embedder's model, as a running service has. */
async function fresh(clock: TestClock): Promise<Engram> {
  const engram = clockedEngram(clock);
  await engram.status();
  return engram;
}

function lifecycleState(engram: Engram, space: string) {
  const store = requireLifecycle(engram.storeForTransfer);
  return Promise.all([
    store.decayFacts(space),
    store.useCounts(space),
    engram.autoRecallSettings({ space }),
    engram.autoRecallStats({ space }),
    store.lastMaintenance(space),
  ]);
}

function lifecycleLines(lines: readonly string[]): string[] {
  return lines.filter((l) => LIFECYCLE_TYPES.includes((JSON.parse(l) as { type: string }).type));
}

function errorsOf(report: ImportReport) {
  return report.errors.map((e) => ({ line: e.line, code: e.error?.code, field: e.error?.field }));
}

describe('lifecycle state in the export', () => {
  it('writes one line per base, use event, setting, conversation and run, after the items', async () => {
    const { engram, ids, lines } = await source();
    const counts = lineCounts(lines);
    const uses = await requireLifecycle(engram.storeForTransfer).useCounts('default');
    expect(uses.by_source).toMatchObject({ explicit: 3, review: 1 });
    expect(uses.by_source.auto_recall).toBeGreaterThan(0);
    expect(counts).toMatchObject({
      item: 4,
      use_event: uses.events,
      setting: 2,
      autorecall_conversation: 2,
      maintenance_run: 1,
    });
    // every used item has a base; the others have none and get no line
    const bases = linesOf(lines, 'strength_base');
    expect(bases.map((b) => (b.strength_base as { item_id: string }).item_id)).toEqual(
      expect.arrayContaining([ids.kettle, ids.rota]),
    );
    const firstLifecycle = lines.findIndex((l) => l.startsWith('{"type":"strength_base"'));
    expect(lines.slice(firstLifecycle).some((l) => l.startsWith('{"type":"item"'))).toBe(false);

    const kettleUse = linesOf(lines, 'use_event').find(
      (l) => (l.event as { actor: string | null }).actor === 'planner',
    );
    expect(kettleUse).toEqual({
      type: 'use_event',
      event: {
        id: expect.any(String),
        space: 'default',
        item_id: expect.any(String),
        at: '2026-01-02T00:00:00.000Z',
        source: 'explicit',
        conversation_id: 'chat-7',
        actor: 'planner',
        context_tags: ['travel', 'packing'],
        context_area: null,
        cross_domain: true,
        base_before: 1,
        base_after: expect.any(Number),
        strength_before: expect.any(Number),
        strength_after: expect.any(Number),
      },
    });
    expect(linesOf(lines, 'setting')).toEqual([
      {
        type: 'setting',
        setting: {
          space: 'alice',
          key: 'auto_recall',
          value: { max_results: 5, min_interval_s: 60 },
          updated_at: '2026-01-02T00:00:00.000Z',
        },
      },
      {
        type: 'setting',
        setting: {
          space: 'default',
          key: 'auto_recall',
          value: { enabled: true, mode: 'silent', relevance_threshold: 0.05 },
          updated_at: '2026-01-02T00:00:00.000Z',
        },
      },
    ]);
    const [conversation] = linesOf(lines, 'autorecall_conversation');
    expect(conversation).toEqual({
      type: 'autorecall_conversation',
      conversation: {
        space: 'default',
        conversation_id: 'chat-1',
        topics: [expect.arrayContaining(['kettl'])],
        last_recall_at: '2026-01-02T00:00:00.000Z',
        updated_at: '2026-01-02T00:00:00.000Z',
      },
    });
    const [run] = linesOf(lines, 'maintenance_run');
    expect(run).toEqual({
      type: 'maintenance_run',
      run: {
        id: expect.any(String),
        space: null,
        started_at: '2026-01-02T00:00:00.000Z',
        finished_at: '2026-01-02T00:00:00.000Z',
        backup_path: expect.stringMatching(/\.db$/),
        summary: expect.objectContaining({ items_scanned: 4 }),
      },
    });
  });

  it('moves the state to a new store: reinforced memories keep decaying as reinforced', async () => {
    const { clock, engram, lines } = await source();
    const copy = await fresh(clock);
    const report = await importLines(copy, lines);
    expect(errorsOf(report)).toEqual([]);
    expect(report.imported).toBe(lines.length);
    expect(await exportedLines(copy)).toEqual(lines);
    for (const space of ['default', 'alice'])
      expect(await lifecycleState(copy, space)).toEqual(await lifecycleState(engram, space));
    // the cooldown of a conversation carries over
    const message = {
      message: 'What about the kettle descaling again?',
      conversation_id: 'chat-1',
    };
    const [before, after] = [
      await engram.processMessage(message),
      await copy.processMessage(message),
    ];
    expect(after.reason).toBe(before.reason);
    expect(after.cooldown_remaining_s).toBe(before.cooldown_remaining_s);

    clock.advance(400 * DAY);
    const [a, b] = [await engram.maintain(), await copy.maintain()];
    expect(b.archived).toBe(a.archived);
    expect(b.transitions).toEqual(a.transitions);
    expect(b.histogram).toEqual(a.histogram);
    const list = (e: Engram) =>
      e.list({ statuses: ['active', 'archived'], limit: 10 }).then((r) => r.items);
    expect(await list(copy)).toEqual(await list(engram));
  });

  it('imports idempotently: a re-run changes nothing and reports every line as existing', async () => {
    const { clock, lines } = await source();
    const copy = await fresh(clock);
    await importLines(copy, lines);
    const again = await importLines(copy, lines);
    expect(again).toMatchObject({ imported: 0, exists: lines.length, error: 0 });
    expect(await exportedLines(copy)).toEqual(lines);
  });

  it('reads an export without lifecycle lines (an older file) as before', async () => {
    const { clock, lines } = await source();
    const older = lines.filter((l) => !lifecycleLines(lines).includes(l));
    const copy = await fresh(clock);
    expect(await importLines(copy, older)).toMatchObject({ imported: older.length, error: 0 });
    expect(await exportedLines(copy)).toEqual(older);
  });

  it('leaves other spaces and store-wide runs out of a space export', async () => {
    const { engram } = await source();
    const alice = await exportedLines(engram, 'alice');
    expect(lineCounts(alice)).toEqual({ item: 1, setting: 1 });
    const own = await exportedLines(engram, 'default');
    expect(lineCounts(own).maintenance_run).toBeUndefined();
    expect(linesOf(own, 'setting')).toHaveLength(1);
  });
});

describeBackends('importing lifecycle lines', (backend) => {
  const empty = (clock: TestClock = testClock()) =>
    clockedEngram(clock, { backend, config: { embedder: { provider: 'none' } } });

  /** An engram with one item and its id, on a test clock. */
  async function target(clock: TestClock = testClock()) {
    const engram = empty(clock);
    const id = (await engram.remember({ body: 'The boiler is serviced every October' })).memory.id;
    return { engram, id, clock };
  }

  const useEvent = (id: string, itemId: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      type: 'use_event',
      event: {
        id,
        space: 'default',
        item_id: itemId,
        at: '2026-01-03T10:00:00.000Z',
        source: 'explicit',
        conversation_id: null,
        actor: null,
        context_tags: [],
        context_area: null,
        cross_domain: false,
        base_before: 1,
        base_after: 1.1,
        strength_before: 1,
        strength_after: 1,
        ...extra,
      },
    });
  const baseLine = (itemId: string, base: number, space = 'default') =>
    JSON.stringify({ type: 'strength_base', strength_base: { space, item_id: itemId, base } });
  const setting = (value: unknown, at: string, space = 'default') =>
    JSON.stringify({
      type: 'setting',
      setting: { space, key: 'auto_recall', value, updated_at: at },
    });
  const conversation = (id: string, at: string, space = 'default') =>
    JSON.stringify({
      type: 'autorecall_conversation',
      conversation: {
        space,
        conversation_id: id,
        topics: [['boiler']],
        last_recall_at: at,
        updated_at: at,
      },
    });
  const run = (id: string, space: string | null) =>
    JSON.stringify({
      type: 'maintenance_run',
      run: {
        id,
        space,
        started_at: '2026-01-03T00:00:00.000Z',
        finished_at: '2026-01-03T00:00:01.000Z',
        backup_path: null,
        summary: { items_scanned: 1, archived: 0 },
      },
    });

  it('fails each bad line alone with its line number, field and rule; the rest apply', async () => {
    const { engram, id } = await target();
    const good = [
      useEvent('U1', id),
      baseLine(id, 1.1),
      conversation('c-1', '2026-01-03T00:00:00Z'),
    ];
    const report = await importLines(engram, [
      good[0]!,
      useEvent('U2', id, { source: 'telepathy' }),
      baseLine(id, 11),
      setting({ mode: 'loud' }, '2026-01-03T00:00:00.000Z'),
      setting({ enabled: true, colour: 'red' }, '2026-01-03T00:00:00.000Z'),
      useEvent('U3', id, { at: 'yesterday' }),
      JSON.stringify({ ...(JSON.parse(useEvent('U4', id)) as object), extra: 1 }),
      run('R1', null).replace('"summary":{', '"summary":{"x":1},"note":{'),
      good[1]!,
      JSON.stringify({ type: 'autorecall_conversation', conversation: { space: 'Bad Space!' } }),
      good[2]!,
    ]);
    expect(errorsOf(report)).toEqual([
      { line: 2, code: 'INVALID_INPUT', field: 'event.source' },
      { line: 3, code: 'INVALID_INPUT', field: 'strength_base.base' },
      { line: 4, code: 'INVALID_INPUT', field: 'setting.value.mode' },
      { line: 5, code: 'INVALID_INPUT', field: 'setting.value.colour' },
      { line: 6, code: 'INVALID_INPUT', field: 'event.at' },
      { line: 7, code: 'INVALID_INPUT', field: 'extra' },
      { line: 8, code: 'INVALID_INPUT', field: 'run.note' },
      { line: 10, code: 'INVALID_INPUT', field: 'conversation.space' },
    ]);
    expect(report.errors[0]!.error!.message).toContain('event.source');
    expect(report.errors[2]!.error!.message).toMatch(/setting\.value\.mode: .*silent/);
    expect(report).toMatchObject({ imported: 3, error: 8 });
    const store = requireLifecycle(engram.storeForTransfer);
    expect((await store.useEvents('default', id)).map((e) => e.id)).toEqual(['U1']);
    expect((await store.decayFacts('default', [id]))[0]!.base).toBe(1.1);
    expect(await store.conversation('default', 'c-1')).toMatchObject({ topics: [['boiler']] });
  });

  it('fails a base line alone when its item is missing, naming the item', async () => {
    const { engram, id } = await target();
    const report = await importLines(engram, [
      baseLine('01NOSUCHITEM', 1.4),
      baseLine(id, 1.2, 'alice'), // the id exists, but not in that space
      baseLine(id, 1.3),
    ]);
    expect(errorsOf(report)).toEqual([
      { line: 1, code: 'NOT_FOUND', field: 'item_id' },
      { line: 2, code: 'NOT_FOUND', field: 'item_id' },
    ]);
    expect(report.errors[0]!.error!.message).toContain('01NOSUCHITEM');
    expect(report.imported).toBe(1);
    expect((await requireLifecycle(engram.storeForTransfer).decayFacts('default'))[0]!.base).toBe(
      1.3,
    );
  });

  it('a base line before its item fails alone in a later batch, and applies in the same batch', async () => {
    const { lines } = await source();
    const base = lines.find((l) => l.startsWith('{"type":"strength_base"'))!;
    const itemId = (JSON.parse(base) as { strength_base: { item_id: string } }).strength_base
      .item_id;
    const item = lines.find((l) => l.includes(`"item":{"id":"${itemId}"`))!;
    const early = await importLines(empty(), [base, item], { batchSize: 1 });
    expect(errorsOf(early)).toEqual([{ line: 1, code: 'NOT_FOUND', field: 'item_id' }]);
    const together = await importLines(empty(), [base, item]);
    expect(together).toMatchObject({ imported: 2, error: 0 });
  });

  it('keeps the state a store holds: an item base already set, an older setting or conversation', async () => {
    const { engram, id, clock } = await target();
    clock.set(Date.parse('2026-01-05T00:00:00Z'));
    await engram.observeMemoryUsage([id]);
    await engram.configureAutoRecall({ enabled: true, max_results: 4 });
    const store = requireLifecycle(engram.storeForTransfer);
    const held = (await store.decayFacts('default', [id]))[0]!.base;
    expect(held).toBeGreaterThan(1);
    await store.putConversation({
      space: 'default',
      conversation_id: 'c-1',
      topics: [['held']],
      last_recall_at: null,
      updated_at: Date.parse('2026-01-05T00:00:00Z'),
    });
    const report = await importLines(engram, [
      baseLine(id, 1.9),
      setting({ enabled: false }, '2026-01-04T00:00:00.000Z'),
      conversation('c-1', '2026-01-04T00:00:00.000Z'),
      setting({ mode: 'subtle' }, '2026-01-06T00:00:00.000Z', 'alice'),
      conversation('c-1', '2026-01-06T00:00:00.000Z', 'alice'),
    ]);
    expect(report).toMatchObject({ exists: 3, imported: 2, error: 0 });
    expect((await store.decayFacts('default', [id]))[0]!.base).toBe(held);
    expect(await engram.autoRecallSettings()).toMatchObject({ enabled: true, max_results: 4 });
    expect(await store.conversation('default', 'c-1')).toMatchObject({ topics: [['held']] });
    expect(await engram.autoRecallSettings({ space: 'alice' })).toMatchObject({ mode: 'subtle' });

    // a newer setting or conversation replaces the held one; two lines of one key apply in order
    const newer = await importLines(engram, [
      setting({ enabled: false }, '2026-01-07T00:00:00.000Z'),
      setting({ enabled: true, mode: 'interactive' }, '2026-01-08T00:00:00.000Z'),
      setting({ mode: 'subtle' }, '2026-01-07T12:00:00.000Z'),
      conversation('c-1', '2026-01-07T00:00:00.000Z'),
    ]);
    expect(newer.errors).toEqual([]);
    expect(newer).toMatchObject({ imported: 3, exists: 1 });
    expect(await engram.autoRecallSettings()).toMatchObject({
      enabled: true,
      mode: 'interactive',
      max_results: 3,
    });
    expect(await store.conversation('default', 'c-1')).toMatchObject({ topics: [['boiler']] });
  });

  it('reports a repeated use event or run id as existing, in one file or across runs', async () => {
    const { engram, id } = await target();
    const lines = [useEvent('U1', id), useEvent('U1', id), run('R1', null), run('R1', null)];
    expect(await importLines(engram, lines)).toMatchObject({ imported: 2, exists: 2 });
    expect(await importLines(engram, lines)).toMatchObject({ imported: 0, exists: 4 });
    const store = requireLifecycle(engram.storeForTransfer);
    expect(await store.lastMaintenance(null)).toMatchObject({
      id: 'R1',
      started_at: Date.parse('2026-01-03T00:00:00.000Z'),
      summary: { items_scanned: 1, archived: 0 },
    });
    expect(await store.useCounts('default')).toMatchObject({ events: 1 });
  });

  it('confines an import to its space: lines of another space and store-wide runs fail alone', async () => {
    const { engram, id } = await target();
    const report = await importLines(
      engram,
      [
        useEvent('U1', id),
        baseLine(id, 1.2, 'alice'),
        setting({ enabled: true }, '2026-01-03T00:00:00.000Z', 'alice'),
        conversation('c-1', '2026-01-03T00:00:00.000Z', 'alice'),
        run('R1', null),
        run('R2', 'alice'),
        run('R3', 'default'),
      ],
      { space: 'default', confine: true },
    );
    expect(errorsOf(report)).toEqual(
      [2, 3, 4, 5, 6].map((line) => ({ line, code: 'INVALID_INPUT', field: 'space' })),
    );
    expect(report.imported).toBe(2);
    expect(await engram.autoRecallSettings({ space: 'alice' })).toMatchObject({ enabled: false });
  });
});
