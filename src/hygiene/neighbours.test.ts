import { describe, expect, it } from 'vitest';

import { mulberry32 } from '../../bench/lib/random.js';
import { normalize } from '../embed/embedder.js';
import { nearestPairs, searchesExactly, type VectorEntry } from './neighbours.js';

/** `n` random unit vectors, then a near-copy (a little noise) of every tenth of them. */
function plantedSet(n: number, dimension: number, seed = 1) {
  const rand = mulberry32(seed);
  const random = () => Float32Array.from({ length: dimension }, () => rand() - 0.5);
  const entries: VectorEntry[] = Array.from({ length: n }, (_, i) => ({
    id: `v${i}`,
    vector: normalize(random())!,
  }));
  const planted = new Set<string>();
  for (let i = 0; i < n; i += 10) {
    const noise = random();
    const copy = entries[i]!.vector.map((x, d) => x + 0.02 * noise[d]!);
    entries.push({ id: `c${i}`, vector: normalize(copy)! });
    planted.add(`c${i}|v${i}`);
  }
  return { entries, planted };
}

const keyOf = (p: { a: string; b: string }) => [p.a, p.b].sort().join('|');

describe('nearestPairs', () => {
  it('finds the same pairs exactly and through the graph on 3,000 vectors with near-copies', async () => {
    const { entries, planted } = plantedSet(2_750, 100);
    const options = { k: 5, minSimilarity: 0.9 };
    const exact = await nearestPairs(entries, { ...options, method: 'exact' });
    const graph = await nearestPairs(entries, { ...options, method: 'hnsw' });
    expect(exact).toMatchObject({ method: 'exact', complete: true, queried: entries.length });
    expect(graph).toMatchObject({ method: 'hnsw', complete: true, queried: entries.length });
    expect(new Set(exact.pairs.map(keyOf))).toEqual(planted);
    expect(graph.pairs).toEqual(exact.pairs);
  });

  it('lists each unordered pair once, never an entry with itself, best first', async () => {
    const { entries } = plantedSet(300, 16, 2);
    const { pairs } = await nearestPairs(entries, { k: 8, minSimilarity: 0 });
    const keys = pairs.map(keyOf);
    expect(new Set(keys).size).toBe(keys.length);
    expect(pairs.every((p) => p.a !== p.b)).toBe(true);
    for (let i = 1; i < pairs.length; i++)
      expect(pairs[i]!.similarity).toBeLessThanOrEqual(pairs[i - 1]!.similarity);
    expect(pairs.every((p) => p.similarity >= 0)).toBe(true);
  });

  it("gives each entry's k nearest (k = 1: its nearest) and drops pairs below the floor", async () => {
    const v = (...xs: number[]) => normalize(Float32Array.from(xs))!;
    const entries = [
      { id: 'a', vector: v(1, 0, 0) },
      { id: 'b', vector: v(0.9, 0.1, 0) },
      { id: 'c', vector: v(0, 1, 0) },
      { id: 'd', vector: v(0, 0.95, 0.05) },
    ];
    const { pairs } = await nearestPairs(entries, { k: 1, minSimilarity: 0.5 });
    expect(pairs.map(keyOf)).toEqual(['c|d', 'a|b']);
  });

  it('stops when asked and says the result is incomplete, on either path', async () => {
    const { entries } = plantedSet(2_750, 100, 3);
    for (const method of ['exact', 'hnsw'] as const) {
      const found = await nearestPairs(entries, {
        k: 5,
        minSimilarity: 0.9,
        method,
        shouldStop: () => true,
      });
      expect(found.complete, method).toBe(false);
      expect(found.queried, method).toBeLessThan(entries.length);
    }
  });

  it('refuses vectors of different dimensions and handles tiny sets', async () => {
    const entries = [
      { id: 'a', vector: new Float32Array([1, 0]) },
      { id: 'b', vector: new Float32Array([1, 0, 0]) },
    ];
    await expect(nearestPairs(entries, { k: 3, minSimilarity: 0 })).rejects.toThrow(/dimension/u);
    const none = await nearestPairs([], { k: 3, minSimilarity: 0 });
    expect(none).toMatchObject({ pairs: [], complete: true });
  });

  it('searches small sets exactly and large ones through a graph, by n² × dimension', () => {
    expect(searchesExactly(900, 100)).toBe(true);
    expect(searchesExactly(2_000, 100)).toBe(false);
    expect(searchesExactly(400, 384)).toBe(true);
    expect(searchesExactly(1_000, 384)).toBe(false);
  });
});
