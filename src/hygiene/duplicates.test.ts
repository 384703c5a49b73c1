import { describe, expect, it } from 'vitest';

import type { Kind } from '../domain/types.js';
import { normalize } from '../embed/embedder.js';
import {
  calibrate,
  type DuplicateItem,
  type DuplicateOptions,
  findDuplicates,
  keeperOrder,
  percentiles,
  unionBody,
} from './duplicates.js';

/** A unit vector at `angle` radians in a plane: two of them have cosine cos(difference). */
const at = (angle: number) => normalize(Float32Array.from([Math.cos(angle), Math.sin(angle), 0]))!;

function item(
  id: string,
  text: string,
  vector: Float32Array | null,
  extra: Partial<DuplicateItem> = {},
): DuplicateItem {
  const base = { pinned: false, importance: 0.5, use_count: 0, access_count: 0, created_at: 1_000 };
  return { id, kind: 'fact' as Kind, text, vector, ...base, ...extra };
}

const options: DuplicateOptions = { similarity: 0.9, overlap: 0.7, neighbours: 5 };

/** Every merge's lesser is merged once and never keeps anything (no chains). */
function expectNoChains(pairs: { keeper: string; lesser: string; skip?: boolean }[]) {
  const merges = pairs.filter((p) => !p.skip);
  const lessers = merges.map((p) => p.lesser);
  expect(new Set(lessers).size).toBe(lessers.length);
  for (const p of merges) expect(lessers).not.toContain(p.keeper);
}

describe('keeperOrder', () => {
  it('keeps the pinned, then the more important, used, accessed, older, then smaller id', () => {
    const ranked = [
      item('g', 'x', null, { pinned: true, importance: 0 }),
      item('f', 'x', null, { importance: 0.9 }),
      item('e', 'x', null, { use_count: 3 }),
      item('d', 'x', null, { access_count: 7 }),
      item('c', 'x', null, { created_at: 10 }),
      item('a', 'x', null),
      item('b', 'x', null),
    ];
    const shuffled = [
      ranked[3]!,
      ranked[6]!,
      ranked[0]!,
      ranked[5]!,
      ranked[2]!,
      ranked[4]!,
      ranked[1]!,
    ];
    expect(shuffled.sort(keeperOrder).map((i) => i.id)).toEqual([
      'g',
      'f',
      'e',
      'd',
      'c',
      'a',
      'b',
    ]);
  });
});

describe('findDuplicates', () => {
  it('proposes a merge of a reworded pair into its keeper and reports the pairs it rejects', async () => {
    const items = [
      item('a', 'Alice owns the billing service.', at(0), { created_at: 5 }),
      item('b', 'The billing service is owned by Alice.', at(0.1)),
      item('c', 'The billing database has 3 replicas.', at(1)),
      item('d', 'The billing database has 5 replicas.', at(1.05)),
      item('e', 'Alice owns the billing service.', at(0), { kind: 'note' }),
      item('r', 'Alice owns the billing service.', at(0), { kind: 'rule' }),
      item('p', 'Alice owns the billing service.', at(0), { kind: 'preference' }),
      item('s', 'Alice owns the billing service.', at(0), { kind: 'skill' }),
      item('n', 'Alice owns the billing service.', null),
    ];
    const found = await findDuplicates(items, options);
    expect(found.complete).toBe(true);
    expect(found.examined).toBe(5);
    expect(found.pairs).toEqual([
      {
        keeper: 'a',
        lesser: 'b',
        similarity: expect.closeTo(Math.cos(0.1), 6),
        overlap: 1,
        reason: 'similar vectors and overlapping text',
      },
    ]);
    expect(found.rejected).toEqual([
      expect.objectContaining({ a: 'c', b: 'd', reason: 'numbers differ' }),
    ]);
  });

  it('leaves two pinned duplicates alone, saying so', async () => {
    const items = [
      item('a', 'Alice owns the billing service.', at(0), { pinned: true }),
      item('b', 'The billing service is owned by Alice.', at(0.1), { pinned: true }),
    ];
    const { pairs } = await findDuplicates(items, options);
    expect(pairs).toEqual([expect.objectContaining({ reason: 'both pinned', skip: true })]);
  });

  it('moves what a keeper kept to a better keeper when every pair is a duplicate', async () => {
    // Cosines: b-c 0.995 (judged first), a-b 0.989, a-c 0.969; a is the best keeper.
    const items = [
      item('a', 'Alice owns the billing service.', at(0), { importance: 0.9 }),
      item('b', 'The billing service is owned by Alice.', at(0.15), { importance: 0.5 }),
      item('c', 'Alice owns the billing service', at(0.25), { importance: 0.1 }),
    ];
    const { pairs } = await findDuplicates(items, options);
    expect(pairs.map((p) => [p.keeper, p.lesser, p.skip ?? false])).toEqual([
      ['a', 'b', false],
      ['a', 'c', false],
    ]);
    expectNoChains(pairs);
  });

  it('keeps a group through the item judged a duplicate of both others, never a chain', async () => {
    // b-c and a-b are duplicates, a-c is not (each has a word the other lacks): b keeps both,
    // though a ranks higher as a keeper on its own.
    const items = [
      item('a', 'Alice now owns the billing service.', at(0), { importance: 0.9 }),
      item('b', 'Alice owns the billing service.', at(0.15), { importance: 0.5 }),
      item('c', 'Alice still owns the billing service.', at(0.25), { importance: 0.1 }),
    ];
    const found = await findDuplicates(items, options);
    expect(found.pairs.map((p) => [p.keeper, p.lesser, p.skip ?? false, p.reason])).toEqual([
      ['b', 'c', false, 'similar vectors and overlapping text'],
      ['b', 'a', false, 'similar vectors and overlapping text'],
    ]);
    expect(found.rejected).toEqual([
      expect.objectContaining({ a: 'a', b: 'c', reason: 'words differ' }),
    ]);
    expectNoChains(found.pairs);
  });

  it('also pairs items whose words differ by one, when neighbours miss them', async () => {
    // With one neighbour each, a and c both see d (closer, another number), never each other.
    const items = [
      item('a', 'Deploys of billing are frozen every Friday after 4 pm.', at(0), { created_at: 1 }),
      item('d', 'Deploys of billing are frozen every Friday after 5 pm.', at(0.05)),
      item('c', 'Deploys of billing are frozen every Friday after 4 pm, mostly.', at(0.3)),
    ];
    const found = await findDuplicates(items, { ...options, neighbours: 1 });
    expect(found.pairs.map((p) => [p.keeper, p.lesser])).toEqual([['a', 'c']]);
    expect(found.rejected.map((r) => r.reason)).toEqual(['numbers differ', 'numbers differ']);
  });

  it('returns complete: false when told to stop', async () => {
    const items = [
      item('a', 'Alice owns the billing service.', at(0)),
      item('b', 'The billing service is owned by Alice.', at(0.1)),
    ];
    const found = await findDuplicates(items, { ...options, shouldStop: () => true });
    expect(found.complete).toBe(false);
    expect(found.pairs).toEqual([]);
  });
});

describe('calibrate', () => {
  it('reports each item’s best candidate, percentiles and the merges of each threshold pair', async () => {
    const items = [
      item('a', 'Alice owns the billing service.', at(0)),
      item('b', 'The billing service is owned by Alice.', at(0.2)), // cosine 0.980
      item('c', 'The billing database has 3 replicas.', at(1)),
      item('d', 'The billing database has 3 replicas, sometimes.', at(1.4)), // cosine 0.921
    ];
    const report = await calibrate(items, options);
    expect(report.examined).toBe(4);
    expect(report.best.map((b) => [b.id, b.other])).toEqual([
      ['a', 'b'],
      ['b', 'a'],
      ['c', 'd'],
      ['d', 'c'],
    ]);
    expect(report.similarity.p50).toBeCloseTo(Math.cos(0.4), 6);
    expect(report.overlap.p90).toBe(1);
    expect(report.merges).toHaveLength(10);
    const merges = (s: number) => report.merges.find((m) => m.similarity === s && !m.configured);
    expect(report.merges[0]).toMatchObject({ similarity: 0.9, overlap: 0.7, configured: true });
    expect(report.merges[0]!.merges).toBe(2);
    expect(merges(0.95)!.merges).toBe(1);
    expect(report.merges.filter((m) => m.overlap === 0.8 && m.similarity === 0.9)[0]!.merges).toBe(
      1,
    );
  });

  it('takes nearest-rank percentiles', () => {
    expect(percentiles([])).toEqual({ p50: null, p90: null, p99: null });
    const values = Array.from({ length: 100 }, (_, i) => (i + 1) / 100);
    expect(percentiles(values)).toEqual({ p50: 0.5, p90: 0.9, p99: 0.99 });
  });
});

describe('unionBody', () => {
  const keeper = 'Alice owns the billing service. She reviews its pull requests.';

  it('returns the keeper unchanged when the lesser adds nothing', () => {
    expect(unionBody(keeper, 'Alice owns the billing service.')).toBe(keeper);
    expect(
      unionBody(keeper, 'The billing service is owned by Alice.\nShe reviews pull requests.'),
    ).toBe(keeper);
  });

  it('appends the lesser’s sentences the keeper lacks, in their order, and nothing else', () => {
    const lesser =
      'The billing service is owned by Alice. Deploys freeze on Fridays at 4 pm. Bob reviews its pull requests.';
    expect(unionBody(keeper, lesser)).toBe(
      `${keeper} Deploys freeze on Fridays at 4 pm. Bob reviews its pull requests.`,
    );
    expect(unionBody('Alice owns billing', 'Refunds take 3.5 days.')).toBe(
      'Alice owns billing\nRefunds take 3.5 days.',
    );
  });
});
