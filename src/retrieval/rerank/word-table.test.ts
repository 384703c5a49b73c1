// The word table's collector of distinct integers (what analysing a text gathers).
import { describe, expect, it } from 'vitest';

import { Distinct } from './word-table.js';

describe('Distinct', () => {
  it('keeps each value once, in the order first added, and starts empty again', () => {
    const d = new Distinct();
    d.start();
    for (const v of [5, 3, 5, 0, 3, 9]) d.add(v);
    expect([...d.values()]).toEqual([5, 3, 0, 9]);
    d.start();
    d.add(3);
    d.add(3);
    expect([...d.values()]).toEqual([3]);
  });

  it('grows past its first buffer and to large values', () => {
    const d = new Distinct().start();
    const values = Array.from({ length: 300 }, (_, i) => (i * 7919) % 100_003);
    for (const v of [...values, ...values]) d.add(v);
    d.add(2_000_000);
    expect([...d.values()]).toEqual([...values, 2_000_000]);
  });
});
