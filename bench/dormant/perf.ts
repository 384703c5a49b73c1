/**
 * Dormant-recall performance (issue 7): the recall latency a caller sees with shadow evaluation
 * on, against off, at 10k and 100k items, in one run. Both services share one store file (same
 * data, same ordinary index); queries alternate off / shadow so both see the same state.
 *
 * Two schedules per size:
 *  - paced, paired: each query on both services in alternating order, waiting (untimed) for the
 *    evaluation, so no search overlaps one: the latency the caller of a search sees;
 *  - back-to-back: blocks of 20 searches with no pause, off then shadow, so shadow searches
 *    overlap the evaluations of the searches before them (the worst case for a busy caller).
 * It also reports how long evaluations take (the background cost) from the review log.
 *
 *   npx tsx bench/dormant/perf.ts [--sizes 10000,100000] [--queries 200]
 * Writes bench/results/dormant-<date>.md and .json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';

import { createEngram, type Engram } from '../../src/app.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { silentLogger } from '../../src/domain/log.js';
import { memories, queries } from '../scale/corpus.js';
import { percentile, ratio } from '../scale/stats.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CACHE =
  process.env.ENGRAM_TEST_CACHE_DIR ?? join(ROOT, 'node_modules', '.cache', 'engram-test');
const DAY = 86_400_000;
const T0 = Date.parse('2025-01-01T00:00:00Z');

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}

const SIZES = arg('sizes', '10000,100000').split(',').map(Number);
const QUERIES = Number(arg('queries', '200'));

function open(path: string, mode: 'off' | 'shadow', now: () => number): Engram {
  const config: ConfigInput = {
    store: { path },
    embedder: { cache_dir: CACHE },
    dormant_recall: { mode },
  };
  return createEngram({ config, env: {}, logger: silentLogger, background: false, now });
}

async function build(path: string, size: number): Promise<number> {
  const started = performance.now();
  const writer = open(path, 'off', () => T0);
  await writer.prepareModels();
  let batch: unknown[] = [];
  for (const m of memories(7, size)) {
    batch.push(m);
    if (batch.length === 1_000) {
      await writer.rememberMany(batch, { priority: 'background' });
      batch = [];
    }
  }
  if (batch.length) await writer.rememberMany(batch, { priority: 'background' });
  await writer.backfill();
  await writer.close();
  return Math.round(performance.now() - started);
}

async function timed(engram: Engram, query: string): Promise<number> {
  const t = performance.now();
  await engram.recall({ query, k: 5 });
  return performance.now() - t;
}

interface Stats {
  p50: number;
  p95: number;
}
const stats = (xs: number[]): Stats => ({ p50: percentile(xs, 0.5), p95: percentile(xs, 0.95) });

async function runSize(size: number) {
  const dir = mkdtempSync(join(tmpdir(), 'engram-dormant-bench-'));
  try {
    const path = join(dir, 'engram.db');
    const buildMs = await build(path, size);
    const now = () => T0 + 90 * DAY; // every item has been dormant 90 days
    const off = open(path, 'off', now);
    const on = open(path, 'shadow', now);
    await Promise.all([off.prepareModels(), on.prepareModels()]);
    const qs = queries(11, QUERIES);
    // Warm-up: loads the vector mirror / index and the word vectors in both processes' services.
    for (const q of qs.slice(0, 10)) {
      await timed(off, q);
      await timed(on, q);
      await on.dormantIdle();
    }
    // Paced, paired: each query runs on both, in alternating order; no search overlaps an
    // evaluation (the benchmark waits for it, untimed), so the difference is the hook's own cost.
    const paced = { off: [] as number[], on: [] as number[], diff: [] as number[] };
    for (const [i, q] of qs.entries()) {
      let a = 0;
      let b = 0;
      if (i % 2 === 0) {
        a = await timed(off, q);
        b = await timed(on, q);
      } else {
        b = await timed(on, q);
        await on.dormantIdle();
        a = await timed(off, q);
      }
      await on.dormantIdle();
      paced.off.push(a);
      paced.on.push(b);
      paced.diff.push(b - a);
    }
    // Back-to-back in blocks of 20: an off block, then a shadow block whose searches overlap the
    // evaluations of the searches before them; the benchmark drains evaluations between blocks.
    const b2b = { off: [] as number[], on: [] as number[] };
    for (let i = 0; i < qs.length; i += 20) {
      const block = qs.slice(i, i + 20);
      for (const q of block) b2b.off.push(await timed(off, q));
      for (const q of block) b2b.on.push(await timed(on, q));
      await on.dormantIdle();
    }
    const review = await on.dormantReview({ limit: 1_000 });
    const durations = review.events.map((e) => e.duration_ms);
    const outcomes = review.events.reduce<Record<string, number>>(
      (acc, e) => ({ ...acc, [e.outcome]: (acc[e.outcome] ?? 0) + 1 }),
      {},
    );
    const scanned = review.events.map((e) => e.candidate_count);
    await off.close();
    await on.close();
    const p = { off: stats(paced.off), on: stats(paced.on) };
    const b = { off: stats(b2b.off), on: stats(b2b.on) };
    return {
      size,
      // Other work on this shared machine: the 1-minute load average when the size finished.
      load_avg_1m: Math.round(loadavg()[0]! * 100) / 100,
      build_ms: buildMs,
      queries: qs.length,
      paced: {
        ...p,
        paired_difference_p50_ms: percentile(paced.diff, 0.5),
        added_p50_ms: round(p.on.p50 - p.off.p50),
        added_p95_ms: round(p.on.p95 - p.off.p95),
        ratio_p50: ratio(p.on.p50, p.off.p50),
      },
      back_to_back: {
        ...b,
        added_p50_ms: round(b.on.p50 - b.off.p50),
        added_p95_ms: round(b.on.p95 - b.off.p95),
        ratio_p50: ratio(b.on.p50, b.off.p50),
      },
      evaluation: {
        ...stats(durations),
        events: review.events.length,
        outcomes,
        heap_p50: percentile(scanned, 0.5),
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const round = (x: number) => Math.round(x * 100) / 100;

async function main(): Promise<void> {
  const results = [];
  for (const size of SIZES) {
    process.stderr.write(`size ${size}...\n`);
    results.push(await runSize(size));
    process.stderr.write(`${JSON.stringify(results.at(-1))}\n`);
  }
  const date = new Date().toISOString().slice(0, 10);
  const machine = {
    cpus: `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}`,
    memory_gb: Math.round(totalmem() / 2 ** 30),
    free_gb_at_start: Math.round(freemem() / 2 ** 30),
    node: process.version,
    date,
  };
  const json = { machine, queries_per_mode: QUERIES, results };
  const rows = results.map(
    (r) =>
      `| ${r.size.toLocaleString('en')} | ${r.paced.off.p50} / ${r.paced.off.p95} | ${r.paced.on.p50} / ${r.paced.on.p95} | ${r.paced.added_p50_ms} / ${r.paced.added_p95_ms} | **${r.paced.paired_difference_p50_ms}** | ${r.back_to_back.off.p50} / ${r.back_to_back.off.p95} | ${r.back_to_back.on.p50} / ${r.back_to_back.on.p95} | ${r.back_to_back.added_p50_ms} / ${r.back_to_back.added_p95_ms} | ${r.evaluation.p50} / ${r.evaluation.p95} |`,
  );
  const md = [
    `# Dormant recall: added recall latency, ${date}`,
    '',
    `Machine: ${machine.cpus}, ${machine.memory_gb} GiB (shared with other work), node ${machine.node}. Command: \`npx tsx bench/dormant/perf.ts\`.`,
    `Synthetic stores (bench/scale/corpus.ts, seed 7), static GloVe embedder, default configuration (HNSW index for ordinary recall from 20k items), every item 90 days dormant; ${QUERIES} queries (seed 11) per mode, k = 5, after 10 warm-up queries. Latency is caller-visible: from calling \`recall\` to its promise resolving, in ms.`,
    '',
    '| items | paced off p50 / p95 | paced shadow p50 / p95 | added p50 / p95 | median paired difference | back-to-back off p50 / p95 | back-to-back shadow p50 / p95 | added p50 / p95 | evaluation p50 / p95 |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    'Paced: every query runs with shadow off and on, in alternating order, and the benchmark waits (untimed) for each evaluation, so no search overlaps one: this is the latency the caller of a search sees, and the median of the per-query differences (shadow − off) is the cost of the hook itself. Back-to-back: blocks of 20 searches with no pause, an off block then a shadow block whose searches overlap the evaluations of the searches before them (the scan reads 256 rows per page and, between pages, waits while an ordinary recall of the service runs, so an overlapping search waits for the page or step in progress). Evaluation: duration of the background evaluation itself (embedding, exact scan, relevance check, record), from the review log, including the time it spent waiting for searches.',
    '',
    'Target (issue 7): at most 1 ms added at p50 to the caller-visible latency at 100k items.',
    '',
    '```json',
    JSON.stringify(json, null, 2),
    '```',
  ].join('\n');
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'bench', 'results', `dormant-${date}.json`),
    `${JSON.stringify(json, null, 2)}\n`,
  );
  writeFileSync(join(ROOT, 'bench', 'results', `dormant-${date}.md`), `${md}\n`);
  process.stdout.write(`${md}\n`);
}

await main();
