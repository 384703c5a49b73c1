/**
 * ANN parameter sweep for the vector channel (`npm run bench:scale -- --ann-params N`): embeds N
 * synthetic memories with the static embedder, builds hnswlib-node HNSW indexes with several
 * (m, ef_construction) pairs and measures build rate, index size, query latency and recall@10
 * of the exactly re-scored top 10 against the exact scan, for several candidate counts and
 * ef_search values. This is the measurement behind the `store.ann` defaults.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import hnswlib from 'hnswlib-node';

import { StaticEmbedder } from '../../src/embed/static/static-embedder.js';
import { memories, queries } from './corpus.js';
import { percentile } from './stats.js';

/** One measured configuration. */
export interface AnnSweepRow {
  m: number;
  ef_construction: number;
  build_items_per_s: number;
  index_bytes: number;
  candidates: number;
  ef_search: number;
  recall_at_10: number;
  p50_ms: number;
  p95_ms: number;
  exact_sort_p50_ms: number;
}

async function embedAll(embedder: StaticEmbedder, texts: string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += 1000) {
    const vectors = await embedder.embed(texts.slice(i, i + 1000));
    for (const v of vectors) if (v) out.push(v);
  }
  return out;
}

function score(matrix: Float32Array, dim: number, q: Float32Array, id: number): number {
  let s = 0;
  for (let d = 0; d < dim; d++) s += matrix[id * dim + d]! * q[d]!;
  return s;
}

/** The k-th best exact score: a candidate at least this good counts as a true neighbour (ties). */
function exactKth(matrix: Float32Array, dim: number, q: Float32Array, k: number): number {
  const n = matrix.length / dim;
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) scores[i] = score(matrix, dim, q, i);
  return scores.sort().at(-k)!;
}

function rescore(matrix: Float32Array, dim: number, q: Float32Array, ids: number[], k: number) {
  return ids
    .map((id) => ({ id, s: score(matrix, dim, q, id) }))
    .sort((a, b) => b.s - a.s || a.id - b.id)
    .slice(0, k);
}

/** Runs the sweep over `n` memories and returns one row per configuration. */
export async function annSweep(n: number, cacheDir: string): Promise<AnnSweepRow[]> {
  const embedder = new StaticEmbedder({ cacheDir });
  const texts = [...memories(42, n)].map((m) => `${m.body}\n${m.tags.join(' ')}`);
  const vectors = await embedAll(embedder, texts);
  const queryVectors = (await embedder.embed(queries(42, 300))).filter(
    (v): v is Float32Array => v !== null,
  );
  await embedder.close();
  const dim = vectors[0]!.length;
  const matrix = new Float32Array(vectors.length * dim);
  vectors.forEach((v, i) => matrix.set(v, i * dim));
  const exactTimes: number[] = [];
  const truth = queryVectors.map((q) => {
    const t = performance.now();
    const kth = exactKth(matrix, dim, q, 10);
    exactTimes.push(performance.now() - t);
    return kth;
  });
  const rows: AnnSweepRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'engram-ann-sweep-'));
  try {
    for (const [m, efc] of [
      [16, 100],
      [16, 200],
      [24, 100],
      [32, 100],
    ] as const) {
      const index = new hnswlib.HierarchicalNSW('ip', dim);
      index.initIndex({ maxElements: vectors.length, m, efConstruction: efc, randomSeed: 100 });
      const t = performance.now();
      vectors.forEach((v, i) => index.addPoint(Array.from(v), i));
      const buildMs = performance.now() - t;
      const file = join(dir, `m${m}-${efc}.hnsw`);
      index.writeIndexSync(file);
      const bytes = statSync(file).size;
      for (const [candidates, ef] of [
        [100, 100],
        [100, 200],
        [200, 200],
        [200, 400],
      ] as const) {
        index.setEf(ef);
        const times: number[] = [];
        let hit = 0;
        queryVectors.forEach((q, qi) => {
          const s = performance.now();
          const found = index.searchKnn(Array.from(q), candidates).neighbors;
          const top = rescore(matrix, dim, q, found, 10);
          times.push(performance.now() - s);
          hit += top.filter((x) => x.s >= truth[qi]! - 1e-6).length / 10;
        });
        rows.push({
          m,
          ef_construction: efc,
          build_items_per_s: Math.round(vectors.length / (buildMs / 1000)),
          index_bytes: bytes,
          candidates,
          ef_search: ef,
          recall_at_10: hit / queryVectors.length,
          p50_ms: percentile(times, 0.5),
          p95_ms: percentile(times, 0.95),
          exact_sort_p50_ms: percentile(exactTimes, 0.5),
        });
        console.error(JSON.stringify(rows[rows.length - 1]));
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}
