import { describe, expect, it } from 'vitest';

import {
  averageScores,
  hitAtK,
  mean,
  ndcgAtK,
  percentile,
  recallAtK,
  reciprocalRank,
  scoreRanking,
} from './metrics.js';

const ranking = ['a', 'b', 'c', 'd', 'e'];

describe('recallAtK', () => {
  it('is the fraction of relevant ids found in the first k', () => {
    const relevant = new Set(['b', 'e', 'z']);
    expect(recallAtK(ranking, relevant, 1)).toBe(0);
    expect(recallAtK(ranking, relevant, 2)).toBeCloseTo(1 / 3);
    expect(recallAtK(ranking, relevant, 5)).toBeCloseTo(2 / 3);
    expect(recallAtK(ranking, relevant, 50)).toBeCloseTo(2 / 3);
  });

  it('scores 1 when there is nothing to find', () => {
    expect(recallAtK(ranking, new Set(), 1)).toBe(1);
    expect(recallAtK([], new Set(), 5)).toBe(1);
  });

  it('counts a relevant id once even if the ranking repeats it', () => {
    expect(recallAtK(['a', 'a', 'b'], new Set(['a', 'c']), 3)).toBe(0.5);
  });
});

describe('hitAtK', () => {
  it('is 1 when any relevant id is in the first k, else 0', () => {
    const relevant = new Set(['c', 'z']);
    expect(hitAtK(ranking, relevant, 2)).toBe(0);
    expect(hitAtK(ranking, relevant, 3)).toBe(1);
    expect(hitAtK(ranking, new Set(['z']), 50)).toBe(0);
  });

  it('scores 1 when there is nothing to find, as recall does', () => {
    expect(hitAtK([], new Set(), 10)).toBe(1);
  });
});

describe('reciprocalRank', () => {
  it('is 1 / the rank of the first relevant id, 0 when none is ranked', () => {
    expect(reciprocalRank(ranking, new Set(['c', 'e']))).toBeCloseTo(1 / 3);
    expect(reciprocalRank(ranking, new Set(['a']))).toBe(1);
    expect(reciprocalRank(ranking, new Set(['z']))).toBe(0);
    expect(reciprocalRank(ranking, new Set())).toBe(1);
  });
});

describe('ndcgAtK', () => {
  it('is 1 for an ideal ranking and discounts later hits by log2(rank + 1)', () => {
    expect(ndcgAtK(['a', 'b', 'x'], new Set(['a', 'b']), 10)).toBeCloseTo(1);
    // One relevant id at rank 2: DCG = 1/log2(3), ideal = 1.
    expect(ndcgAtK(['x', 'a'], new Set(['a']), 10)).toBeCloseTo(1 / Math.log2(3));
    // Two relevant, found at ranks 1 and 3: (1 + 1/2) / (1 + 1/log2(3)).
    expect(ndcgAtK(['a', 'x', 'b'], new Set(['a', 'b']), 10)).toBeCloseTo(
      1.5 / (1 + 1 / Math.log2(3)),
    );
  });

  it('ignores hits below k and caps the ideal at k', () => {
    expect(ndcgAtK(['x', 'y', 'a'], new Set(['a']), 2)).toBe(0);
    expect(ndcgAtK(['a'], new Set(['a', 'b', 'c']), 1)).toBe(1);
    expect(ndcgAtK([], new Set(), 10)).toBe(1);
  });
});

describe('percentile and mean', () => {
  it('interpolates between closest ranks like numpy', () => {
    const values = [5, 1, 4, 2, 3];
    expect(percentile(values, 50)).toBe(3);
    expect(percentile(values, 0)).toBe(1);
    expect(percentile(values, 100)).toBe(5);
    expect(percentile(values, 95)).toBeCloseTo(4.8);
    expect(percentile([10, 20], 25)).toBeCloseTo(12.5);
  });

  it('is NaN for no values, and refuses a percentile outside 0..100', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(mean([])).toBeNaN();
    expect(() => percentile([1], 101)).toThrow(RangeError);
    expect(mean([1, 2, 6])).toBe(3);
  });
});

describe('scoreRanking and averageScores', () => {
  it('scores every cut-off and averages over questions', () => {
    const first = scoreRanking(['a', 'b'], new Set(['b']));
    expect(first.recall).toEqual({ 1: 0, 5: 1, 10: 1, 25: 1, 50: 1 });
    expect(first.mrr).toBe(0.5);
    const second = scoreRanking(['a'], new Set(['a']));
    const avg = averageScores([first, second]);
    expect(avg.n).toBe(2);
    expect(avg.recall[1]).toBe(0.5);
    expect(avg.recall[5]).toBe(1);
    expect(avg.mrr).toBe(0.75);
  });
});
