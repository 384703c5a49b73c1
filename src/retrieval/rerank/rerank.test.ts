import { describe, expect, it } from 'vitest';

import type { RelevanceDocument, RelevanceScorer } from './relevance.js';
import { rerank } from './rerank.js';

/** Test double: a scorer that returns fixed relevance per id (no word vectors needed). */
function fixedScorer(relevance: Record<string, number>): RelevanceScorer & { seen: string[][] } {
  const seen: string[][] = [];
  return {
    name: 'fixed (test double)',
    seen,
    score: async (_query: string, docs: readonly RelevanceDocument[]) => {
      seen.push(docs.map((d) => d.id));
      return docs.map((d) => relevance[d.id] ?? 0);
    },
  };
}

const candidates = [
  { id: 'a', score: 1.0 },
  { id: 'b', score: 0.8 },
  { id: 'c', score: 0.5 },
  { id: 'd', score: 0.4 },
];
const doc = (c: { id: string }) => ({ id: c.id, text: c.id });

describe('rerank', () => {
  it('orders by (1 - blend) * relevance + blend * score / max score', async () => {
    const scorer = fixedScorer({ a: 0, b: 0.4, c: 1, d: 0.5 });
    const out = await rerank(scorer, 'q', candidates, doc, { topN: 10, blend: 0.5 });
    expect(out.map((r) => r.candidate.id)).toEqual(['c', 'b', 'a', 'd']);
    expect(out[0]!.score).toBeCloseTo(0.5 * 1 + 0.5 * 0.5);
    expect(out[0]!.relevance).toBe(1);
    expect(out[1]!.score).toBeCloseTo(0.5 * 0.4 + 0.5 * 0.8);
  });

  it('judges only the top N and keeps the rest after them in their order', async () => {
    const scorer = fixedScorer({ a: 0, b: 1, c: 1, d: 1 });
    const out = await rerank(scorer, 'q', candidates, doc, { topN: 2, blend: 0 });
    expect(scorer.seen).toEqual([['a', 'b']]);
    expect(out.map((r) => r.candidate.id)).toEqual(['b', 'a', 'c', 'd']);
    expect(out[2]!.relevance).toBeUndefined();
    expect(out[2]!.score).toBe(0.5);
  });

  it('keeps the first-stage order on ties and with blend 1', async () => {
    const tie = await rerank(fixedScorer({}), 'q', candidates, doc, { topN: 10, blend: 0 });
    expect(tie.map((r) => r.candidate.id)).toEqual(['a', 'b', 'c', 'd']);
    const firstStage = await rerank(fixedScorer({ d: 1 }), 'q', candidates, doc, {
      topN: 10,
      blend: 1,
    });
    expect(firstStage.map((r) => r.candidate.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('clamps relevance outside 0..1 and refuses a scorer that skips candidates', async () => {
    const wild = await rerank(fixedScorer({ a: -3, b: 7 }), 'q', candidates.slice(0, 2), doc, {
      topN: 10,
      blend: 0,
    });
    expect(wild.map((r) => [r.candidate.id, r.relevance])).toEqual([
      ['b', 1],
      ['a', 0],
    ]);
    const short: RelevanceScorer = { name: 'short (test double)', score: async () => [1] };
    await expect(rerank(short, 'q', candidates, doc, { topN: 10, blend: 0 })).rejects.toThrow(
      /scored 1 of 4/,
    );
  });
});
