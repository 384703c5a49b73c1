/**
 * Background worker benchmark (`npm run bench:worker`):
 * 1. Backfill throughput: a store of BENCH_ITEMS (default 100 000) vector-pending memories filled
 *    by 1 worker process, then by 3 processes started at once, each on a fresh copy of the store;
 *    the texts embedded by each process are counted (their sum must equal the items).
 * 2. Job overhead: enqueue + `JobRunner.runNext()` of BENCH_JOBS (default 2 000) no-op jobs, with
 *    enqueue, claim and finish also timed apart; target p50 ≤ 2 ms per job on SQLite.
 * Runs on SQLite, and on PostgreSQL too when BENCH_PG_URL or ENGRAM_TEST_PG_URL is set and the
 * PostgreSQL store keeps jobs (a fresh schema per store, dropped after). Results go to
 * bench/results/worker-<date>.{md,json} with the machine's facts and its load before and after.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { machineFacts } from '../lib/machine.js';
import { type BackfillResult, measureBackfill } from './backfill.js';
import { measureOverhead, type OverheadResult } from './overhead.js';
import { workerReport, type WorkerResults } from './report.js';
import { dropSchema, fillPending, openEngram, pgVersion, type StoreConfig } from './setup.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const DEFAULT_ITEMS = 100_000;
const ITEMS = Number(process.env.BENCH_ITEMS ?? DEFAULT_ITEMS);
const JOBS = Number(process.env.BENCH_JOBS ?? 2_000);
const WARMUP_JOBS = 50;
const PROCESS_COUNTS = [1, 3];
const PG_URL = process.env.BENCH_PG_URL ?? process.env.ENGRAM_TEST_PG_URL;

type Backend = BackfillResult['backend'];

/** Makes fresh stores of one backend and removes them at the end. */
interface StoreMaker {
  backend: Backend;
  fresh(label: string): StoreConfig;
  cleanup(): Promise<void>;
}

const log = (message: string) => process.stderr.write(`bench:worker ${message}\n`);

function sqliteMaker(): StoreMaker {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-worker-'));
  return {
    backend: 'sqlite',
    fresh: (label) => ({ path: join(dir, `${label}.db`) }),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

function postgresMaker(url: string): StoreMaker {
  const tag = randomBytes(4).toString('hex');
  const schemas: string[] = [];
  return {
    backend: 'postgres',
    fresh(label) {
      const schema = `bench_worker_${tag}_${label}`;
      schemas.push(schema);
      return { backend: 'postgres', url, schema };
    },
    cleanup: async () => {
      for (const schema of schemas) await dropSchema(url, schema);
    },
  };
}

/** The PostgreSQL maker when a server is given and its store keeps jobs, else why not. */
async function postgres(): Promise<{
  maker: StoreMaker | null;
  server: string | null;
  skipped: string | null;
}> {
  if (!PG_URL)
    return { maker: null, server: null, skipped: 'no BENCH_PG_URL or ENGRAM_TEST_PG_URL' };
  const maker = postgresMaker(PG_URL);
  const engram = openEngram(maker.fresh('probe'), 'none');
  try {
    const jobs = engram.storeForTransfer.jobs;
    if (!jobs) return { maker: null, server: null, skipped: 'the PostgreSQL store keeps no jobs' };
    await jobs.jobCounts();
    return { maker, server: await pgVersion(PG_URL), skipped: null };
  } catch (err) {
    return {
      maker: null,
      server: null,
      skipped: `the PostgreSQL job store failed: ${String(err)}`,
    };
  } finally {
    await engram.close();
    await maker.cleanup();
  }
}

/** Both process counts on one backend, each on a freshly filled store. */
async function backfillRuns(maker: StoreMaker): Promise<BackfillResult[]> {
  const results: BackfillResult[] = [];
  for (const processes of PROCESS_COUNTS) {
    const store = maker.fresh(`backfill_${processes}`);
    log(`${maker.backend}: writing ${ITEMS} vector-pending memories`);
    const fill = await fillPending(store, ITEMS);
    log(`${maker.backend}: backfill by ${processes} worker process(es)`);
    const result = await measureBackfill(maker.backend, store, ITEMS, processes, fill);
    log(
      `${maker.backend}, ${processes}: ${result.items_per_s.embed_window} items/s, ${result.embedded_total} embedded`,
    );
    results.push(result);
  }
  return results;
}

/** Backfill and overhead on one backend; its stores are removed afterwards. */
async function onBackend(
  maker: StoreMaker,
): Promise<{ backfill: BackfillResult[]; overhead: OverheadResult }> {
  try {
    const backfill = await backfillRuns(maker);
    log(`${maker.backend}: job overhead, ${JOBS} no-op jobs`);
    const overhead = await measureOverhead(
      maker.backend,
      maker.fresh('overhead'),
      JOBS,
      WARMUP_JOBS,
    );
    return { backfill, overhead };
  } finally {
    await maker.cleanup();
  }
}

function write(results: WorkerResults): string {
  const out = join(ROOT, 'bench', 'results');
  mkdirSync(out, { recursive: true });
  const base = join(out, `worker-${results.date.slice(0, 10)}`);
  writeFileSync(`${base}.json`, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(`${base}.md`, workerReport(results));
  return base;
}

async function main(): Promise<void> {
  const machine = machineFacts();
  const pg = await postgres();
  const makers = [sqliteMaker(), ...(pg.maker ? [pg.maker] : [])];
  const backfill: BackfillResult[] = [];
  const overhead: OverheadResult[] = [];
  for (const maker of makers) {
    const r = await onBackend(maker);
    backfill.push(...r.backfill);
    overhead.push(r.overhead);
  }
  const results: WorkerResults = {
    date: machine.date,
    items: ITEMS,
    items_note: process.env.BENCH_ITEMS_NOTE ?? null,
    machine,
    load_average_after: loadavg().map((l) => Math.round(l * 100) / 100),
    postgres: { server: pg.server, skipped: pg.skipped },
    backfill,
    overhead,
  };
  const base = write(results);
  process.stdout.write(workerReport(results));
  log(`wrote ${base}.md and .json`);
}

main().catch((err: unknown) => {
  process.stderr.write(
    `bench:worker failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});
