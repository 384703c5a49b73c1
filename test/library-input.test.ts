/**
 * Every public method of the Engram object, called with wrong argument shapes (absent where
 * required, a number, a string, an array where an object is expected, an object where an array
 * is): each is an EngramError INVALID_INPUT naming the argument, never a TypeError or INTERNAL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createEngram, type Engram } from '../src/app.js';
import { isEngramError } from '../src/domain/errors.js';
import { silentLogger } from '../src/domain/log.js';
import { testConfig } from './helpers.js';

/** One argument of a method: a valid value, and the wrong shapes to try in its place. */
interface Param {
  good: () => unknown;
  bad: unknown[];
}

const SHAPES = { number: 42, string: 'text', array: [] as unknown[], object: {}, null: null };

const obj = (good: () => unknown): Param => ({
  good,
  bad: [undefined, SHAPES.number, SHAPES.string, SHAPES.array, SHAPES.null],
});
const optObj = (good: () => unknown = () => undefined): Param => ({
  good,
  bad: [SHAPES.number, SHAPES.string, SHAPES.array, SHAPES.null],
});
const arr = (good: () => unknown): Param => ({
  good,
  bad: [undefined, SHAPES.number, SHAPES.string, SHAPES.object, SHAPES.null],
});
const optArr = (): Param => ({
  good: () => undefined,
  bad: [SHAPES.number, SHAPES.string, SHAPES.object, SHAPES.null],
});
const str = (good: () => unknown): Param => ({
  good,
  bad: [undefined, SHAPES.number, SHAPES.object, SHAPES.array, SHAPES.null],
});
const optStr = (): Param => ({
  good: () => undefined,
  bad: [SHAPES.number, SHAPES.object, SHAPES.array, SHAPES.null],
});
const strOrObj = (good: () => unknown): Param => ({
  good,
  bad: [undefined, SHAPES.number, SHAPES.array, SHAPES.null],
});
const num = (good: () => unknown): Param => ({
  good,
  bad: [undefined, SHAPES.string, SHAPES.object, SHAPES.array, SHAPES.null],
});
const fn = (): Param => ({
  good: () => undefined,
  bad: [SHAPES.number, SHAPES.string, SHAPES.object],
});

let engram: Engram;
let dir = '';
let first = '';
let second = '';
const id = () => str(() => first);

/** The public methods and their arguments. */
const METHODS: Record<string, Param[]> = {
  remember: [obj(() => ({ body: 'a new memory' }))],
  rememberMany: [arr(() => [{ body: 'one more' }]), optObj()],
  writeSession: [optObj()],
  importRecords: [arr(() => []), optArr()],
  get: [id(), optObj()],
  list: [optObj()],
  history: [id(), optObj()],
  relations: [id(), optObj()],
  revise: [id(), obj(() => ({ body: 'revised' }))],
  restoreVersion: [id(), num(() => 1), optObj()],
  forget: [id(), optObj()],
  restore: [id(), optObj()],
  purge: [id(), optObj()],
  pin: [id(), optObj()],
  unpin: [id(), optObj()],
  move: [id(), str(() => 'work'), optObj()],
  tag: [id(), obj(() => ({ add: ['x'] })), optObj()],
  setImportance: [id(), num(() => 0.5), optObj()],
  supersede: [id(), str(() => second), optObj()],
  relate: [id(), str(() => second), optObj()],
  unrelate: [id(), str(() => second), optObj()],
  recall: [obj(() => ({ query: 'memory' }))],
  status: [optObj()],
  prepareModels: [optObj()],
  backfill: [optObj()],
  useModel: [obj(() => ({ model: 'static' }))],
  embedderStatus: [optObj()],
  maintain: [optObj(() => ({ dry_run: true })), fn()],
  review: [optObj()],
  reviewAction: [id(), str(() => 'reinforce'), optObj()],
  observeMemoryUsage: [
    { good: () => [first], bad: [undefined, SHAPES.number, SHAPES.string, SHAPES.null] },
    optArr(),
  ],
  analyzeForRecall: [strOrObj(() => 'what did we decide?'), optArr()],
  processMessage: [strOrObj(() => 'what did we decide?'), optArr(), optStr()],
  configureAutoRecall: [obj(() => ({ enabled: true }))],
  autoRecallSettings: [optObj()],
  autoRecallStats: [optObj()],
  prepareAutoRecall: [optObj()],
  graphStats: [optObj()],
  graphNeighbors: [obj(() => ({ entity: 'x' }))],
  graphMentions: [obj(() => ({ entity: 'x' }))],
  graphEntities: [optObj()],
  graphHubs: [optObj()],
  graphRebuild: [optObj(() => ({ stale_only: true })), fn()],
  dormantReview: [optObj()],
  dormantInspect: [strOrObj(() => 'no-such-event')],
  dormantFeedback: [obj(() => ({ event_id: 'x', feedback: 'useful' }))],
  dormantCalibrate: [optObj()],
  enqueueJob: [obj(() => ({ kind: 'vectors.backfill' }))],
  jobs: [optObj()],
  job: [str(() => 'no-such-job')],
  retryJob: [str(() => 'no-such-job')],
  cancelJob: [str(() => 'no-such-job')],
  jobActivity: [optObj()],
  itemFailures: [optObj()],
  retryItemFailures: [optObj()],
  runJobHere: [obj(() => ({ kind: 'vectors.backfill' })), fn()],
  importSessions: [arr(() => []), optObj()],
  getSession: [str(() => 'no-such-session'), optObj()],
  listSessions: [optObj()],
  searchSessions: [obj(() => ({ query: 'memory' }))],
  purgeSession: [str(() => 'no-such-session'), optObj()],
  dreamPreview: [optObj()],
  dreamRun: [optObj()],
  dreamDiary: [optStr(), optObj()],
  dreamRuns: [optObj()],
  dreamUndo: [str(() => 'no-such-run'), optObj()],
  dreamCalibrate: [optObj()],
  areas: [optObj()],
  insights: [optObj(() => ({ days: 7 }))],
  foldArea: [str(() => 'general'), str(() => 'work'), optObj(() => ({ dry_run: true }))],
  settings: [optObj()],
  changeSettings: [obj(() => ({ 'recall.weights.graph': 1 })), optObj()],
  addWriteObserver: [obj(() => ({}))],
  close: [optObj()],
};

/** Methods that take no argument: nothing to get wrong. */
const NO_ARGUMENTS = [
  'health',
  'startMaintenanceSchedule',
  'dormantIdle',
  'jobSummary',
  'jobWorker',
  'modelsStatus',
  'idle',
  'rollbackModel',
  'pruneModels',
  'startDreamSchedule',
  'spaces',
];

/** Every call of the table: one wrong shape in one place, the other arguments valid. */
function cases(): [string, number, string, unknown][] {
  const out: [string, number, string, unknown][] = [];
  for (const [method, params] of Object.entries(METHODS))
    params.forEach((param, position) =>
      param.bad.forEach((bad) => out.push([method, position, describeShape(bad), bad])),
    );
  return out;
}

function describeShape(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : typeof value;
}

async function call(method: string, position: number, bad: unknown): Promise<unknown> {
  const args = METHODS[method]!.map((p, i) => (i === position ? bad : p.good()));
  while (args.length > position + 1 && args[args.length - 1] === undefined) args.pop();
  const f = (engram as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!;
  return f.apply(engram, args);
}

beforeAll(async () => {
  // One engram for the whole table (the shared helper closes its engrams after every test).
  dir = mkdtempSync(join(tmpdir(), 'engram-input-'));
  const config = testConfig(dir);
  engram = createEngram({
    logger: silentLogger,
    background: false,
    env: {},
    embedder: null,
    config,
  });
  first = (await engram.remember({ body: 'the first memory' })).memory.id;
  second = (await engram.remember({ body: 'the second memory' })).memory.id;
});

afterAll(async () => {
  await engram.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('library input shapes', () => {
  it('covers every public method of the Engram object', () => {
    const methods = Object.entries(engram)
      .filter(([, v]) => typeof v === 'function')
      .map(([k]) => k)
      .sort();
    expect(methods).toEqual([...Object.keys(METHODS), ...NO_ARGUMENTS].sort());
  });

  it.each(cases())('%s: argument %i as %s is INVALID_INPUT', async (method, position, _, bad) => {
    let thrown: unknown;
    try {
      await call(method, position, bad);
    } catch (err) {
      thrown = err;
    }
    expect(thrown, 'no error').toBeDefined();
    expect(thrown instanceof TypeError, String(thrown)).toBe(false);
    expect(isEngramError(thrown), String(thrown)).toBe(true);
    const error = thrown as { code: string; details: { field?: string } };
    expect(error.code, String(thrown)).toBe('INVALID_INPUT');
    expect(error.details.field, String(thrown)).toBeTruthy();
  });

  it('rememberMany with a non-array names the field', async () => {
    await expect(engram.rememberMany({ items: [] } as unknown as unknown[])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'items' },
    });
  });
});
