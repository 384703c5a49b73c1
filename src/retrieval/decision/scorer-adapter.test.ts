import { describe, expect, it } from 'vitest';

import { configSchema } from '../../config/schema.js';
import { silentLogger } from '../../domain/log.js';
import type { RecallHit } from '../../domain/types.js';
import type { RelevanceDocument, RelevanceScorer } from '../rerank/relevance.js';
import type { SessionLookup } from '../sessions.js';
import type { RecallRun } from '../stages.js';
import { TurnIndex } from '../turn-index.js';
import type { JudgedDocument } from './adapter.js';
import { DecisionRecallStage } from './decision-stage.js';
import { rankDiscount, ScorerAdapter } from './scorer-adapter.js';
import type { CandidateSource } from './sources.js';

/** A scorer that gives each document the score its text names ("0.8"), recording what it read. */
function numberScorer(read: RelevanceDocument[][] = []): RelevanceScorer {
  return {
    name: 'stub',
    score: async (_query, documents) => {
      read.push([...documents]);
      return documents.map((d) => Number(d.text));
    },
  };
}

const signal = new AbortController().signal;

describe('the rank prior of the local decision adapters', () => {
  it('discounts by (1 + position)^-γ and places a candidate without a position after the pool', () => {
    expect(rankDiscount(0, 5, 0.3)).toBe(1);
    expect(rankDiscount(3, 5, 0.3)).toBeCloseTo(4 ** -0.3, 12);
    expect(rankDiscount(undefined, 5, 0.3)).toBeCloseTo(6 ** -0.3, 12);
    expect(rankDiscount(7, 5, 0)).toBe(1);
  });

  it('multiplies each score by its discount; γ = 0 returns the scores as they are', async () => {
    const docs: JudgedDocument[] = [
      { id: 'a', text: '0.5', position: 0 },
      { id: 'b', text: '0.9', position: 9 },
      { id: 'c', text: '0.6' },
    ];
    const plain = await new ScorerAdapter('alignment', numberScorer()).judge('q', docs, signal);
    expect(plain).toEqual([0.5, 0.9, 0.6]);
    const prior = await new ScorerAdapter('alignment', numberScorer(), 0.5).judge(
      'q',
      docs,
      signal,
    );
    expect(prior[0]).toBe(0.5);
    expect(prior[1]).toBeCloseTo(0.9 / Math.sqrt(10), 12);
    expect(prior[2]).toBeCloseTo(0.6 / 2, 12);
  });
});

describe('the decision stage tells the judge where the ordinary order put each candidate', () => {
  const hit = (id: string, body: string): RecallHit =>
    ({ id, body, title: null, score: 1, channels: {} }) as unknown as RecallHit;
  const run = (k: number): RecallRun => ({
    plan: {
      query: 'q',
      k,
      filter: { space: 'default', statuses: ['active'] },
      weights: {},
      decision: 'on',
    },
    pool: 10,
    sessions: { index: async () => new TurnIndex([]) } as unknown as SessionLookup,
    timings: {},
  });

  it('positions for the ordinary pool, none for what a source added; the prior orders the pool', async () => {
    const config = configSchema.parse({ recall: { decision: { pool: 3, sources: { docs: 1 } } } });
    const read: RelevanceDocument[][] = [];
    const docs: CandidateSource = {
      name: 'docs',
      gather: async () => [hit('docs:x', '0.6')],
    };
    const stage = new DecisionRecallStage(
      new ScorerAdapter('alignment', numberScorer(read), 1),
      config.recall.decision,
      silentLogger,
      [docs],
    );
    const ordinary = [hit('a', '0.3'), hit('b', '0.5'), hit('c', '0.8'), hit('d', '1')];
    const { hits, decision } = await stage.decide(ordinary, run(3));
    expect(read[0]!.map((d) => [d.id, (d as JudgedDocument).position])).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 2],
      ['docs:x', undefined],
    ]);
    // Relevance 0.3/1, 0.5/2, 0.8/3, 0.6/4: the first stays first although its score is lowest.
    expect(hits.map((h) => [h.id, h.relevance])).toEqual([
      ['a', 0.3],
      ['c', 0.2667],
      ['b', 0.25],
    ]);
    expect(decision).toMatchObject({ state: 'applied', low_confidence: true });
  });
});
