/**
 * Stores for the worker benchmark: the configuration every process opens a store with, a store
 * filled with vector-pending memories (written without an embedder, so nothing is embedded), the
 * static model published over them, and a throwaway PostgreSQL schema.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

import pg from 'pg';

import { createEngram, type Engram } from '../../src/app.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { silentLogger } from '../../src/domain/log.js';
import type { Embedder } from '../../src/embed/embedder.js';
import { memories } from '../scale/corpus.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** The store section of a configuration (a SQLite file or a PostgreSQL schema). */
export type StoreConfig = NonNullable<ConfigInput['store']>;

/** Rows written per `rememberMany` call while filling. */
const BATCH = 1_000;

/** The shared word-vector cache of the tests when present (skips building it again). */
export function cacheDir(): string | undefined {
  const test = join(ROOT, 'node_modules', '.cache', 'engram-test');
  return existsSync(test) ? test : undefined;
}

/**
 * The configuration of every engram the benchmark opens: the graph is off, so that neither the
 * writes nor the workers' periodic checks queue graph work beside the backfill being measured.
 */
export function benchConfig(store: StoreConfig, embedder: 'static' | 'none'): ConfigInput {
  const cache = cacheDir();
  return {
    store,
    embedder: { provider: embedder, ...(cache ? { cache_dir: cache } : {}) },
    graph: { enabled: false },
  };
}

/** An engram over `store` without background work or log output. */
export function openEngram(
  store: StoreConfig,
  embedder: 'static' | 'none',
  custom?: Embedder,
): Engram {
  return createEngram({
    config: benchConfig(store, embedder),
    env: {},
    logger: silentLogger,
    background: false,
    ...(custom ? { embedder: custom } : {}),
  });
}

/** The i-th memory of the benchmark: the scale corpus, made unique so no write is a duplicate. */
function* bodies(count: number) {
  let i = 0;
  for (const m of memories(42, count)) yield { ...m, body: `${m.body} (note ${i++})` };
}

/** Writes `count` memories with no embedder (all vector-pending); returns seconds taken. */
export async function fillPending(store: StoreConfig, count: number): Promise<number> {
  const engram = openEngram(store, 'none');
  const started = performance.now();
  let created = 0;
  let batch: unknown[] = [];
  const flush = async () => {
    for (const r of await engram.rememberMany(batch, { strict: true }))
      if (r.ok && r.created) created++;
    batch = [];
  };
  try {
    for (const memory of bodies(count)) {
      batch.push(memory);
      if (batch.length === BATCH) await flush();
    }
    if (batch.length) await flush();
  } finally {
    await engram.close();
  }
  if (created !== count) throw new Error(`filled ${created} memories, not ${count}`);
  return Math.round((performance.now() - started) / 10) / 100;
}

/** Vector states of a store's items (opened with the static embedder). */
export async function vectorStates(store: StoreConfig): Promise<Record<string, number>> {
  const engram = openEngram(store, 'static');
  try {
    return (await engram.status()).store.vectors;
  } finally {
    await engram.close();
  }
}

/**
 * Reopens the filled store with the static embedder and publishes its model (`status` does), so
 * the workers find every item pending under the published model and nobody publishes during the
 * timed run; returns seconds taken and the vector states then.
 */
export async function publishStatic(
  store: StoreConfig,
): Promise<{ seconds: number; vectors: Record<string, number> }> {
  const engram = openEngram(store, 'static');
  const started = performance.now();
  try {
    await engram.prepareModels();
    const status = await engram.status();
    if (!status.published_model) throw new Error('the static model was not published');
    const seconds = Math.round((performance.now() - started) / 10) / 100;
    return { seconds, vectors: status.store.vectors };
  } finally {
    await engram.close();
  }
}

/** Runs one statement on a PostgreSQL server. */
async function pgQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

/** Drops a benchmark's PostgreSQL schema. */
export function dropSchema(url: string, schema: string): Promise<void> {
  return pgQuery(url, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/** The server's PostgreSQL and pgvector versions. */
export async function pgVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const v = await client.query<{ v: string; e: string | null }>(
      "SELECT current_setting('server_version') AS v, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS e",
    );
    return `PostgreSQL ${v.rows[0]!.v}, pgvector ${v.rows[0]!.e ?? 'none'}`;
  } finally {
    await client.end();
  }
}
