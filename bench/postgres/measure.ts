/**
 * Measurements of the PostgreSQL benchmark: importing the synthetic corpus through the public API,
 * moving it between backends as JSONL, timing recall per mode, and recall@10 of the HNSW channel
 * against the exact scan at several ef_search values.
 */
import { createEngram, type Engram } from '../../src/app.js';
import type { ConfigInput } from '../../src/config/schema.js';
import type { ItemFilter } from '../../src/domain/filter.js';
import { silentLogger } from '../../src/domain/log.js';
import type { StaticEmbedder } from '../../src/embed/static/static-embedder.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import { exportLines, importLines } from '../../src/transfer/transfer.js';
import { memories } from '../scale/corpus.js';
import { percentile } from '../scale/stats.js';

/** Latency summary of one recall mode. */
export interface Latency {
  p50_ms: number;
  p95_ms: number;
  mean_ms: number;
}

/** Rate of one import. */
export interface Rate {
  items: number;
  seconds: number;
  items_per_s: number;
}

const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** An engram for the benchmark (no background work, no log output). */
export function engram(config: ConfigInput, cacheDir: string | undefined): Engram {
  return createEngram({
    env: {},
    logger: silentLogger,
    background: false,
    config: { ...config, embedder: cacheDir ? { cache_dir: cacheDir } : {} },
  });
}

/** Imports `size` synthetic memories through `rememberMany` (embedding included). */
export async function rememberAll(target: Engram, seed: number, size: number): Promise<Rate> {
  await target.prepareModels();
  await target.status();
  let batch: unknown[] = [];
  let errors = 0;
  const flush = async () => {
    for (const r of await target.rememberMany(batch)) if (!r.ok) errors++;
    batch = [];
  };
  const started = performance.now();
  for (const memory of memories(seed, size)) {
    batch.push(memory);
    if (batch.length === 1000) await flush();
  }
  if (batch.length) await flush();
  if (errors) throw new Error(`${errors} memories failed to import`);
  const seconds = (performance.now() - started) / 1000;
  return { items: size, seconds: round(seconds), items_per_s: Math.round(size / seconds) };
}

/** The whole store as export lines (header included). */
export async function exportAll(source: Engram): Promise<string[]> {
  const out: string[] = [];
  for await (const line of exportLines(source, null)) out.push(line);
  return out;
}

/** Imports export lines (vectors carried, nothing embedded): the store-bound move rate. */
export async function transfer(target: Engram, lines: readonly string[]): Promise<Rate> {
  await target.status();
  const started = performance.now();
  const report = await importLines(target, lines, { batchSize: 1000 });
  const seconds = (performance.now() - started) / 1000;
  if (report.error)
    throw new Error(`${report.error} lines failed: ${JSON.stringify(report.errors[0])}`);
  return {
    items: report.imported,
    seconds: round(seconds),
    items_per_s: Math.round(report.imported / seconds),
  };
}

function summary(times: number[]): Latency {
  return {
    p50_ms: percentile(times, 0.5),
    p95_ms: percentile(times, 0.95),
    mean_ms: round(times.reduce((a, b) => a + b, 0) / times.length),
  };
}

/**
 * Recall latency (k = 10) for hybrid and each channel alone; the first call warms up. The first
 * hybrid pass (`first_pass`: every query new to the process and to the server's caches, and each
 * keyword term's document frequency counted the first time it is seen) is timed apart from the
 * second (`hybrid`), the steady state of a long-running server, which the channel passes share.
 */
export async function recallLatency(
  target: Engram,
  queries: readonly string[],
): Promise<Record<string, Latency & { degraded: number }>> {
  const modes: [string, Record<string, number> | undefined][] = [
    ['first_pass', undefined],
    ['hybrid', undefined],
    ['vector', { keyword: 0, vector: 1 }],
    ['keyword', { keyword: 1, vector: 0 }],
  ];
  await target.recall({ query: queries[0]!, k: 10 });
  const out: Record<string, Latency & { degraded: number }> = {};
  for (const [mode, weights] of modes) {
    const times: number[] = [];
    let degraded = 0;
    for (const query of queries) {
      const t = performance.now();
      const r = await target.recall({ query, k: 10, weights });
      times.push(performance.now() - t);
      if (r.degraded.length) degraded++;
    }
    out[mode] = { ...summary(times), degraded };
  }
  return out;
}

/** One ef_search setting of the HNSW channel against the exact scan. */
export interface HnswRow {
  ef_search: number;
  recall_at_10: number;
  p50_ms: number;
  p95_ms: number;
}

/** recall@10 and latency of the store's HNSW channel against its exact scan, per ef_search. */
export async function hnswRecall(
  url: string,
  schema: string,
  embedder: StaticEmbedder,
  queries: readonly string[],
  efValues: readonly number[],
  m: number,
  efConstruction: number,
): Promise<{ exact: Latency; rows: HnswRow[] }> {
  const filter: ItemFilter = { space: 'default', statuses: ['active', 'challenged'] };
  const vectors = (await embedder.embed(queries)).filter((v): v is Float32Array => v !== null);
  const model = embedder.modelId;
  const exactStore = openPostgresStore({ url, schema, hnsw: { exactBelow: Infinity } });
  // The exact 10th-best score per query: an ANN hit at least that good is a true neighbour, so
  // ties at the boundary (templated sentences share vectors) do not count as misses.
  const kth: number[] = [];
  const exactTimes: number[] = [];
  for (const v of vectors) {
    const t = performance.now();
    const hits = await exactStore.vectorSearch(filter, model, v, 10);
    exactTimes.push(performance.now() - t);
    kth.push(hits.length === 10 ? hits[9]!.score : -Infinity);
  }
  await exactStore.close();
  const rows: HnswRow[] = [];
  for (const ef of efValues) {
    const store = openPostgresStore({
      url,
      schema,
      hnsw: { exactBelow: 1, efSearch: ef, m, efConstruction },
    });
    await store.vectorSearch(filter, model, vectors[0]!, 10);
    const times: number[] = [];
    let found = 0;
    let wanted = 0;
    for (const [i, v] of vectors.entries()) {
      const t = performance.now();
      const hits = await store.vectorSearch(filter, model, v, 10);
      times.push(performance.now() - t);
      found += hits.filter((h) => h.score >= kth[i]! - 1e-9).length;
      wanted += 10;
    }
    await store.close();
    const { p50_ms, p95_ms } = summary(times);
    rows.push({ ef_search: ef, recall_at_10: round(found / wanted, 4), p50_ms, p95_ms });
  }
  return { exact: summary(exactTimes), rows };
}
