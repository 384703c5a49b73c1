/**
 * Nearest-neighbour pairs over the unit vectors of one dream run, never all pairs of a large set:
 * exact dot products for small sets (faster there, and exact), an in-memory HNSW graph
 * (hnswlib-node, inner-product space) above. The index lives for one call; nothing is written.
 * The search yields to the event loop as it goes, so a serving process keeps answering, and stops
 * when asked, saying that what it returns is incomplete.
 */
import { createRequire } from 'node:module';

import type hnswlib from 'hnswlib-node';

import { invalidInput } from '../domain/errors.js';
import { dot } from '../embed/embedder.js';

// The native addon is required on the first large search, not imported: most runs stay exact.
const require = createRequire(import.meta.url);

/**
 * Largest n² × dimension searched exactly. Measured on a 2-core EPYC, k 5: exact and HNSW break even
 * near 1,000 vectors of 100 dimensions (167 vs 176 ms) and 500 of 384 (227 vs 212 ms); at 2,000
 * of 100, HNSW takes 0.5 s and exact 0.7 s, at 4,000 1.5 s against 5 s.
 */
export const EXACT_WORK = 1_000 * 1_000 * 100;

/** True when `n` vectors of `dimension` are searched exactly rather than through a graph. */
export function searchesExactly(n: number, dimension: number): boolean {
  return n * n * dimension <= EXACT_WORK;
}

/**
 * HNSW parameters for a one-off batch: a small graph, searched once per vector. Duplicates sit far
 * above the cut-off (0.9) and word keys add the pairs a vector misses, so a coarser graph loses
 * nothing: on the 100k synthetic corpus m 12 / 64 / 64 -> 8 / 48 / 32 took the duplicate search
 * from 44 to 37 s at equal merge recall (0.858; bench/hygiene).
 */
export const BATCH_HNSW = Object.freeze({ m: 8, efConstruction: 48, ef: 32 });

/** Vectors inserted or queried between two yields to the event loop. */
const GRAPH_STEP = 1_000;
/** Dot products between two yields of the exact search (a few milliseconds of work). */
const EXACT_STEP = 200_000;

/** A vector to pair: an item id and its unit vector (all of one dimension). */
export interface VectorEntry {
  id: string;
  vector: Float32Array;
}

/** Two entries (`a` the one given first) and the cosine of their vectors. */
export interface NeighbourPair {
  a: string;
  b: string;
  similarity: number;
}

/** What a search found; `complete: false` when `shouldStop` cut it short (the pairs are then partial). */
export interface NeighbourPairs {
  pairs: NeighbourPair[];
  complete: boolean;
  method: 'exact' | 'hnsw';
  /** Entries whose neighbours were looked up. */
  queried: number;
}

/** Options of nearestPairs. */
export interface NeighbourOptions {
  /** Neighbours looked at per entry. */
  k: number;
  /** Pairs below this cosine are dropped. */
  minSimilarity: number;
  /** Polled between steps; true stops the search. */
  shouldStop?: () => boolean;
  /** Force a method (tests and benchmarks); default: exact while `searchesExactly`. */
  method?: 'exact' | 'hnsw';
}

/**
 * Each entry's k nearest other entries at or above minSimilarity, as unordered pairs listed once,
 * best first (ties by ids).
 */
export async function nearestPairs(
  entries: readonly VectorEntry[],
  options: NeighbourOptions,
): Promise<NeighbourPairs> {
  checkDimensions(entries);
  const dimension = entries[0]?.vector.length ?? 0;
  const method = options.method ?? (searchesExactly(entries.length, dimension) ? 'exact' : 'hnsw');
  const lists = entries.map(() => new TopK(options.k));
  const search = method === 'exact' ? exactSearch : graphSearch;
  const { complete, queried } =
    entries.length < 2 || options.k < 1
      ? { complete: true, queried: entries.length }
      : await search(entries, lists, options);
  return { pairs: pairsOf(entries, lists, options.minSimilarity), complete, method, queried };
}

function checkDimensions(entries: readonly VectorEntry[]): void {
  const dimension = entries[0]?.vector.length;
  if (entries.some((e) => e.vector.length !== dimension))
    throw invalidInput('vector', 'same_dimension', 'every vector of a search has one dimension');
}

/** The best k (cosine, index) of one entry, kept sorted best first. */
class TopK {
  readonly sims: number[] = [];
  readonly ids: number[] = [];

  constructor(private readonly k: number) {}

  offer(sim: number, id: number): void {
    const n = this.sims.length;
    if (n >= this.k && sim <= this.sims[n - 1]!) return;
    let i = n;
    while (i > 0 && this.sims[i - 1]! < sim) i--;
    this.sims.splice(i, 0, sim);
    this.ids.splice(i, 0, id);
    if (this.sims.length > this.k) {
      this.sims.pop();
      this.ids.pop();
    }
  }
}

type Search = (
  entries: readonly VectorEntry[],
  lists: TopK[],
  options: NeighbourOptions,
) => Promise<{ complete: boolean; queried: number }>;

const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Every pair once (row i against the rows after it), feeding both entries' lists. */
const exactSearch: Search = async (entries, lists, options) => {
  let work = 0;
  const floor = options.minSimilarity;
  for (let i = 0; i < entries.length; i++) {
    const v = entries[i]!.vector;
    for (let j = i + 1; j < entries.length; j++) {
      const sim = dot(v, entries[j]!.vector);
      if (sim < floor) continue;
      lists[i]!.offer(sim, j);
      lists[j]!.offer(sim, i);
    }
    work += entries.length - i;
    if (work >= EXACT_STEP) {
      work = 0;
      await pause();
      // Rows done so far are complete for themselves; later entries have only part of their list.
      if (options.shouldStop?.()) return { complete: false, queried: i + 1 };
    }
  }
  return { complete: true, queried: entries.length };
};

/** Builds a graph of every entry, then asks it for each entry's k + 1 nearest (itself among them). */
const graphSearch: Search = async (entries, lists, options) => {
  const graph = newGraph(entries);
  for (let i = 0; i < entries.length; i++) {
    graph.addPoint(Array.from(entries[i]!.vector), i);
    if ((i + 1) % GRAPH_STEP === 0) {
      await pause();
      if (options.shouldStop?.()) return { complete: false, queried: 0 };
    }
  }
  const n = Math.min(options.k + 1, entries.length);
  graph.setEf(Math.max(BATCH_HNSW.ef, n));
  for (let i = 0; i < entries.length; i++) {
    const v = entries[i]!.vector;
    for (const j of graph.searchKnn(Array.from(v), n).neighbors) {
      const sim = dot(v, entries[j]!.vector);
      if (j !== i && sim >= options.minSimilarity) lists[i]!.offer(sim, j);
    }
    if ((i + 1) % GRAPH_STEP === 0) {
      await pause();
      if (options.shouldStop?.()) return { complete: false, queried: i + 1 };
    }
  }
  return { complete: true, queried: entries.length };
};

function newGraph(entries: readonly VectorEntry[]): hnswlib.HierarchicalNSW {
  const { HierarchicalNSW } = require('hnswlib-node') as typeof hnswlib;
  const graph = new HierarchicalNSW('ip', entries[0]!.vector.length);
  graph.initIndex({
    maxElements: entries.length,
    m: BATCH_HNSW.m,
    efConstruction: BATCH_HNSW.efConstruction,
    randomSeed: 100,
  });
  return graph;
}

/** The lists as unordered pairs at or above the floor, each once, best first. */
function pairsOf(entries: readonly VectorEntry[], lists: TopK[], floor: number): NeighbourPair[] {
  const seen = new Set<number>();
  const pairs: NeighbourPair[] = [];
  lists.forEach((list, i) => {
    list.ids.forEach((j, rank) => {
      const similarity = list.sims[rank]!;
      const key = i < j ? i * entries.length + j : j * entries.length + i;
      if (similarity < floor || seen.has(key)) return;
      seen.add(key);
      const [a, b] = i < j ? [i, j] : [j, i];
      pairs.push({ a: entries[a]!.id, b: entries[b]!.id, similarity });
    });
  });
  return pairs.sort(byBest);
}

/** Best similarity first, then by ids, so equal inputs give equal orders. */
export function byBest(x: NeighbourPair, y: NeighbourPair): number {
  if (x.similarity !== y.similarity) return y.similarity - x.similarity;
  return x.a < y.a ? -1 : x.a > y.a ? 1 : x.b < y.b ? -1 : x.b > y.b ? 1 : 0;
}
