/**
 * The engram stores of the multilingual benchmark, built and asked through the public API only:
 * one SQLite store per language (every memory stored with its body alone), copied for each
 * configuration so no run sees the access counts another left behind; and, on request, the same
 * memories in a fresh PostgreSQL schema, dropped after the run.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import pg from 'pg';

import { createEngram, type Engram } from '../../src/app.js';
import { silentLogger } from '../../src/domain/log.js';
import { benchCacheDir, openEngram } from '../locomo/engram-store.js';
import type { LanguageSet } from './set.js';

const STORE_FILE = 'engram.db';
const BATCH = 200;

/** An open engram over one language's memories, and the set id of each engram id. */
export interface StoreRun {
  engram: Engram;
  setIdOf: Map<string, string>;
  /** The PostgreSQL schema, for a PostgreSQL run. */
  schema?: string;
  close(): Promise<void>;
}

/** A built, closed SQLite store of one language. */
export interface LanguageStore {
  dir: string;
  setIdOf: Map<string, string>;
  ingestMs: number;
  remove(): void;
}

/**
 * How the memories are written: `batch` through `rememberMany`, `session` through one session
 * handle (as one MCP connection writes: each memory its next turn); each with its body alone and
 * `kind` (the default kind, `note`, unless given).
 */
export interface WriteProtocol {
  writes: 'batch' | 'session';
  kind?: string;
}

/** Stores every memory of the set (body only) and returns the set id of each engram id. */
async function storeAll(
  engram: Engram,
  set: LanguageSet,
  protocol: WriteProtocol,
): Promise<Map<string, string>> {
  const setIdOf = new Map<string, string>();
  const writer = protocol.writes === 'session' ? await engram.writeSession() : engram;
  const kind = protocol.kind === undefined ? {} : { kind: protocol.kind };
  for (let i = 0; i < set.memories.length; i += BATCH) {
    const batch = set.memories.slice(i, i + BATCH);
    const results = await writer.rememberMany(batch.map((m) => ({ body: m.text, ...kind })));
    results.forEach((r, j) => {
      if (!r.ok) throw new Error(`memory ${batch[j]!.id} was refused: ${r.error.message}`);
      setIdOf.set(r.memory.id, batch[j]!.id);
    });
  }
  // Vectors deferred past the write budget are filled now, so every run sees a complete store.
  await engram.backfill();
  return setIdOf;
}

/** Builds one language's SQLite store in a temporary directory and closes it. */
export async function buildLanguageStore(
  set: LanguageSet,
  protocol: WriteProtocol,
): Promise<LanguageStore> {
  const dir = mkdtempSync(join(tmpdir(), `engram-multilingual-${set.lang}-`));
  const started = performance.now();
  const engram = openEngram(join(dir, STORE_FILE));
  const setIdOf = await storeAll(engram, set, protocol);
  await engram.close();
  return {
    dir,
    setIdOf,
    ingestMs: performance.now() - started,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Opens a private copy of a built store. */
export function openStoreCopy(store: LanguageStore): StoreRun {
  const dir = mkdtempSync(join(tmpdir(), 'engram-multilingual-run-'));
  cpSync(store.dir, dir, { recursive: true });
  const engram = openEngram(join(dir, STORE_FILE));
  return {
    engram,
    setIdOf: store.setIdOf,
    close: async () => {
      await engram.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Stores one language's memories in a fresh schema of the PostgreSQL server at `url`. */
export async function postgresStore(
  set: LanguageSet,
  url: string,
  protocol: WriteProtocol,
): Promise<StoreRun> {
  const schema = `bench_multilingual_${set.lang}_${process.pid}`;
  const engram = createEngram({
    config: {
      store: { backend: 'postgres', url, schema },
      embedder: { cache_dir: benchCacheDir() },
    },
    env: {},
    logger: silentLogger,
    background: false,
  });
  const setIdOf = await storeAll(engram, set, protocol);
  return { engram, setIdOf, schema, close: () => engram.close() };
}

/** Drops a benchmark schema. */
export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
