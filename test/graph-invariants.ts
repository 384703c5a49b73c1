// What every stored graph satisfies, checked on its canonical dump: a pair's stored weight is the
// sum of its edges' weights (co-mentions included, though they follow from the mentions), and an
// entity's degree is its number of distinct neighbours.
import { expect } from 'vitest';

import type { GraphDump } from '../src/store/graph-store.js';

/** Asserts the dump's derived counts agree with its edges; returns the dump. */
export function consistent(dump: GraphDump): GraphDump {
  const summed = new Map<string, number>();
  const neighbours = new Map<string, Set<string>>();
  for (const e of dump.edges) {
    const key = `${e.a}\u0000${e.b}`;
    summed.set(key, (summed.get(key) ?? 0) + e.weight);
    for (const [x, y] of [
      [e.a, e.b],
      [e.b, e.a],
    ] as const) {
      const set = neighbours.get(x) ?? new Set<string>();
      set.add(y);
      neighbours.set(x, set);
    }
  }
  const stored = new Map(dump.pairs.map((p) => [`${p.a}\u0000${p.b}`, p.weight]));
  expect(stored).toEqual(summed);
  for (const entity of dump.entities)
    expect({ key: entity.key, degree: entity.degree }).toEqual({
      key: entity.key,
      degree: neighbours.get(entity.key)?.size ?? 0,
    });
  return dump;
}
