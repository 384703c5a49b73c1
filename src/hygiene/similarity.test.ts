// Near-duplicate judgement on the real GloVe vectors (the cache test/global-setup.ts builds).
import { resolve } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import type { WordVectorLookup } from '../embed/embedder.js';
import { StaticEmbedder } from '../embed/static/static-embedder.js';
import {
  compareTexts,
  judgePair,
  oneEdit,
  type PairInput,
  TextComparer,
  wordVectorSource,
} from './similarity.js';

const cacheDir = resolve(process.env.ENGRAM_TEST_CACHE_DIR ?? 'node_modules/.cache/engram-test');
const embedder = new StaticEmbedder({ cacheDir });
let words: WordVectorLookup;

beforeAll(async () => {
  words = await embedder.wordVectors();
}, 300_000);

const thresholds = { similarity: 0.9, overlap: 0.7 };

async function pair(a: string, b: string): Promise<[PairInput, PairInput]> {
  const [x, y] = await embedder.embed([a, b]);
  return [
    { text: a, vector: x! },
    { text: b, vector: y! },
  ];
}

async function judge(a: string, b: string, options: { noWords?: boolean } = {}) {
  const [x, y] = await pair(a, b);
  return judgePair(x, y, options.noWords ? undefined : words, thresholds);
}

const REASONS = new Set([
  'similar vectors and overlapping text',
  'similarity below threshold',
  'text overlap below threshold',
  'numbers differ',
  'names differ',
  'roles differ',
  'negation differs',
  'alternative words differ',
  'words differ',
]);

describe('judgePair', () => {
  it('takes a reworded sentence with the same words for a duplicate', async () => {
    const j = await judge(
      'Alice owns the billing service and reviews its pull requests.',
      'The billing service is owned by Alice, who reviews its pull requests.',
    );
    expect(j).toMatchObject({ duplicate: true, reason: 'similar vectors and overlapping text' });
    expect(j.overlap).toBe(1);
    expect(j.similarity).toBeGreaterThan(0.9);
  });

  it('counts an added adverb and a misspelling as the same text, never a word-vector synonym', async () => {
    const base = 'The checkout API allows 50 requests per second for each client.';
    // GloVe cannot tell a synonym from another thing of one kind: synonyms by vectors are off.
    expect((await judge(base, base.replace('allows', 'lets'))).duplicate).toBe(false);
    for (const other of [
      'The checkout API currently allows 50 requests per second for each client.',
      'The checkout API allows 50 reqeusts per second for each client.',
    ])
      expect((await judge(base, other)).duplicate, other).toBe(true);
  });

  it('needs word vectors for a synonym; exact words still match without them', async () => {
    const a = 'The checkout API allows 50 requests per second for each client.';
    expect((await judge(a, a.replace('allows', 'lets'), { noWords: true })).duplicate).toBe(false);
    const reworded = 'For each client, the checkout API allows 50 requests per second.';
    expect((await judge(a, reworded, { noWords: true })).duplicate).toBe(true);
  });

  it('keeps apart the same template with another number, name or negation', async () => {
    const base = 'The ledger database runs on Postgres with 3 read replicas.';
    const cases: [string, string][] = [
      ['The ledger database runs on Postgres with 5 read replicas.', 'numbers differ'],
      ['The ledger database runs on Postgres with three read replicas.', 'numbers differ'],
      ['The ledger database runs on Redis with 3 read replicas.', 'names differ'],
      ['The ledger database does not run on Postgres with 3 read replicas.', 'negation differs'],
      ["The ledger database doesn't run on Postgres with 3 read replicas.", 'negation differs'],
    ];
    for (const [other, reason] of cases) {
      const j = await judge(base, other);
      expect(j.similarity, other).toBeGreaterThan(0.9);
      expect(j, other).toMatchObject({ duplicate: false, reason });
    }
  });

  it('keeps apart the same words with two of them swapped', async () => {
    const j = await judge(
      'Chiara has been the manager of Quentin since April.',
      'Quentin has been the manager of Chiara since April.',
    );
    expect(j.similarity).toBeCloseTo(1, 5);
    expect(j).toMatchObject({ duplicate: false, reason: 'roles differ' });
    const titled = 'Lucia notes\nLucia helped Omar fix the flaky test suite on Tuesday.';
    const other = 'On Tuesday, Omar helped Lucia fix the flaky test suite.';
    expect(compareTexts(titled, other, words).guard).toBe('roles differ');
    const passive = 'Since April, Quentin has been managed by Chiara.';
    expect(
      compareTexts('Chiara has been the manager of Quentin since April.', passive, words).guard,
    ).toBeNull();
    const moved = 'Every May, Hugo speaks at the meetup in Prague.';
    expect(
      compareTexts('Hugo speaks at the Prague meetup every May.', moved, words).guard,
    ).toBeNull();
  });

  it('treats a capitalised word opening a sentence as a possible name', async () => {
    const j = await judge(
      'Priya mentors new engineers and has been on the team for years.',
      'Farah mentors new engineers and has been on the team for years.',
    );
    expect(j).toMatchObject({ duplicate: false, reason: 'names differ' });
  });

  it('keeps apart two words of one kind in the same place, and any other substituted word', async () => {
    const alternative = await judge(
      'The search standup takes place in the morning on weekdays.',
      'The search standup takes place in the evening on weekdays.',
    );
    expect(alternative).toMatchObject({ duplicate: false, reason: 'alternative words differ' });
    const substituted = await judge(
      'The billing service keeps its invoices for a month.',
      'The billing service keeps its receipts for a month.',
    );
    expect(substituted).toMatchObject({ duplicate: false, reason: 'words differ' });
  });

  it('reports a low similarity or a low overlap as such', async () => {
    const far = await judge('The cat slept on the rug.', 'Quarterly revenue rose by four percent.');
    expect(far).toMatchObject({ duplicate: false, reason: 'similarity below threshold' });
    const [x, y] = await pair(
      'Alice owns the billing service.',
      'Alice owns the billing service, the ledger, the invoices, the exports and the reports.',
    );
    const wide = judgePair(x, y, words, { similarity: 0, overlap: 0.7 });
    expect(wide.overlap).toBeLessThan(0.7);
    expect(wide.reason).toBe('text overlap below threshold');
  });

  it('never quotes memory text in a reason', async () => {
    const texts = [
      'Zanzibar ships on Tuesday at 5 pm.',
      'Zanzibar does not ship on Tuesday at 5 pm.',
      'Quixotic ships on Tuesday at 6 pm.',
      'Zanzibar ships on Tuesday at 5 pm, quickly.',
    ];
    for (const a of texts)
      for (const b of texts) {
        const { reason } = await judge(a, b);
        expect(REASONS.has(reason), reason).toBe(true);
      }
  });
});

describe('compareTexts and TextComparer', () => {
  it('measures overlap over the longer text and agrees with a comparer made for a run', () => {
    const a = 'Deploys of billing are frozen every Friday after 4 pm.';
    const b = 'Deploys of billing are frozen every Friday after 4 pm, mostly.';
    const shared = compareTexts(a, b, words);
    expect(shared.overlap).toBeCloseTo(6 / 7, 5);
    expect(shared.guard).toBeNull();
    expect(new TextComparer(words).compare(b, a)).toEqual(shared);
  });

  it('says a text covers a sentence when its words, numbers and names are all there', () => {
    const keeper = 'Alice owns the billing service. She reviews its pull requests on Fridays.';
    const comparer = new TextComparer(words);
    expect(comparer.covers(keeper, 'Alice reviews the pull requests on Fridays.')).toBe(true);
    expect(comparer.covers(keeper, 'Bob reviews the pull requests on Fridays.')).toBe(false);
    expect(comparer.covers(keeper, 'Alice never reviews pull requests.')).toBe(false);
  });
});

describe('oneEdit', () => {
  it('accepts one insertion, deletion, change or swap of neighbours, and nothing more', () => {
    expect(oneEdit('minutes', 'mintues')).toBe(true);
    expect(oneEdit('minutes', 'minute')).toBe(true);
    expect(oneEdit('minute', 'minutes')).toBe(true);
    expect(oneEdit('billing', 'bilking')).toBe(true);
    expect(oneEdit('billing', 'billing')).toBe(false);
    expect(oneEdit('billing', 'building')).toBe(false);
    expect(oneEdit('abcd', 'badc')).toBe(false);
  });
});

describe('wordVectorSource', () => {
  it('lends the word vectors of an embedder that has them, and nothing otherwise', async () => {
    const source = wordVectorSource(embedder);
    expect(await source!.wordVectors()).toBe(words);
    expect(wordVectorSource(null)).toBeNull();
  });
});
