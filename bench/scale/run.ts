/**
 * The scale benchmark (`npm run bench:scale -- --sizes 10000,100000[,1000000]`): for each size,
 * a synthetic store of realistic memories is imported through the public API, then opened once
 * with the exact vector scan and once with the HNSW index (each in a fresh process, so RSS is
 * the phase's own), and recall is timed over a few hundred realistic queries: hybrid and each
 * channel alone. Reports import rate, p50/p95/p99, ANN recall@10 against exact, RSS and store
 * size, side by side, in bench/results/scale-<date>.md and .json with the machine's facts.
 *
 * Options: --sizes, --queries (300), --seed (42), --rounds (3: exact and HNSW phases alternate
 * this many times and every number is the median over rounds), --dir (stores; default a temp dir),
 * --reuse (reuse stores and indexes already built there, with their recorded import and build
 * measurements), --cache-dir (embedder cache),
 * --out (bench/results), --ann-params N (also run the HNSW parameter sweep on N memories).
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { ANN_DEFAULTS } from '../../src/store/sqlite/ann-search.js';
import { annSweep, type AnnSweepRow } from './ann-params.js';
import type { BuildResult, ImportResult, ModeResult, PhaseRequest, QueryResult } from './phase.js';
import { renderMarkdown } from './report.js';
import { median, ratio } from './stats.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** A query phase over several rounds: medians across rounds (per-round p95 kept). */
export interface RoundsResult extends Omit<QueryResult, 'vector_top10' | 'modes' | 'load_avg_1m'> {
  rounds: number;
  load_avg_1m: number[];
  modes: (ModeResult & { p95_by_round_ms: number[] })[];
}

/** Everything measured at one size. */
export interface SizeResult {
  size: number;
  /** When this size was measured, and on what code (runs of one day merge into one file). */
  measured_at: string;
  commit: string;
  import: ImportResult;
  build: BuildResult;
  exact: RoundsResult;
  ann: RoundsResult;
  /** Mean over queries of |ANN top 10 ∩ exact top 10| / |exact top 10| (vector channel alone). */
  ann_recall_at_10: number;
  /** Which vector path the default configuration uses at this size. */
  default_vectors: 'exact' | 'ann';
  disk: { store_bytes: number; wal_bytes: number; index_bytes: number };
  ratios: Record<string, number | null>;
  targets: Target[];
}

/** One target of the issues, checked against this run. */
export interface Target {
  name: string;
  limit: string;
  value: number;
  met: boolean;
}

/** The whole run, as written to JSON. */
export interface ScaleReport {
  date: string;
  machine: {
    cpu: string;
    cores: number;
    ram_gb: number;
    node: string;
    platform: string;
    load_avg_start: number[];
    load_avg_end: number[];
  };
  commit: string;
  options: { sizes: number[]; queries: number; seed: number; rounds: number };
  ann_defaults: typeof ANN_DEFAULTS;
  sizes: SizeResult[];
  ann_sweep?: { items: number; rows: AnnSweepRow[] };
  notes: string[];
}

function phase<T>(req: PhaseRequest): Promise<T> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      ['--max-old-space-size=8192', '--import', 'tsx', 'bench/scale/phase.ts', JSON.stringify(req)],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('@@result '));
      if (code !== 0 || !line) fail(new Error(`phase ${req.phase} exited ${code}:\n${out}`));
      else done(JSON.parse(line.slice('@@result '.length)) as T);
    });
  });
}

function bytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function diskUse(store: string): SizeResult['disk'] {
  const dir = resolve(store, '..');
  const name = store.slice(dir.length + 1);
  const index = readdirSync(dir)
    .filter((f) => f.startsWith(`${name}.ann-`) && f.endsWith('.hnsw'))
    .reduce((sum, f) => sum + bytes(join(dir, f)), 0);
  return { store_bytes: bytes(store), wal_bytes: bytes(`${store}-wal`), index_bytes: index };
}

function recallAt10(exact: string[][], ann: string[][]): number {
  let sum = 0;
  let n = 0;
  exact.forEach((want, i) => {
    if (want.length === 0) return;
    const got = new Set(ann[i]);
    sum += want.filter((id) => got.has(id)).length / want.length;
    n++;
  });
  return n === 0 ? 0 : Math.round((sum / n) * 1000) / 1000;
}

function mode<M extends ModeResult>(result: { modes: M[] }, name: string): M | undefined {
  return result.modes.find((m) => m.mode === name);
}

function targetsFor(size: number, s: Omit<SizeResult, 'targets'>): Target[] {
  const chosen = s.default_vectors === 'ann' ? s.ann : s.exact;
  const hybrid = mode(chosen, 'hybrid')!.p95_ms;
  const out: Target[] = [
    {
      name: 'import rate (items/s)',
      limit: '>= 2000',
      value: s.import.items_per_s,
      met: s.import.items_per_s >= 2000,
    },
    {
      name: 'ANN recall@10 against exact',
      limit: '>= 0.95',
      value: s.ann_recall_at_10,
      met: s.ann_recall_at_10 >= 0.95,
    },
  ];
  const latency = (limit: number) => ({
    name: `hybrid recall p95, default configuration (${s.default_vectors}) (ms)`,
    limit: `<= ${limit}`,
    value: hybrid,
    met: hybrid <= limit,
  });
  if (size === 10_000) out.push(latency(15));
  if (size === 100_000) out.push(latency(50));
  if (size === 1_000_000) out.push(latency(150));
  return out;
}

async function runSize(
  size: number,
  dir: string,
  opts: { queries: number; seed: number; rounds: number; cacheDir?: string; reuse: boolean },
): Promise<SizeResult> {
  const store = join(dir, `scale-${size}.db`);
  const record = `${store}.import.json`;
  const base = { store, size, seed: opts.seed, queries: opts.queries, cacheDir: opts.cacheDir };
  let imported: ImportResult;
  if (opts.reuse && existsSync(store) && existsSync(record)) {
    imported = JSON.parse(readFileSync(record, 'utf8')) as ImportResult;
    console.error(`[${size}] reusing ${store}`);
  } else {
    for (const f of readdirSync(dir)) if (f.startsWith(`scale-${size}.db`)) rmSync(join(dir, f));
    console.error(`[${size}] importing`);
    imported = await phase<ImportResult>({ ...base, phase: 'import' });
    writeFileSync(record, JSON.stringify(imported));
  }
  const built = `${store}.build.json`;
  let build: BuildResult;
  if (opts.reuse && existsSync(built) && diskUse(store).index_bytes > 0) {
    build = JSON.parse(readFileSync(built, 'utf8')) as BuildResult;
    console.error(`[${size}] reusing the HNSW index built earlier`);
  } else {
    for (const f of readdirSync(dir))
      if (f.startsWith(`scale-${size}.db.ann-`)) rmSync(join(dir, f));
    console.error(`[${size}] building the HNSW index`);
    build = await phase<BuildResult>({ ...base, phase: 'build' });
    writeFileSync(built, JSON.stringify(build));
  }
  // Exact and HNSW phases alternate, so that the shared machine's load falls on both alike.
  const exactRuns: QueryResult[] = [];
  const annRuns: QueryResult[] = [];
  for (let round = 1; round <= opts.rounds; round++) {
    console.error(`[${size}] round ${round}: exact scan`);
    exactRuns.push(await phase<QueryResult>({ ...base, phase: 'query', vectors: 'exact' }));
    console.error(`[${size}] round ${round}: HNSW index`);
    annRuns.push(await phase<QueryResult>({ ...base, phase: 'query', vectors: 'ann' }));
  }
  const exactTop = exactRuns[0]!.vector_top10;
  const annTop = annRuns[0]!.vector_top10;
  const exactRest = combineRounds(exactRuns);
  const annRest = combineRounds(annRuns);
  const ratios: Record<string, number | null> = {};
  for (const m of exactRest.modes) {
    const a = mode(annRest, m.mode);
    if (!a) continue;
    ratios[`${m.mode}_p50_ann_over_exact`] = ratio(a.p50_ms, m.p50_ms);
    ratios[`${m.mode}_p95_ann_over_exact`] = ratio(a.p95_ms, m.p95_ms);
  }
  ratios.rss_ann_over_exact = ratio(annRest.rss_after_queries_mb, exactRest.rss_after_queries_mb);
  const partial = {
    size,
    measured_at: new Date().toISOString(),
    commit: commit(),
    import: imported,
    build,
    exact: exactRest,
    ann: annRest,
    ann_recall_at_10: recallAt10(exactTop, annTop),
    default_vectors: (imported.created >= ANN_DEFAULTS.min_items ? 'ann' : 'exact') as
      | 'exact'
      | 'ann',
    disk: diskUse(store),
    ratios,
  };
  return { ...partial, targets: targetsFor(size, partial) };
}

const mid = (values: number[]) => median(values);

/** One result from several rounds of a phase: the median of every number, per mode too. */
function combineRounds(runs: QueryResult[]): RoundsResult {
  const first = runs[0]!;
  const modes = first.modes.map((m) => {
    const same = runs.map((r) => mode(r, m.mode)!);
    const timingKeys = [...new Set(same.flatMap((s) => Object.keys(s.timings_median_ms)))];
    const degraded: Record<string, number> = {};
    for (const s of same)
      for (const [k, v] of Object.entries(s.degraded)) degraded[k] = (degraded[k] ?? 0) + v;
    return {
      mode: m.mode,
      p50_ms: mid(same.map((s) => s.p50_ms)),
      p95_ms: mid(same.map((s) => s.p95_ms)),
      p99_ms: mid(same.map((s) => s.p99_ms)),
      mean_ms: mid(same.map((s) => s.mean_ms)),
      timings_median_ms: Object.fromEntries(
        timingKeys.map((k) => [k, mid(same.map((s) => s.timings_median_ms[k] ?? 0))]),
      ),
      degraded,
      mean_hits: mid(same.map((s) => s.mean_hits)),
      p95_by_round_ms: same.map((s) => s.p95_ms),
    };
  });
  return {
    phase: 'query',
    vectors: first.vectors,
    rounds: runs.length,
    open_ms: mid(runs.map((r) => r.open_ms)),
    first_recall_ms: mid(runs.map((r) => r.first_recall_ms)),
    first_degraded: [...new Set(runs.flatMap((r) => r.first_degraded))],
    rss_after_load_mb: mid(runs.map((r) => r.rss_after_load_mb)),
    keyword_index_s:
      first.keyword_index_s === null ? null : mid(runs.map((r) => r.keyword_index_s ?? 0)),
    rss_after_keyword_index_mb: mid(runs.map((r) => r.rss_after_keyword_index_mb)),
    rss_after_queries_mb: mid(runs.map((r) => r.rss_after_queries_mb)),
    load_avg_1m: runs.map((r) => r.load_avg_1m),
    modes,
    close_ms: mid(runs.map((r) => r.close_ms)),
  };
}

function commit(): string {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  const dirty = spawnSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' });
  return `${head.stdout.trim()}${dirty.stdout.trim() ? ' (uncommitted changes)' : ''}`;
}

const KEPT_NOTE = 'Measured by earlier runs of the day:';

/**
 * Keeps the sizes measured earlier the same day that this run did not measure (a 1M run is done
 * on its own, late): one results file per day.
 */
function mergeEarlier(report: ScaleReport, file: string): void {
  if (!existsSync(file)) return;
  const earlier = JSON.parse(readFileSync(file, 'utf8')) as ScaleReport;
  const measured = new Set(report.sizes.map((s) => s.size));
  const kept = earlier.sizes.filter((s) => !measured.has(s.size));
  report.sizes = [...kept, ...report.sizes].sort((a, b) => a.size - b.size);
  report.ann_sweep ??= earlier.ann_sweep;
  const own = (n: string) => !n.startsWith(KEPT_NOTE);
  report.notes = [...new Set([...earlier.notes.filter(own), ...report.notes])];
  if (kept.length > 0)
    report.notes.push(
      `${KEPT_NOTE} ${kept.map((s) => `${s.size} at ${s.measured_at.slice(0, 16).replace('T', ' ')} UTC`).join(', ')} (see each section).`,
    );
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '10000,100000' },
      queries: { type: 'string', default: '300' },
      rounds: { type: 'string', default: '3' },
      seed: { type: 'string', default: '42' },
      dir: { type: 'string' },
      reuse: { type: 'boolean', default: false },
      'cache-dir': { type: 'string' },
      out: { type: 'string', default: join(ROOT, 'bench', 'results') },
      'ann-params': { type: 'string' },
      note: { type: 'string', multiple: true },
    },
  });
  const sizes = values.sizes.split(',').map((s) => Number(s.trim()));
  if (sizes.some((s) => !Number.isInteger(s) || s <= 0))
    throw new Error('--sizes: comma-separated positive integers');
  const dir = resolve(values.dir ?? join(tmpdir(), 'engram-scale'));
  mkdirSync(dir, { recursive: true });
  const cacheDir = values['cache-dir'] ? resolve(values['cache-dir']) : undefined;
  const started = new Date();
  const report: ScaleReport = {
    date: started.toISOString(),
    machine: {
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      ram_gb: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      load_avg_start: loadavg().map((l) => Math.round(l * 100) / 100),
      load_avg_end: [],
    },
    commit: commit(),
    options: {
      sizes,
      queries: Number(values.queries),
      seed: Number(values.seed),
      rounds: Math.max(1, Number(values.rounds)),
    },
    ann_defaults: ANN_DEFAULTS,
    sizes: [],
    notes: values.note ?? [],
  };
  for (const size of sizes) {
    report.sizes.push(
      await runSize(size, dir, {
        queries: report.options.queries,
        seed: report.options.seed,
        rounds: report.options.rounds,
        cacheDir,
        reuse: values.reuse,
      }),
    );
  }
  if (values['ann-params']) {
    const items = Number(values['ann-params']);
    console.error(`ANN parameter sweep on ${items} memories`);
    const { defaultCacheDir } = await import('../../src/embed/static/static-embedder.js');
    report.ann_sweep = { items, rows: await annSweep(items, cacheDir ?? defaultCacheDir()) };
  }
  report.machine.load_avg_end = loadavg().map((l) => Math.round(l * 100) / 100);
  mkdirSync(values.out, { recursive: true });
  const stamp = started.toISOString().slice(0, 10);
  const file = join(values.out, `scale-${stamp}`);
  mergeEarlier(report, `${file}.json`);
  writeFileSync(`${file}.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`${file}.md`, renderMarkdown(report));
  console.error(`wrote ${file}.md and ${file}.json`);
}

await main();
