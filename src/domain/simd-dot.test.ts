// The WebAssembly dot-product kernel against the portable loop it stands in for, bit for bit.
import { describe, expect, it } from 'vitest';

import { dot4, SimdArena } from './simd-dot.js';

/** Deterministic float32 values in [-1, 1). */
function floats(count: number, seed: number): Float32Array {
  let state = seed >>> 0;
  return Float32Array.from({ length: count }, () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 31 - 1;
  });
}

/** dot4 of every row against every query, laid out as the kernel lays them out. */
function reference(
  rows: Float32Array,
  rowIds: readonly number[],
  dim: number,
  queries: Float32Array,
) {
  const k = queries.length / dim;
  const out: number[] = [];
  for (const r of rowIds)
    for (let q = 0; q < k; q++) out.push(dot4(queries, q * dim, rows, r * dim, dim));
  return out;
}

describe('SimdArena', () => {
  const arena = (capacity: number) => {
    const made = SimdArena.create(capacity);
    // Node 20 runs WebAssembly SIMD: the kernel must load here, or every caller silently falls back.
    expect(made).not.toBeNull();
    return made!;
  };

  it.each([4, 8, 100, 384])('gives dot4 sums bit for bit at dimension %i', (dim) => {
    const count = 37;
    const a = arena(count * dim);
    const rows = floats(count * dim, dim);
    a.rows.set(rows);
    for (const k of [1, 3, 5]) {
      const queries = floats(k * dim, 7 * k);
      const all = Array.from({ length: count }, (_, i) => i);
      expect([...a.dotRows(0, count, dim, queries, k)]).toEqual(reference(rows, all, dim, queries));
      expect([...a.dotRows(5, 10, dim, queries, k)]).toEqual(
        reference(rows, all.slice(5, 15), dim, queries),
      );
      const slots = [36, 0, 17, 17, 2];
      expect([...a.dotSlots(slots, dim, queries, k)]).toEqual(reference(rows, slots, dim, queries));
    }
  });

  it('keeps its rows when it grows, and scratch beyond them never overwrites them', () => {
    const dim = 100;
    const a = arena(2 * dim);
    const first = floats(2 * dim, 1);
    a.rows.set(first);
    a.reserve(50_000 * dim);
    expect(a.rows.length).toBe(50_000 * dim);
    expect([...a.rows.subarray(0, 2 * dim)]).toEqual([...first]);
    // A call whose scratch (queries and results) needs more memory than there is.
    const queries = floats(8 * dim, 2);
    const slots = Array.from({ length: 40_000 }, (_, i) => i % 2);
    const out = a.dotSlots(slots, dim, queries, 8);
    expect(out.length).toBe(320_000);
    expect(out[8 * 3 + 5]).toBe(dot4(queries, 5 * dim, first, dim, dim));
    expect([...a.rows.subarray(0, 2 * dim)]).toEqual([...first]);
  });
});
