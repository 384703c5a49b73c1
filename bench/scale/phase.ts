/**
 * One phase of the scale benchmark, run in its own process so that its memory (RSS) is its own:
 * `import` fills a store through `rememberMany`; `build` opens it with the HNSW index forced on
 * and recalls until the index is built (then closing saves it); `query` opens it with the exact
 * scan or the index and times recall over the query set (hybrid, each channel alone, and hybrid
 * with the questions naming a time).
 * Everything goes through the public API (`createEngram`). Prints one `@@result <json>` line.
 */
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

import { createEngram, type Engram } from '../../src/app.js';
import { silentLogger } from '../../src/domain/log.js';
import type { RecallResponse } from '../../src/domain/types.js';
import { datedMemories, datedQueries, queries } from './corpus.js';
import { median, percentile } from './stats.js';

/** What the orchestrator asks a phase to do. */
export interface PhaseRequest {
  phase: 'import' | 'build' | 'query';
  store: string;
  size: number;
  seed: number;
  queries: number;
  cacheDir?: string;
  /** For `query`: exact scan only, or the index forced on (min_items 1). */
  vectors?: 'exact' | 'ann';
}

/** Latency summary of one recall mode. */
export interface ModeResult {
  mode: string;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  mean_ms: number;
  /** Median of each `timings_ms` entry of the envelope. */
  timings_median_ms: Record<string, number>;
  /** Responses with a degraded entry, by reason. */
  degraded: Record<string, number>;
  mean_hits: number;
}

/** What the import phase measured. */
export interface ImportResult {
  phase: 'import';
  requested: number;
  created: number;
  duplicates: number;
  errors: number;
  seconds: number;
  /** Everything, from the first batch on. */
  items_per_s: number;
  /** After the first batch (which also loads the entity extractor once per process). */
  steady_items_per_s: number | null;
  first_batch_ms: number;
  vectors_pending: number;
  rss_mb: number;
}

/** What the build phase measured. */
export interface BuildResult {
  phase: 'build';
  first_degraded: string[];
  /** From the first recall (mirror load included) until recall stops reporting the index unusable. */
  serving_s: number;
  /** From the first recall until every vector is in the index. */
  build_s: number;
  rss_mb: number;
  /** Closing waits for the background save of the index (or saves it). */
  close_ms: number;
}

/** What a query phase measured. */
export interface QueryResult {
  phase: 'query';
  vectors: 'exact' | 'ann';
  open_ms: number;
  /** The first recall of the process: loads the vector mirror (and the index file). */
  first_recall_ms: number;
  first_degraded: string[];
  rss_after_load_mb: number;
  /** Seconds from the first recall until the in-memory keyword index answered (null: none). */
  keyword_index_s: number | null;
  /** RSS once the keyword index is built, before the timed queries. */
  rss_after_keyword_index_mb: number;
  rss_after_queries_mb: number;
  modes: ModeResult[];
  /** Vector-only top 10 per query (by vector-channel rank), to compare exact and ANN. */
  vector_top10: string[][];
  close_ms: number;
  /** The machine's 1-minute load average at the end of the phase (it is shared). */
  load_avg_1m: number;
}

const mb = () => Math.round(process.memoryUsage().rss / 1e6);

function open(req: PhaseRequest): Engram {
  const ann =
    req.vectors === 'ann' ? { enabled: true, min_items: 1 } : { enabled: false, min_items: 1 };
  return createEngram({
    env: {},
    logger: silentLogger,
    background: false,
    config: {
      store: { path: req.store, ann },
      embedder: req.cacheDir ? { cache_dir: req.cacheDir } : {},
    },
  });
}

async function runImport(req: PhaseRequest): Promise<ImportResult> {
  const engram = open(req);
  await engram.prepareModels();
  let created = 0;
  let duplicates = 0;
  let errors = 0;
  let batch: unknown[] = [];
  const batchMs: number[] = [];
  const flush = async () => {
    const t = performance.now();
    for (const r of await engram.rememberMany(batch)) {
      if (!r.ok) errors++;
      else if (r.created) created++;
      else duplicates++;
    }
    batchMs.push(performance.now() - t);
    batch = [];
  };
  const started = performance.now();
  for (const memory of datedMemories(req.seed, req.size)) {
    batch.push(memory);
    if (batch.length === engram.config.limits.max_batch_items) await flush();
  }
  if (batch.length) await flush();
  const seconds = (performance.now() - started) / 1000;
  const perBatch = engram.config.limits.max_batch_items;
  // The first batch also loads the entity extractor's language model (once per process).
  const steadyMs = batchMs.slice(1).reduce((a, b) => a + b, 0);
  const steadyItems = Math.max(0, req.size - perBatch);
  const status = await engram.status();
  const rss = mb();
  await engram.close();
  return {
    phase: 'import',
    requested: req.size,
    created,
    duplicates,
    errors,
    seconds: Math.round(seconds * 100) / 100,
    items_per_s: Math.round(req.size / seconds),
    steady_items_per_s: steadyItems > 0 ? Math.round(steadyItems / (steadyMs / 1000)) : null,
    first_batch_ms: Math.round(batchMs[0] ?? 0),
    vectors_pending: status.store.vectors.pending,
    rss_mb: rss,
  };
}

/** Weights for hybrid (the configured defaults) and for each channel alone. */
function modes(engram: Engram): { mode: string; weights?: Record<string, number> }[] {
  // The synthetic questions name no date, so the time channel alone would time an empty answer.
  const channels = Object.keys(engram.config.recall.weights).filter((c) => c !== 'time');
  const alone = (only: string) => Object.fromEntries(channels.map((c) => [c, c === only ? 1 : 0]));
  return [{ mode: 'hybrid' }, ...channels.map((c) => ({ mode: c, weights: alone(c) }))];
}

async function timeMode(
  engram: Engram,
  qs: readonly string[],
  mode: string,
  weights: Record<string, number> | undefined,
): Promise<ModeResult> {
  const times: number[] = [];
  const timings: Record<string, number[]> = {};
  const degraded: Record<string, number> = {};
  let hits = 0;
  for (const query of qs) {
    const t = performance.now();
    const r: RecallResponse = await engram.recall({ query, k: 10, weights });
    times.push(performance.now() - t);
    hits += r.hits.length;
    for (const [k, v] of Object.entries(r.timings_ms)) (timings[k] ??= []).push(v);
    for (const d of r.degraded) degraded[d.reason] = (degraded[d.reason] ?? 0) + 1;
  }
  return {
    mode,
    p50_ms: percentile(times, 0.5),
    p95_ms: percentile(times, 0.95),
    p99_ms: percentile(times, 0.99),
    mean_ms: Math.round((times.reduce((a, b) => a + b, 0) / times.length) * 100) / 100,
    timings_median_ms: Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, median(v)])),
    degraded,
    mean_hits: Math.round((hits / qs.length) * 100) / 100,
  };
}

async function vectorTop10(
  engram: Engram,
  qs: readonly string[],
  weights: Record<string, number>,
): Promise<string[][]> {
  const out: string[][] = [];
  for (const query of qs) {
    const r = await engram.recall({ query, k: engram.config.recall.pool, weights });
    out.push(
      r.hits
        .filter((h) => (h.channels.vector ?? Infinity) <= 10)
        .sort((a, b) => a.channels.vector! - b.channels.vector!)
        .map((h) => h.id),
    );
  }
  return out;
}

const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;

/**
 * Recalls until the vector channel stops reporting the index as unusable (it then serves from
 * the index plus an exact scan of what is not in it yet), then until `status` shows nothing
 * pending. Returns both times in seconds.
 */
async function awaitIndex(engram: Engram, query: string, since: number) {
  for (;;) {
    const r = await engram.recall({ query, k: 1 });
    if (!r.degraded.some((d) => d.reason.startsWith('ann_'))) break;
    await sleep(250);
  }
  const serving = seconds(since);
  for (;;) {
    await engram.recall({ query, k: 1 });
    const index = (await engram.status()).store.vector_index?.[0];
    if (!index || index.pending === 0) break;
    await sleep(250);
  }
  return { serving, built: seconds(since) };
}

/**
 * Waits until `status` shows the in-memory keyword index answering; seconds since `since`. Polls
 * every 2 s: a status counts every item (a fifth of a second at 1M), time the build would lose.
 */
async function awaitKeywordIndex(engram: Engram, since: number): Promise<number | null> {
  for (;;) {
    const index = (await engram.status()).store.keyword_index;
    if (!index) return null;
    if (index.state === 'ready' && index.pending === 0) return seconds(since);
    await sleep(2_000);
  }
}

async function runBuild(req: PhaseRequest): Promise<BuildResult> {
  const [query] = queries(req.seed, 1);
  const engram = open({ ...req, vectors: 'ann' });
  await engram.prepareModels();
  const t = performance.now();
  const first = await engram.recall({ query: query!, k: 10 });
  const build = await awaitIndex(engram, query!, t);
  const rss = mb();
  const closing = performance.now();
  await engram.close();
  return {
    phase: 'build',
    first_degraded: first.degraded.map((d) => `${d.channel}:${d.reason}`),
    serving_s: build.serving,
    build_s: build.built,
    rss_mb: rss,
    close_ms: Math.round(performance.now() - closing),
  };
}

async function runQuery(req: PhaseRequest): Promise<QueryResult> {
  const qs = queries(req.seed, req.queries);
  let t = performance.now();
  const engram = open(req);
  await engram.prepareModels();
  const openMs = performance.now() - t;
  t = performance.now();
  const first = await engram.recall({ query: qs[0]!, k: 10 });
  const firstMs = performance.now() - t;
  const rssLoad = mb();
  // The first keyword search starts the in-memory keyword index; time only once it answers.
  const keywordIndexS = await awaitKeywordIndex(engram, t);
  const rssKeywords = mb();
  for (const query of qs.slice(0, 20)) await engram.recall({ query, k: 10 });
  const results: ModeResult[] = [];
  for (const { mode, weights } of modes(engram))
    results.push(await timeMode(engram, qs, mode, weights));
  // Hybrid again with the same questions naming a day, a month or a year (the time channel on).
  results.push(
    await timeMode(engram, datedQueries(req.seed, req.queries), 'hybrid_dated', undefined),
  );
  // Hybrid once more, now that the process has answered every mode above (JIT, caches, the keyword
  // index's garbage collected), as a long-running service answers: questions of another seed, none
  // asked before in the process.
  const asked = new Set(qs);
  const fresh = [...new Set(queries(req.seed + 2, req.queries * 4))].filter((q) => !asked.has(q));
  results.push(await timeMode(engram, fresh.slice(0, req.queries), 'hybrid_steady', undefined));
  const vectorOnly = modes(engram).find((m) => m.mode === 'vector')!.weights!;
  const top10 = await vectorTop10(engram, qs, vectorOnly);
  const rssQueries = mb();
  t = performance.now();
  await engram.close();
  return {
    phase: 'query',
    vectors: req.vectors ?? 'exact',
    open_ms: Math.round(openMs),
    first_recall_ms: Math.round(firstMs),
    first_degraded: first.degraded.map((d) => `${d.channel}:${d.reason}`),
    rss_after_load_mb: rssLoad,
    keyword_index_s: keywordIndexS,
    rss_after_keyword_index_mb: rssKeywords,
    rss_after_queries_mb: rssQueries,
    modes: results,
    vector_top10: top10,
    close_ms: Math.round(performance.now() - t),
    load_avg_1m: Math.round(loadavg()[0]! * 100) / 100,
  };
}

const request = JSON.parse(process.argv[2] ?? '{}') as PhaseRequest;
const result =
  request.phase === 'import'
    ? await runImport(request)
    : request.phase === 'build'
      ? await runBuild(request)
      : await runQuery(request);
process.stdout.write(`@@result ${JSON.stringify(result)}\n`);
