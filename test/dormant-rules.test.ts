/** The pure rules of dormant recall: profile, bonus, ranking ties, overlap and the bounded heap. */
import { describe, expect, it } from 'vitest';

import { BoundedHeap } from '../src/store/dormant/heap.js';
import {
  compareRanked,
  contentWords,
  dormancyBonus,
  DORMANT_KINDS,
  overlapCount,
  profileKinds,
} from '../src/store/dormant/profile.js';

const settings = { max_bonus: 0.05, dormancy_days: 30 };

describe('dormant rules', () => {
  it('defines the profile and intersects it with a search’s kinds', () => {
    expect(DORMANT_KINDS).toEqual([
      'fact',
      'preference',
      'rule',
      'skill',
      'procedure',
      'note',
      'identity',
    ]);
    expect(profileKinds(undefined)).toEqual(DORMANT_KINDS);
    expect(profileKinds(['episode', 'note', 'working'])).toEqual(['note']);
    expect(profileKinds(['episode'])).toEqual([]);
  });

  it('bounds the bonus by max_bonus, importance and 4 × dormancy_days', () => {
    expect(dormancyBonus(1, 120, settings)).toBeCloseTo(0.05, 12);
    expect(dormancyBonus(1, 10_000, settings)).toBeCloseTo(0.05, 12);
    expect(dormancyBonus(7, 10_000, settings)).toBeCloseTo(0.05, 12); // importance clamped
    expect(dormancyBonus(-1, 10_000, settings)).toBe(0);
    expect(dormancyBonus(0.5, 60, settings)).toBeCloseTo(0.0125, 12);
    expect(dormancyBonus(1, 0, settings)).toBe(0);
  });

  it('ranks by check score + bonus; exact ties go to raw cosine, then the smaller id', () => {
    const c = (id: string, relevance_score: number, bonus: number, raw_relevance: number) => ({
      id,
      relevance_score,
      bonus,
      raw_relevance,
    });
    const ranked = [
      c('b', 0.7, 0.05, 0.8),
      c('a', 0.75, 0, 0.8),
      c('c', 0.76, 0, 0.9),
      c('d', 0.7, 0, 0.99),
    ].sort(compareRanked);
    expect(ranked.map((r) => r.id)).toEqual(['c', 'a', 'b', 'd']);
    // b and a tie at 0.75: same raw cosine, so the smaller id wins.
    expect([c('b', 0.7, 0.05, 0.8), c('a', 0.75, 0, 0.8)].sort(compareRanked)[0]!.id).toBe('a');
    expect([c('a', 0.75, 0, 0.8), c('b', 0.7, 0.05, 0.85)].sort(compareRanked)[0]!.id).toBe('b');
  });

  it('counts literal overlap of content words only', () => {
    const q = contentWords('How do I restart the database?');
    expect([...q].sort()).toEqual(['database', 'restart']);
    expect(overlapCount(q, 'Restart the DATABASE nightly.')).toBe(2);
    expect(overlapCount(q, 'Reboot the SQL host.')).toBe(0);
  });

  it('keeps the best `size` entries, ties to the smaller id, whatever the order', () => {
    const entries = [
      { id: 'e', score: 0.5 },
      { id: 'b', score: 0.9 },
      { id: 'd', score: 0.9 },
      { id: 'a', score: 0.1 },
      { id: 'c', score: 0.9 },
    ];
    for (const order of [entries, [...entries].reverse()]) {
      const heap = new BoundedHeap<null>(3);
      for (const e of order) heap.push({ ...e, value: null });
      expect(heap.sorted().map((e) => e.id)).toEqual(['b', 'c', 'd']);
      expect(heap.floor).toBe(0.9);
    }
  });
});
