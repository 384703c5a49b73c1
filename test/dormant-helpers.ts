/** Helpers of the dormant-recall tests: a shadow-mode engram with a movable clock, raw table reads. */
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach } from 'vitest';

import { assembleEngram, type Engram } from '../src/app.js';
import { loadConfig } from '../src/config/load.js';
import type { ConfigInput } from '../src/config/schema.js';
import type { RememberInput } from '../src/domain/input.js';
import { type Logger, silentLogger } from '../src/domain/log.js';
import { EmbeddingQueue } from '../src/embed/queue.js';
import { StaticEmbedder } from '../src/embed/static/static-embedder.js';
import { ModelEmbedders } from '../src/models/embedders.js';
import { VectorSupply } from '../src/models/supply.js';
import type { RelevanceDocument, RelevanceScorer } from '../src/retrieval/rerank/relevance.js';
import { configuredScorer, wordVectorSource } from '../src/retrieval/rerank/scorers.js';
import { DAY_MS } from '../src/store/dormant/profile.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { tempDir, testConfig, testEngram } from './helpers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function onCleanup(fn: () => Promise<void>): void {
  cleanups.push(fn);
}

/** Start of every test clock. */
export const T0 = Date.parse('2025-01-01T00:00:00Z');

/** A movable test clock. */
export interface Clock {
  now: () => number;
  set(ms: number): void;
  advanceDays(days: number): void;
}

/** A clock starting at T0. */
export function clock(start = T0): Clock {
  let t = start;
  return {
    now: () => t,
    set: (ms) => (t = ms),
    advanceDays: (days) => (t += days * DAY_MS),
  };
}

/** Dormant settings used by most tests (the shipped defaults except where a test says). */
export function shadow(extra: ConfigInput['dormant_recall'] = {}): ConfigInput['dormant_recall'] {
  return { mode: 'shadow', ...extra };
}

/** A shadow-mode engram on a fresh store with its own clock. */
export function dormantEngram(
  options: { dir?: string; clock?: Clock; config?: ConfigInput } = {},
): { engram: Engram; clock: Clock; dir: string; path: string } {
  const dir = options.dir ?? tempDir();
  const c = options.clock ?? clock();
  const config: ConfigInput = {
    ...options.config,
    dormant_recall: options.config?.dormant_recall ?? shadow(),
    graph: { enabled: false, ...options.config?.graph },
  };
  const engram = testEngram({ dir, now: c.now, config });
  return { engram, clock: c, dir, path: join(dir, 'engram.db') };
}

/** The search of the standard scene. */
export const QUERY = 'how to restart the staging database server after a crash';
/** The dormant memory the standard scene's search should surface. */
export const TARGET =
  'To restart the staging database server after a crash, run the recover-db script on the bastion host.';
/** The fresh memory ordinary recall returns first for QUERY. */
export const FRESH =
  'How to restart the staging database server after a crash: follow the recovery runbook.';
/** Memories unrelated to QUERY. */
export const OTHERS: RememberInput[] = [
  { kind: 'preference', body: 'Alice prefers green tea in the afternoon.' },
  { kind: 'note', body: 'The quarterly budget review happens in March.' },
  { kind: 'fact', body: 'Grandmother knitted a blue scarf for the winter.' },
];

/**
 * The standard scene: a dormant target (a fact, with `target` overrides) and `others` written
 * now, then, `days` later, a fresh memory that ordinary recall returns first (k=1), so the
 * target is left out.
 */
export async function scene(
  engram: Engram,
  clock: Clock,
  days = 60,
  target: Partial<RememberInput> = {},
  others: readonly RememberInput[] = OTHERS,
): Promise<{ target: string; fresh: string }> {
  const [id] = await rememberAll(engram, [{ kind: 'fact', body: TARGET, ...target }, ...others]);
  clock.advanceDays(days);
  const [fresh] = await rememberAll(engram, [{ kind: 'fact', body: FRESH }]);
  return { target: id!, fresh: fresh! };
}

/** The newest dormant event of the default space. */
export async function lastEvent(engram: Engram) {
  const [event] = (await engram.dormantReview({ limit: 1 })).events;
  return event!;
}

/** Remembers memories and returns their ids in order. */
export async function rememberAll(
  engram: Engram,
  inputs: readonly RememberInput[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const input of inputs) ids.push((await engram.remember(input)).memory.id);
  return ids;
}

/** Runs one recall and waits until its shadow evaluation has been recorded. */
export async function search(engram: Engram, query: string, k = 1) {
  const response = await engram.recall({ query, k });
  await engram.dormantIdle();
  return response;
}

/** Every row of a table, read with a separate connection (empty when the table does not exist). */
export function rows(path: string, table: string): Record<string, unknown>[] {
  const db = new Database(path, { readonly: true });
  try {
    const exists = db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(table);
    return exists ? (db.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[]) : [];
  } finally {
    db.close();
  }
}

/** Runs SQL on the store file directly (to age rows or break the shadow tables on purpose). */
export function exec(path: string, sql: string, ...params: unknown[]): void {
  const db = new Database(path);
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

/** The ordinary fields of §9.3 that dormant recall must never change. */
export function ordinaryFields(path: string): Record<string, unknown>[] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare(
        'SELECT id, access_count, last_accessed_at, importance, strength, use_count, last_used_at, updated_at, version FROM items ORDER BY id',
      )
      .all() as Record<string, unknown>[];
  } finally {
    db.close();
  }
}

/** A relevance scorer test double: scores by memory text through `judge`, counting its calls. */
export class ScorerDouble implements RelevanceScorer {
  readonly name = 'double';
  calls: { query: string; ids: string[] }[] = [];

  constructor(private readonly judge: (text: string, id: string) => number | Promise<number>) {}

  async score(query: string, documents: readonly RelevanceDocument[]): Promise<number[]> {
    this.calls.push({ query, ids: documents.map((d) => d.id) });
    return Promise.all(documents.map((d) => this.judge(d.text, d.id)));
  }
}

/**
 * A shadow-mode engram wired like createEngram but with the given dormant relevance scorer (a
 * test double, or null for "no scorer can run here").
 */
export function engramWithScorer(
  scorer: RelevanceScorer | null,
  options: { dir?: string; clock?: Clock; config?: ConfigInput; log?: Logger } = {},
): { engram: Engram; clock: Clock; dir: string; path: string } {
  const dir = options.dir ?? tempDir();
  const c = options.clock ?? clock();
  const config = loadConfig({
    env: {},
    overrides: testConfig(dir, {
      ...options.config,
      dormant_recall: options.config?.dormant_recall ?? shadow(),
      graph: { enabled: false },
    }),
  });
  const log = options.log ?? silentLogger;
  const store = openSqliteStore({ path: config.store.path!, ann: config.store.ann });
  const embedder = new StaticEmbedder({ cacheDir: config.embedder.cache_dir! });
  const vectors = new VectorSupply(
    store,
    new ModelEmbedders(embedder, undefined, log),
    new EmbeddingQueue(embedder),
    config,
    log,
    false,
  );
  const engram = assembleEngram({
    config,
    store,
    vectors,
    log,
    now: c.now,
    relevance: configuredScorer(config.recall.rerank, wordVectorSource(embedder)),
    dormantRelevance: scorer,
  });
  onCleanup(() => engram.close());
  return { engram, clock: c, dir, path: join(dir, 'engram.db') };
}

/** A logger that keeps every line (to check what failures report). */
export function memoryLogger(): Logger & { lines: { message: string; fields?: unknown }[] } {
  const lines: { message: string; fields?: unknown }[] = [];
  const keep = (message: string, fields?: Record<string, unknown>) =>
    lines.push({ message, fields });
  return { lines, info: keep, warn: keep, error: keep };
}
