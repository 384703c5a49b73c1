/**
 * The scale benchmark on PostgreSQL beside SQLite, in one run (`npm run bench:postgres`): for each
 * size, the same synthetic corpus is remembered through the public API into a SQLite file and a
 * PostgreSQL schema (embedding included), moved between backends as JSONL (store-bound), and
 * recalled with the same queries: hybrid and each channel alone, PostgreSQL with its default
 * configuration, the exact scan and the HNSW index. recall@10 of the HNSW channel is measured
 * against the exact scan at several ef_search values. Results go to
 * bench/results/postgres-<date>.md and .json with the machine's facts.
 *
 * Options: --sizes (10000,100000), --queries (200), --seed (42), --out (bench/results),
 * --cache-dir (embedder cache). The server is ENGRAM_TEST_PG_URL when set, else a throwaway one
 * started (and stopped) with scripts/ci/postgres.sh.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import pg from 'pg';

import { defaultCacheDir, loadConfig } from '../../src/config/load.js';
import { StaticEmbedder } from '../../src/embed/static/static-embedder.js';
import type { PostgresStore } from '../../src/store/postgres/postgres-store.js';
import { queries as makeQueries } from '../scale/corpus.js';
import { ratio } from '../scale/stats.js';
import {
  engram,
  exportAll,
  hnswRecall,
  type HnswRow,
  type Latency,
  type Rate,
  recallLatency,
  rememberAll,
  transfer,
} from './measure.js';
import { renderMarkdown } from './report.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'ci', 'postgres.sh');
/** The configured defaults of `store.ann`, which the PostgreSQL store applies to pgvector. */
const ANN = loadConfig({ env: {} }).store.ann;
const EF_VALUES = [...new Set([40, 100, 400, ANN.postgres_ef_search, 1_000])].sort((a, b) => a - b);

/** Everything measured at one size. */
export interface SizeResult {
  size: number;
  remember: { sqlite: Rate; postgres: Rate };
  /** Seconds to build the PostgreSQL HNSW index over the remembered store (CONCURRENTLY). */
  index_build_s: number;
  transfer: { sqlite: Rate; postgres: Rate };
  recall: Record<
    'sqlite' | 'postgres_default' | 'postgres_exact' | 'postgres_hnsw',
    Record<string, Latency & { degraded: number }>
  >;
  hnsw: { exact: Latency; rows: HnswRow[] };
  store_bytes: { sqlite: number; postgres: number | null };
  ratios: Record<string, number | null>;
}

/** The whole run. */
export interface PostgresReport {
  date: string;
  machine: {
    cpu: string;
    cores: number;
    ram_gb: number;
    node: string;
    load_avg_start: number[];
    load_avg_end: number[];
  };
  server: string;
  commit: string;
  options: { sizes: number[]; queries: number; seed: number };
  ann: typeof ANN;
  sizes: SizeResult[];
}

function server(): { url: string; stop(): void } {
  if (process.env.ENGRAM_TEST_PG_URL) return { url: process.env.ENGRAM_TEST_PG_URL, stop() {} };
  const state = join(mkdtempSync(join(tmpdir(), 'engram-bench-pg-')), 'state');
  const run = spawnSync('bash', [SCRIPT, 'start', '--state', state], { encoding: 'utf8' });
  const url = /ENGRAM_TEST_PG_URL=(\S+)/.exec(run.stdout)?.[1]?.replace(/^'|'$/g, '');
  if (run.status !== 0 || !url) throw new Error(`could not start PostgreSQL: ${run.stderr}`);
  return { url, stop: () => void spawnSync('bash', [SCRIPT, 'stop', '--state', state]) };
}

async function serverVersion(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const v = await client.query<{ v: string; e: string }>(
      "SELECT current_setting('server_version') AS v, (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS e",
    );
    return `PostgreSQL ${v.rows[0]!.v}, pgvector ${v.rows[0]!.e}`;
  } finally {
    await client.end();
  }
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => client.end());
}

/**
 * Recalls until the vector channel stops reporting its approximate index unusable and `status`
 * shows no vector waiting to be added to it (bounded): the index is served before it is fully
 * built, and a build still running in the background would compete with the timed recalls.
 */
async function untilIndexed(target: ReturnType<typeof engram>): Promise<void> {
  const deadline = Date.now() + 600_000;
  while (Date.now() < deadline) {
    const r = await target.recall({ query: 'index warm-up', k: 1 });
    const index = (await target.status()).store.vector_index?.[0];
    if (!r.degraded.some((d) => d.reason.startsWith('ann_')) && (!index || index.pending === 0))
      return;
    await new Promise((done) => setTimeout(done, 500));
  }
  throw new Error('the SQLite HNSW index was not built within 10 minutes');
}

async function vacuumAnalyze(url: string, schemas: readonly string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const schema of schemas)
      for (const table of ['items', 'vectors', 'versions'])
        await client.query(`VACUUM ANALYZE "${schema}".${table}`);
  } finally {
    await client.end();
  }
}

async function runSize(
  size: number,
  url: string,
  opts: { seed: number; queries: string[]; cacheDir?: string; embedder: StaticEmbedder },
): Promise<SizeResult> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-'));
  const tag = randomBytes(4).toString('hex');
  const schema = `bench_${size}_${tag}`;
  const moved = `bench_${size}_${tag}_moved`;
  const pgStore = (extra: Record<string, unknown> = {}) =>
    engram({ store: { backend: 'postgres', url, schema, ...extra } }, opts.cacheDir);
  try {
    const log = (m: string) => console.error(`[${size}] ${m}`);
    const sqlite = engram({ store: { path: join(dir, 'engram.db') } }, opts.cacheDir);
    log('remember into SQLite');
    const rememberSqlite = await rememberAll(sqlite, opts.seed, size);
    const postgres = pgStore();
    log('remember into PostgreSQL');
    const rememberPg = await rememberAll(postgres, opts.seed, size);
    log('build the HNSW index');
    const building = performance.now();
    if (!(await (postgres.storeForTransfer as PostgresStore).buildVectorIndex()))
      throw new Error('the HNSW index could not be built');
    const indexBuild = Math.round((performance.now() - building) / 100) / 10;

    log('move the SQLite export into a fresh PostgreSQL schema and a fresh SQLite file');
    const lines = await exportAll(sqlite);
    const pgMoved = engram({ store: { backend: 'postgres', url, schema: moved } }, opts.cacheDir);
    const transferPg = await transfer(pgMoved, lines);
    await pgMoved.close();
    const liteMoved = engram({ store: { path: join(dir, 'moved.db') } }, opts.cacheDir);
    const transferSqlite = await transfer(liteMoved, lines);
    await liteMoved.close();
    lines.length = 0;

    // Bulk loads leave PostgreSQL's planner statistics stale until autovacuum gets to them (and
    // autovacuum would then run during the timed recalls): analyse both schemas first, as an
    // operator would after a bulk load.
    log('VACUUM ANALYZE');
    await vacuumAnalyze(url, [schema, moved]);
    log('recall latency');
    const timed = async (target: ReturnType<typeof pgStore>) => {
      try {
        return await recallLatency(target, opts.queries);
      } finally {
        await target.close();
      }
    };
    // Recall runs on freshly opened stores: closing the importing ones waits for their background
    // upkeep (knowledge-graph extraction), which would otherwise compete with the timed recalls;
    // SQLite's HNSW index is built before timing, as bench/scale does.
    await sqlite.close();
    await postgres.close();
    const sqliteRun = engram({ store: { path: join(dir, 'engram.db') } }, opts.cacheDir);
    log('SQLite HNSW index');
    await untilIndexed(sqliteRun);
    const postgresRun = pgStore();
    const recall = {
      sqlite: await recallLatency(sqliteRun, opts.queries),
      postgres_default: await recallLatency(postgresRun, opts.queries),
      postgres_exact: await timed(pgStore({ ann: { enabled: false } })),
      postgres_hnsw: await timed(pgStore({ ann: { min_items: 1 } })),
    };
    log('HNSW recall@10 against the exact scan');
    const hnsw = await hnswRecall(
      url,
      schema,
      opts.embedder,
      opts.queries,
      EF_VALUES,
      ANN.m,
      ANN.postgres_ef_construction,
    );
    const stats = await postgresRun.status();
    const sqliteBytes = statSync(join(dir, 'engram.db')).size;
    await sqliteRun.close();
    await postgresRun.close();
    const ratios: Record<string, number | null> = {
      remember_rate_pg_over_sqlite: ratio(rememberPg.items_per_s, rememberSqlite.items_per_s),
      transfer_rate_pg_over_sqlite: ratio(transferPg.items_per_s, transferSqlite.items_per_s),
    };
    for (const mode of ['first_pass', 'hybrid', 'vector', 'keyword']) {
      ratios[`${mode}_p50_pg_over_sqlite`] = ratio(
        recall.postgres_default[mode]!.p50_ms,
        recall.sqlite[mode]!.p50_ms,
      );
      ratios[`${mode}_p95_pg_over_sqlite`] = ratio(
        recall.postgres_default[mode]!.p95_ms,
        recall.sqlite[mode]!.p95_ms,
      );
    }
    return {
      size,
      remember: { sqlite: rememberSqlite, postgres: rememberPg },
      index_build_s: indexBuild,
      transfer: { sqlite: transferSqlite, postgres: transferPg },
      recall,
      hnsw,
      store_bytes: { sqlite: sqliteBytes, postgres: stats.store.size_bytes },
      ratios,
    };
  } finally {
    await dropSchema(url, schema);
    await dropSchema(url, moved);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '10000,100000' },
      queries: { type: 'string', default: '200' },
      seed: { type: 'string', default: '42' },
      out: { type: 'string', default: join(ROOT, 'bench', 'results') },
      'cache-dir': { type: 'string' },
    },
  });
  const sizes = values.sizes.split(',').map(Number);
  const seed = Number(values.seed);
  const queries = makeQueries(seed, Number(values.queries));
  const loadStart = loadavg().map((l) => Math.round(l * 100) / 100);
  const pgServer = server();
  const embedder = new StaticEmbedder({ cacheDir: values['cache-dir'] ?? defaultCacheDir() });
  try {
    await embedder.prepare();
    const results: SizeResult[] = [];
    for (const size of sizes)
      results.push(
        await runSize(size, pgServer.url, {
          seed,
          queries,
          cacheDir: values['cache-dir'],
          embedder,
        }),
      );
    const report: PostgresReport = {
      date: new Date().toISOString(),
      machine: {
        cpu: cpus()[0]?.model ?? 'unknown',
        cores: cpus().length,
        ram_gb: Math.round(totalmem() / 2 ** 30),
        node: process.version,
        load_avg_start: loadStart,
        load_avg_end: loadavg().map((l) => Math.round(l * 100) / 100),
      },
      server: await serverVersion(pgServer.url),
      commit: spawnSync('git', ['rev-parse', '--short', 'HEAD'], {
        cwd: ROOT,
        encoding: 'utf8',
      }).stdout.trim(),
      options: { sizes, queries: queries.length, seed },
      ann: ANN,
      sizes: results,
    };
    mkdirSync(values.out, { recursive: true });
    const base = join(values.out, `postgres-${report.date.slice(0, 10)}`);
    writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(`${base}.md`, renderMarkdown(report));
    console.error(`wrote ${base}.md and .json`);
  } finally {
    await embedder.close();
    pgServer.stop();
  }
}

await main();
