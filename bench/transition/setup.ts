/**
 * Stores and configuration of the transition benchmark: the configuration every process opens a
 * store with, the base store (synthetic memories remembered with the built-in static model, its
 * HNSW index built and saved), copies of it per scenario, and throwaway PostgreSQL schemas.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

import pg from 'pg';

import { createEngram, type Engram } from '../../src/app.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { silentLogger } from '../../src/domain/log.js';
import type { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { datedMemories } from '../scale/corpus.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** The store section of a configuration: a SQLite file or a PostgreSQL schema. */
export type StoreConfig = NonNullable<ConfigInput['store']>;

/** What every process of the benchmark is opened with besides its store. */
export interface OpenOptions {
  /** Texts per request to the OpenAI-compatible stand-in (`embedder.openai.batch_size`). */
  openaiBatch: number;
  /** The stand-in's API root, for the process that chooses the `openai:` model. */
  openaiUrl?: string;
}

/** Rows written per `rememberMany` call while building (the default `limits.max_batch_items`). */
const BATCH = 1_000;

/** The shared word-vector cache of the tests when present (skips building it again). */
export function cacheDir(): string | undefined {
  const test = join(ROOT, 'node_modules', '.cache', 'engram-test');
  return existsSync(test) ? test : undefined;
}

/**
 * The configuration of every engram the benchmark opens: the defaults (static model, graph on,
 * HNSW above 20k vectors) with the job worker off, so no process picks up the rebuild by itself:
 * the benchmark decides which process runs it.
 */
export function benchConfig(store: StoreConfig, options: OpenOptions): ConfigInput {
  const cache = cacheDir();
  return {
    store,
    embedder: {
      provider: 'static',
      ...(cache ? { cache_dir: cache } : {}),
      openai: {
        batch_size: options.openaiBatch,
        ...(options.openaiUrl ? { base_url: options.openaiUrl } : {}),
      },
    },
    worker: { enabled: false },
  };
}

/** An engram over `store` without background work or log output. */
export function openBench(store: StoreConfig, options: OpenOptions): Engram {
  return createEngram({
    config: benchConfig(store, options),
    env: {},
    logger: silentLogger,
    background: false,
  });
}

/** The i-th memory of the store: the scale corpus, a duplicate body made unique by a suffix. */
export function* uniqueMemories(seed: number, count: number) {
  const seen = new Set<string>();
  let i = 0;
  for (const m of datedMemories(seed, count)) {
    const body = seen.has(m.body) ? `${m.body.slice(0, -1)} (note ${i}).` : m.body;
    seen.add(body);
    i++;
    yield { ...m, body };
  }
}

/** How the base store was built. */
export interface BuildFacts {
  items: number;
  remember_s: number;
  remember_items_per_s: number;
  /** Building (and, on SQLite, saving) the published model's HNSW index. */
  index_s: number;
  published_model: string;
}

const seconds = (since: number) => Math.round((performance.now() - since) / 10) / 100;

/** Remembers `count` memories in batches; throws unless every one was created. */
async function rememberAll(engram: Engram, seed: number, count: number): Promise<void> {
  let created = 0;
  let batch: unknown[] = [];
  const flush = async () => {
    for (const r of await engram.rememberMany(batch, { strict: true }))
      if (r.ok && r.created) created++;
    batch = [];
  };
  for (const memory of uniqueMemories(seed, count)) {
    batch.push(memory);
    if (batch.length === BATCH) await flush();
  }
  if (batch.length) await flush();
  if (created !== count) throw new Error(`remembered ${created} memories, not ${count}`);
}

/** Builds the published model's HNSW index now (SQLite: and saves it beside the file). */
async function buildIndex(engram: Engram, model: string, dimension: number): Promise<void> {
  const store = engram.storeForTransfer as Partial<SqliteStore & PostgresStore>;
  if (store.vectorIndex) await store.vectorIndex.flush(model, dimension);
  else if (store.buildVectorIndex && !(await store.buildVectorIndex()))
    throw new Error('the PostgreSQL HNSW index could not be built');
}

/** Fills a new store with `count` memories, vectors and the HNSW index of the static model. */
export async function buildBase(
  store: StoreConfig,
  count: number,
  seed: number,
): Promise<BuildFacts> {
  const engram = openBench(store, { openaiBatch: 64 });
  try {
    await engram.prepareModels();
    const started = performance.now();
    await rememberAll(engram, seed, count);
    const rememberS = seconds(started);
    const status = await engram.status();
    if ((status.store.vectors.pending ?? 0) > 0)
      throw new Error(`${status.store.vectors.pending} items were left vector-pending`);
    const model = (await engram.modelsStatus()).published!;
    const indexed = performance.now();
    await buildIndex(engram, model.id, model.dimension);
    return {
      items: count,
      remember_s: rememberS,
      remember_items_per_s: Math.round(count / rememberS),
      index_s: seconds(indexed),
      published_model: model.id,
    };
  } finally {
    await engram.close();
  }
}

/** The file every SQLite scenario opens, in its own folder (index files beside it). */
export const STORE_FILE = 'store.db';

/**
 * Copies a SQLite store folder (the file, its WAL and its saved HNSW index files) into a new
 * folder; the index keeps its name because it is named after the store file, which keeps its own.
 */
export function copyStore(from: string, to: string): string {
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) copyFileSync(join(from, name), join(to, name));
  return join(to, STORE_FILE);
}

/** Runs one statement on a PostgreSQL server. */
async function pgQuery<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Drops a benchmark's PostgreSQL schema. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  await pgQuery(url, `DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/** The server's PostgreSQL and pgvector versions. */
export async function pgVersion(url: string): Promise<string> {
  const [row] = await pgQuery<{ v: string; e: string | null }>(
    url,
    "SELECT current_setting('server_version') AS v, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS e",
  );
  return `PostgreSQL ${row!.v}, pgvector ${row!.e ?? 'none'}`;
}
