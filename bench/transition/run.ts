/**
 * Model transition benchmark (§8): `npx tsx bench/transition/run.ts [--n 100000] [--quick]`.
 * On a store of n synthetic memories (built once; every run starts from a fresh copy), it measures:
 * 1. rebuild throughput into a new model (the static variant `static:sif_a=0.01`, and an
 *    OpenAI-compatible stand-in server at 384 dimensions), each alone in a fresh process;
 * 2. recall latency without and during a rebuild, side by side in one run: a serving process
 *    recalling while another process rebuilds, and one process doing both;
 * 3. the swap: every call the rebuild makes is timed, and direct swaps between two complete models.
 * SQLite always; PostgreSQL too when ENGRAM_BENCH_PG_URL or ENGRAM_TEST_PG_URL is set (a new
 * schema per run, built and dropped there). Results: bench/results/transition-<date>.{md,json}.
 *
 * Options: --n (100000), --pg-n (25000: PostgreSQL at 100k would take the run far past 20
 * minutes), --repeats (3: throughput runs of the static variant on SQLite), --openai-repeats (1),
 * --pg-repeats (1: throughput runs per model on PostgreSQL), --recall-repeats (2: cross-process
 * runs with the static variant on SQLite), --baseline-s (12), --after-s (8), --think-ms (10),
 * --swap-rounds (3), --seed (42), --only sqlite|postgres, --no-pg, --dir (work folder; default a
 * temporary one, removed after), --reuse (reuse a SQLite base store already built in --dir),
 * --out (bench/results), --quick (n 10000, PostgreSQL 5000, one run each, 5 s windows: a smoke
 * run of a few minutes, written to transition-<date>-quick.{md,json}), --render FILE.json (write
 * the markdown of a recorded run again). The defaults take about 20 minutes on a shared 2-core
 * machine.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { machineFacts } from '../lib/machine.js';
import { runPhase } from './processes.js';
import { type BackendResult, renderReport, type TransitionReport } from './report.js';
import {
  crossProcess,
  inProcess,
  type ModelKind,
  type RecallRun,
  type ScenarioOptions,
  sqliteTarget,
  type Target,
  throughput,
  type ThroughputRun,
} from './scenarios.js';
import { type BuildFacts, dropSchema, pgVersion, STORE_FILE, type StoreConfig } from './setup.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const log = (message: string) =>
  process.stderr.write(`bench:transition ${new Date().toISOString().slice(11, 19)} ${message}\n`);

const { values: args } = parseArgs({
  options: {
    n: { type: 'string' },
    'pg-n': { type: 'string' },
    repeats: { type: 'string' },
    'openai-repeats': { type: 'string' },
    'pg-repeats': { type: 'string' },
    'recall-repeats': { type: 'string' },
    'baseline-s': { type: 'string' },
    'after-s': { type: 'string' },
    'think-ms': { type: 'string' },
    'swap-rounds': { type: 'string' },
    seed: { type: 'string' },
    only: { type: 'string' },
    'no-pg': { type: 'boolean', default: false },
    dir: { type: 'string' },
    reuse: { type: 'boolean', default: false },
    out: { type: 'string' },
    quick: { type: 'boolean', default: false },
    render: { type: 'string' },
  },
});

const quick = args.quick;
const num = (value: string | undefined, full: number, short: number) =>
  value === undefined ? (quick ? short : full) : Number(value);
const N = num(args.n, 100_000, 10_000);
const PG_N = num(args['pg-n'], Math.min(N, 25_000), Math.min(N, 5_000));
const REPEATS = num(args.repeats, 3, 1);
const OPENAI_REPEATS = num(args['openai-repeats'], 1, 1);
const PG_REPEATS = num(args['pg-repeats'], 1, 1);
const RECALL_REPEATS = num(args['recall-repeats'], 2, 1);
const PG_URL =
  args['no-pg'] || args.only === 'sqlite'
    ? undefined
    : (process.env.ENGRAM_BENCH_PG_URL ?? process.env.ENGRAM_TEST_PG_URL);

const options: ScenarioOptions = {
  seed: num(args.seed, 42, 42),
  thinkMs: num(args['think-ms'], 10, 10),
  baselineMs: num(args['baseline-s'], 12, 5) * 1000,
  afterMs: num(args['after-s'], 8, 5) * 1000,
  swapRounds: num(args['swap-rounds'], 3, 2),
  openaiBatch: 256,
  openaiDimension: 384,
  staticChoice: 'static:sif_a=0.01',
  openaiModel: 'bench-embed-384',
};

/** The base SQLite store: built in `dir/base-<n>`, or reused from there with --reuse. */
async function sqliteBase(dir: string): Promise<{ baseDir: string; build: BuildFacts }> {
  const baseDir = join(dir, `base-${N}`);
  const facts = join(dir, `base-${N}.json`);
  if (args.reuse && existsSync(facts) && existsSync(join(baseDir, STORE_FILE))) {
    log(`sqlite: reusing the base store in ${baseDir}`);
    return { baseDir, build: JSON.parse(readFileSync(facts, 'utf8')) as BuildFacts };
  }
  rmSync(baseDir, { recursive: true, force: true });
  mkdirSync(baseDir, { recursive: true });
  log(`sqlite: building the base store of ${N} memories`);
  const store: StoreConfig = { path: join(baseDir, STORE_FILE) };
  const build = await runPhase<BuildFacts>({ phase: 'build', store, n: N, seed: options.seed });
  writeFileSync(facts, JSON.stringify(build));
  return { baseDir, build };
}

/**
 * A PostgreSQL target: a new schema built for every run and dropped after it (a schema reused
 * after a transition keeps state a fresh store lacks, e.g. the pruned model's index).
 */
function postgresTarget(url: string, builds: BuildFacts[]): Target {
  const tag = randomBytes(4).toString('hex');
  let runs = 0;
  return {
    backend: 'postgres',
    async fresh() {
      const schema = `bench_transition_${tag}_${runs++}`;
      const store: StoreConfig = { backend: 'postgres', url, schema };
      log(`postgres: building ${PG_N} memories in schema ${schema}`);
      try {
        builds.push(
          await runPhase<BuildFacts>({ phase: 'build', store, n: PG_N, seed: options.seed }),
        );
      } catch (err) {
        await dropSchema(url, schema).catch(() => null);
        throw err;
      }
      return { store, release: () => dropSchema(url, schema) };
    },
  };
}

const KINDS: ModelKind[] = ['static', 'openai'];
type RecallPlan = [ModelKind, RecallRun['mode']][];

/** The throughput runs: `repeats` per model, models alternating. */
async function throughputRuns(target: Target, repeats: Record<ModelKind, number>) {
  const runs: ThroughputRun[] = [];
  for (let i = 0; i < Math.max(...Object.values(repeats)); i++)
    for (const kind of KINDS) {
      if (i >= repeats[kind]) continue;
      log(`${target.backend}: throughput, ${kind} rebuild, run ${i + 1}`);
      const r = await throughput(target, kind, `throughput-${kind}-${i}`, options);
      const swap = r.timing.swap_calls.find((c) => c.swapped);
      log(
        `  fill ${r.timing.items_per_s} items/s, index ${r.timing.index_calls[0]?.ms ?? '-'} ms, swap ${swap?.ms} ms`,
      );
      runs.push(r);
    }
  return runs;
}

async function recallRuns(target: Target, plan: RecallPlan) {
  const runs: RecallRun[] = [];
  for (const [i, [kind, mode]] of plan.entries()) {
    log(`${target.backend}: recall ${mode}, ${kind} rebuild (${i + 1}/${plan.length})`);
    const run = mode === 'cross-process' ? crossProcess : inProcess;
    const r = await run(target, kind, `recall-${mode}-${kind}-${i}`, options);
    const w = r.windows;
    log(
      `  p95 ${w.baseline.p95_ms} -> ${w.during.p95_ms} ms (x${w.p95_ratio}), max ${w.during.max_ms} ms`,
    );
    runs.push(r);
  }
  return runs;
}

/** The recall runs on SQLite: cross-process with the static variant (repeated), then the others. */
function sqlitePlan(repeats: number): RecallPlan {
  const plan: RecallPlan = [];
  for (let i = 0; i < repeats; i++) plan.push(['static', 'cross-process']);
  plan.push(['openai', 'cross-process'], ['static', 'in-process']);
  return plan;
}

async function onSqlite(dir: string): Promise<BackendResult> {
  const base = await sqliteBase(dir);
  const target = sqliteTarget(base.baseDir, dir);
  return {
    build: base.build,
    throughput: await throughputRuns(target, { static: REPEATS, openai: OPENAI_REPEATS }),
    recall: await recallRuns(target, sqlitePlan(RECALL_REPEATS)),
  };
}

async function onPostgres(url: string): Promise<BackendResult | { skipped: string }> {
  const builds: BuildFacts[] = [];
  const target = postgresTarget(url, builds);
  try {
    const throughput = await throughputRuns(target, { static: PG_REPEATS, openai: PG_REPEATS });
    const recall = await recallRuns(target, [['static', 'cross-process']]);
    return { build: builds[0]!, builds, throughput, recall, server: await pgVersion(url) };
  } catch (err) {
    log(`postgres failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return { skipped: `failed: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function write(report: TransitionReport): string {
  const out = resolve(args.out ?? join(ROOT, 'bench', 'results'));
  mkdirSync(out, { recursive: true });
  const suffix = quick ? '-quick' : args.only ? `-${args.only}` : '';
  const base = join(out, `transition-${report.date.slice(0, 10)}${suffix}`);
  writeFileSync(`${base}.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${base}.md`, renderReport(report));
  return base;
}

async function main(): Promise<void> {
  if (args.render) {
    // Writes the markdown of a recorded run again (after a change of the report's layout).
    const report = JSON.parse(readFileSync(args.render, 'utf8')) as TransitionReport;
    writeFileSync(args.render.replace(/\.json$/, '.md'), renderReport(report));
    return;
  }
  const machine = machineFacts();
  const started = performance.now();
  const dir = args.dir
    ? resolve(args.dir)
    : mkdtempSync(join(tmpdir(), 'engram-bench-transition-'));
  try {
    const sqlite = args.only === 'postgres' ? { skipped: '--only postgres' } : await onSqlite(dir);
    const postgres = PG_URL
      ? await onPostgres(PG_URL)
      : {
          skipped:
            args.only === 'sqlite' || args['no-pg']
              ? 'not asked for'
              : 'no ENGRAM_BENCH_PG_URL or ENGRAM_TEST_PG_URL',
        };
    const report: TransitionReport = {
      date: machine.date,
      machine,
      load_average_after: loadavg().map((l) => Math.round(l * 100) / 100),
      wall_s: Math.round((performance.now() - started) / 1000),
      options: {
        n: N,
        pg_n: PG_N,
        repeats: REPEATS,
        openai_repeats: OPENAI_REPEATS,
        pg_repeats: PG_REPEATS,
        recall_repeats: RECALL_REPEATS,
        quick,
        ...options,
      },
      sqlite,
      postgres,
    };
    log(`wrote ${write(report)}.md and .json`);
  } finally {
    if (!args.dir) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(
    `bench:transition failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exitCode = 1;
});
