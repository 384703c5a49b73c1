/**
 * Helpers of the DreamStore contract (test/dream-store.test.ts): store locations opened once per
 * simulated process, runs and diary entries, and items imported with a history of touches.
 */
import { join } from 'node:path';

import { afterEach, expect } from 'vitest';

import type { DreamStage } from '../src/domain/dreams.js';
import { newId } from '../src/domain/ids.js';
import type { ItemRecord } from '../src/domain/records.js';
import type { DreamStore, NewDiaryEntry } from '../src/store/dream-store.js';
import { openPostgresStore } from '../src/store/postgres/postgres-store.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';
import type { Backend } from './backends.js';
import { itemRecord, relationRecord, statusEvent, T0 } from './fixtures/store-records.js';
import { tempDir } from './helpers.js';
import { PG_URL } from './postgres-helpers.js';

/** A store with its dream store. */
export type DreamsStore = Store & { readonly dreams: DreamStore };

const open: DreamsStore[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

/**
 * A fresh store location (on SQLite, `sqlitePath` or a new file); each call of the result opens
 * another connection to it, as another process would (closed after the test).
 */
export function location(backend: Backend, sqlitePath?: string): () => DreamsStore {
  let make: () => DreamsStore;
  if (backend.name === 'sqlite') {
    const path = sqlitePath ?? join(tempDir(), 'engram.db');
    make = () => openSqliteStore({ path });
  } else {
    const { schema } = backend.fresh().store as { schema: string };
    make = () => openPostgresStore({ url: PG_URL!, schema });
  }
  return () => {
    const store = make();
    open.push(store);
    return store;
  };
}

export /** The space the contract runs in. */
const SPACE = 'default';
/** The day the caps are counted on. */
export const DAY1 = '2025-01-01';

/** Starts a run in `space` (all stages unless told). */
export async function start(
  dreams: DreamStore,
  options: { space?: string; stages?: DreamStage[]; at?: number } = {},
) {
  return dreams.createRun({
    id: newId(),
    space: options.space ?? SPACE,
    dry_run: false,
    stages: options.stages ?? ['duplicates', 'conflicts', 'folds', 'stale', 'skills'],
    started_at: options.at ?? T0,
    job_id: null,
  });
}

/** A diary entry of a stage with an outcome. */
export function entry(
  stage: DreamStage,
  outcome: NewDiaryEntry['outcome'],
  at = T0 + 1,
): NewDiaryEntry {
  return {
    stage,
    action: stage === 'stale' ? 'archive' : 'merge',
    outcome,
    reason: `${outcome} by the test`,
    items: [newId(), newId()],
    detail: { similarity: 0.93, before: { a: { status: 'active', version: 2 } } },
    at,
  };
}

/** Imports an item (created at T0 unless told) with versions and status events at these times. */
export async function put(
  store: DreamsStore,
  over: Partial<ItemRecord> = {},
  history: { versions?: number[]; events?: number[] } = {},
): Promise<ItemRecord> {
  const base = itemRecord({ created_at: T0, ...over });
  const times = history.versions ?? [base.created_at];
  const item = { ...base, version: times.length };
  const versions = times.map((at, n) => ({
    item_id: item.id,
    version: n + 1,
    title: null,
    body: item.body,
    tags: [],
    actor: null,
    reason: null,
    created_at: at,
  }));
  const status_events = (history.events ?? []).map((at) => ({
    ...statusEvent('candidate', 'active', at),
    item_id: item.id,
  }));
  expect(await store.importItems([{ item, versions, status_events, vectors: [] }])).toEqual([
    'imported',
  ]);
  return item;
}

/** Links two items (live unless `invalidated_at` is given). */
export async function link(
  store: DreamsStore,
  from: string,
  to: string,
  at: number,
  invalidated?: number,
) {
  const relation = relationRecord(from, to, {
    created_at: at,
    invalidated_at: invalidated ?? null,
  });
  await store.importRelations([relation]);
}
