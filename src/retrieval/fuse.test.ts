import { describe, expect, it } from 'vitest';

import { boostFactor, maxBoost, speakerNamedIn } from './boosts.js';
import { reciprocalRankFusion } from './fuse.js';

describe('reciprocalRankFusion', () => {
  it('sums weight / (k + rank) across channels and keeps each channel rank', () => {
    const fused = reciprocalRankFusion(
      [
        { channel: 'keyword', weight: 1, ids: ['a', 'b', 'c'] },
        { channel: 'vector', weight: 1, ids: ['b', 'd'] },
      ],
      60,
    );
    expect(fused.map((f) => f.id)).toEqual(['b', 'a', 'd', 'c']);
    expect(fused[0]).toEqual({
      id: 'b',
      rrf: 1 / 62 + 1 / 61,
      channels: { keyword: 2, vector: 1 },
    });
    expect(fused[1]?.channels).toEqual({ keyword: 1 });
  });

  it('honours weights and breaks exact ties by best rank, then id', () => {
    const weighted = reciprocalRankFusion(
      [
        { channel: 'keyword', weight: 0.5, ids: ['a'] },
        { channel: 'vector', weight: 2, ids: ['b'] },
      ],
      60,
    );
    expect(weighted.map((f) => f.id)).toEqual(['b', 'a']);
    const tied = reciprocalRankFusion(
      [
        { channel: 'keyword', weight: 1, ids: ['y'] },
        { channel: 'vector', weight: 1, ids: ['x'] },
      ],
      60,
    );
    expect(tied.map((f) => f.id)).toEqual(['x', 'y']);
  });

  it('returns nothing for no lists', () => {
    expect(reciprocalRankFusion([], 60)).toEqual([]);
  });
});

describe('boostFactor', () => {
  const boosts = {
    recency: 0.05,
    recency_half_life_days: 30,
    frequency: 0.03,
    frequency_saturation: 20,
    importance: 0.05,
    strength: 0.03,
    speaker: 0.25,
  };
  const now = Date.UTC(2026, 0, 31);

  it('is bounded by the sum of the weights', () => {
    const max = boostFactor(
      { updated_at: now, access_count: 1e9, importance: 5, strength: 5 },
      now,
      boosts,
      true,
    );
    expect(max).toBeCloseTo(0.41, 10);
    expect(maxBoost(boosts)).toBeCloseTo(0.41, 10);
    expect(
      boostFactor({ updated_at: 0, access_count: 0, importance: 0, strength: 0 }, now, boosts),
    ).toBeLessThan(1e-6);
  });

  it('halves the recency term every half-life and saturates frequency', () => {
    const base = { access_count: 0, importance: 0, strength: 0 };
    const fresh = boostFactor({ ...base, updated_at: now }, now, boosts);
    const old = boostFactor({ ...base, updated_at: now - 30 * 86_400_000 }, now, boosts);
    expect(old).toBeCloseTo(fresh / 2, 10);
    const f20 = boostFactor(
      { updated_at: 0, access_count: 20, importance: 0, strength: 0 },
      now,
      boosts,
    );
    const f200 = boostFactor(
      { updated_at: 0, access_count: 200, importance: 0, strength: 0 },
      now,
      boosts,
    );
    expect(f20).toBeCloseTo(0.03, 6);
    expect(f200).toBeCloseTo(0.03, 6);
  });
});

describe('speakerNamedIn', () => {
  it('names a speaker by first name written with a capital', () => {
    const named = speakerNamedIn('What activities does Melanie partake in?');
    expect(named('Melanie')).toBe(true);
    expect(named('melanie')).toBe(true);
    expect(named('Melanie Ortiz')).toBe(true);
    expect(named('Caroline')).toBe(false);
    expect(named('Ortiz Melanie')).toBe(false);
    expect(named(undefined)).toBe(false);
    expect(named('')).toBe(false);
    expect(speakerNamedIn('What did Van der Berg say?')('Van der Berg')).toBe(true);
  });

  it('does not take a word in lower case for a name, nor part of a word', () => {
    expect(speakerNamedIn('will it rain tomorrow')('Will')).toBe(false);
    expect(speakerNamedIn('what did melanie say')('Melanie')).toBe(false);
    expect(speakerNamedIn('What did Will Turner say')('Will Turner')).toBe(true);
    expect(speakerNamedIn('Annabel and the boat')('Ann')).toBe(false);
  });
});
