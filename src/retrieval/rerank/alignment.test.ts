// The alignment relevance scorer on the real GloVe vectors (the cache test/global-setup.ts builds).
import { resolve } from 'node:path';

import { beforeAll, describe, expect, it, vi } from 'vitest';

import { configSchema } from '../../config/schema.js';
import { SimdArena } from '../../domain/simd-dot.js';
import type { Embedder, WordVectorLookup } from '../../embed/embedder.js';
import { StaticEmbedder } from '../../embed/static/static-embedder.js';
import type { WordVectors } from '../../embed/static/word-vectors.js';
import { decisionAdapter } from '../decision/adapters.js';
import { AlignmentScorer, properNames, scoreAlignment } from './alignment.js';
import { absoluteScorer, wordVectorSource } from './scorers.js';
import { wordTable } from './word-table.js';

const cacheDir = resolve(process.env.ENGRAM_TEST_CACHE_DIR ?? 'node_modules/.cache/engram-test');
const embedder = new StaticEmbedder({ cacheDir });
let words: WordVectors;

beforeAll(async () => {
  words = await embedder.wordVectors();
}, 300_000);

/** `count` vocabulary words from frequency rank `from` on, space separated. */
const wordsFrom = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => words.word(from + i)).join(' ');

/** The same word vectors behind a new lookup object, which the scorer gives a table of its own. */
const ownLookup = (): WordVectorLookup => ({
  size: words.size,
  tokenize: (text) => words.tokenize(text),
  wordId: (token) => words.wordId(token),
  wordVector: (id) => words.wordVector(id),
});

const score = (query: string, texts: string[], options = {}) =>
  scoreAlignment(
    words,
    query,
    texts.map((text, i) => ({ id: String(i), text })),
    options,
  );

describe('alignment scorer', () => {
  it('scores a document with a synonym of the query term above an unrelated one', () => {
    const [synonym, unrelated] = score('Which physician did she see?', [
      'She went to a doctor about her knee.',
      'The train to the coast was late again.',
    ]);
    expect(synonym).toBeGreaterThan(0.1);
    expect(synonym).toBeGreaterThan(unrelated! + 0.1);
  });

  it("reads a question told another language with that language's stems, as the index does", () => {
    // Russian: "Казани" and "Казань" share a stem; the question's function words ("в", "кто")
    // are no terms. Whole words alone, the two documents would tie on "живет".
    const [other, form] = score('Кто живёт в Казани?', [
      'Ольга живёт в Москве и работает в школе.',
      'Игорь живёт в Казань уже три года.',
    ]);
    expect(form).toBeCloseTo(1, 5);
    expect(form).toBeGreaterThan(other! + 0.3);
    // Spanish: "perros" meets "perro"; an English question still reads English stems only.
    const [dog, cat] = score('¿Quién tiene perros?', [
      'Lucía tiene un perro.',
      'Lucía tiene un gato.',
    ]);
    expect(dog).toBeGreaterThan(cat! + 0.3);
    const [english] = score('Who has dogs?', ['Lucía tiene un perro.']);
    expect(english).toBeLessThan(0.5);
    // One telling word is not enough: "kim" is a Turkish function word, and the name stays a term.
    const [kims, toms] = score("Kim's new job", [
      'Kim started a new job as a nurse.',
      'Tom got a new job at the bank.',
    ]);
    expect(kims).toBeGreaterThan(toms! + 0.2);
  });

  it('stays on the 0..1 scale: 1 when every query term occurs, 0 when nothing relates', () => {
    const [all, none, some] = score('kitten rug', [
      'The kittens slept on the rug.',
      'Quarterly revenue rose by four percent.',
      'A cat on a mat.',
    ]);
    expect(all).toBeCloseTo(1, 5);
    expect(none).toBe(0);
    expect(some).toBeGreaterThan(0);
    expect(some).toBeLessThan(1);
  });

  it('counts lexical evidence: the exact word beats a close synonym, more so with a higher lexical weight', () => {
    const texts = ['We bought a new car.', 'We bought a new automobile.'];
    const [exact, synonym] = score('car', texts);
    expect(exact).toBeGreaterThan(synonym!);
    const [, softOnly] = score('car', texts, { lexicalWeight: 0 });
    const [, lexicalOnly] = score('car', texts, { lexicalWeight: 1 });
    expect(softOnly).toBeGreaterThan(synonym!);
    expect(lexicalOnly).toBe(0);
  });

  it('weighs rare query words above common ones', () => {
    const [rare, common] = score('saxophone people', [
      'He plays the saxophone.',
      'Many people came.',
    ]);
    expect(rare).toBeGreaterThan(common!);
  });

  it('weighs a term by how well it tells the judged documents apart (pool weighting)', () => {
    // Every document names Caroline; only two mention a painting.
    const pool = [
      'Caroline went to the gym.',
      'Caroline finished a painting.',
      'Caroline baked bread.',
      'Caroline: a painting class started.',
      'Caroline read a book.',
    ];
    const query = 'Did Caroline finish the painting?';
    const pooled = score(query, pool);
    const plain = score(query, pool, { poolWeighting: false });
    // Without the shared name the documents with the painting stand out further above the rest.
    expect(pooled[1]! - pooled[0]!).toBeGreaterThan(plain[1]! - plain[0]! + 0.1);
    expect(pooled[0]).toBeLessThan(plain[0]!);
    // Every query term present still scores 1, with or without it.
    expect(pooled[1]).toBeCloseTo(1, 5);
    expect(plain[1]).toBeCloseTo(1, 5);
    // A term no judged document holds weighs in full (pool(t) = 1).
    expect(score('kitten rug', ['A cat on a mat.'])).toEqual(
      score('kitten rug', ['A cat on a mat.'], { poolWeighting: false }),
    );
  });

  it('judges in the decision adapter without pool weighting unless it is configured there', async () => {
    const docs = [
      { id: 'a', text: 'Caroline went to the gym.', position: 0 },
      { id: 'b', text: 'Caroline finished a painting.', position: 1 },
      { id: 'c', text: 'Caroline baked bread.', position: 2 },
    ];
    const query = 'Did Caroline finish the painting?';
    const judge = async (pool_weighting?: boolean) => {
      const config = configSchema.parse({
        recall: {
          decision: { adapter: 'alignment', alignment: { rank_prior: 0, pool_weighting } },
        },
      });
      const adapter = decisionAdapter(config, wordVectorSource(embedder), {})!;
      return adapter.judge(query, docs, new AbortController().signal);
    };
    expect(await judge()).toEqual(
      score(
        query,
        docs.map((d) => d.text),
        { poolWeighting: false },
      ),
    );
    expect(await judge(true)).toEqual(
      score(
        query,
        docs.map((d) => d.text),
      ),
    );
    expect(await judge(true)).not.toEqual(await judge(false));
    // Dormant recall's threshold reads the same absolute relevance.
    const absolute = absoluteScorer(
      configSchema.parse({}).recall.rerank,
      wordVectorSource(embedder),
    )!;
    expect(await absolute.score(query, docs)).toEqual(await judge());
  });

  it('lets context count, but less than the document itself', () => {
    const query = 'When did Ann adopt the puppy?';
    const [own] = score(query, ['Ann: we adopted a puppy last week.']);
    const [viaContext] = scoreAlignment(words, query, [
      { id: 'a', text: 'Ann: last week, finally!', context: ['Ben: did you adopt the puppy?'] },
    ]);
    const [without] = score(query, ['Ann: last week, finally!']);
    expect(viaContext).toBeGreaterThan(without!);
    expect(own).toBeGreaterThan(viaContext!);
  });

  it('matches proper names only exactly, never through similar names', () => {
    expect(properNames('When did Caroline meet Melanie? Mel was late.')).toEqual(
      new Set(['caroline', 'melanie']),
    );
    const [other, same] = score('What did Caroline paint?', [
      'Melanie finished a painting.',
      'Caroline finished a painting.',
    ]);
    expect(same).toBeGreaterThan(other!);
    // Written in lowercase the name is an ordinary word, and its vector is close to "melanie".
    const [otherLowercase] = score('what did caroline paint?', ['Melanie finished a painting.']);
    expect(otherLowercase).toBeGreaterThan(other! + 0.02);
  });

  it('scores a pool the same whatever was scored before it (columns and stems kept across calls)', () => {
    const pool = [
      { id: 'a', text: 'The kittens slept on the rug.', context: ['We adopted two cats.'] },
      { id: 'b', text: 'A physician saw her knee.', context: ['The train was late.'] },
      { id: 'c', text: 'Quarterly revenue rose.' },
    ];
    const first = scoreAlignment(words, 'Which doctor saw the kitten?', pool);
    // Other queries and texts in between give their words other columns and new stem ids.
    scoreAlignment(words, 'revenue trains cats', [
      { id: 'x', text: 'Revenue from trains fell; cats are fine.' },
      { id: 'y', text: 'A brand new doctor arrived.', context: ['Kittens everywhere.'] },
    ]);
    expect(scoreAlignment(words, 'Which doctor saw the kitten?', pool)).toEqual(first);
    expect(first[0]).toBeGreaterThan(first[2]!);
    expect(first[1]).toBeGreaterThan(first[2]!);
  });

  it('keeps a text analysed across calls only from its second sighting, scoring the same', () => {
    const lookup = ownLookup();
    const { texts } = wordTable(lookup);
    const pool = [
      { id: 'a', text: 'The kittens slept on the rug.', context: ['We adopted two cats.'] },
      { id: 'b', text: 'The kittens slept on the rug.' },
    ];
    const first = scoreAlignment(lookup, 'Where did the kitten sleep?', pool);
    // Judged twice in one call, analysed once, and not kept: seen once so far.
    expect(texts.has('The kittens slept on the rug.')).toBe(false);
    expect(first[1]).toBeGreaterThan(0);
    const again = scoreAlignment(lookup, 'Where did the kitten sleep?', pool);
    expect(texts.has('The kittens slept on the rug.')).toBe(true);
    expect(texts.has('We adopted two cats.')).toBe(true);
    expect(again).toEqual(first);
    expect(scoreAlignment(lookup, 'Where did the kitten sleep?', pool)).toEqual(first);
  });

  it('scores the same bit for bit with the WebAssembly kernel and without it', () => {
    // A new lookup object gets its own table; with no arena it runs the portable loop.
    const plain = ownLookup();
    const create = vi.spyOn(SimdArena, 'create').mockReturnValue(null);
    const pool = Array.from({ length: 40 }, (_, i) => ({
      id: String(i),
      text: `${wordsFrom(i * 12, 12)} doctor trains`,
      context: [wordsFrom(5_000 + i * 7, 7)],
    }));
    try {
      const query = 'Which physician took the train to see her kitten?';
      expect(scoreAlignment(plain, query, pool)).toEqual(scoreAlignment(words, query, pool));
      expect(create).toHaveBeenCalled();
    } finally {
      create.mockRestore();
    }
  });

  it('goes on with the portable loop, scoring the same, when WebAssembly memory cannot grow', () => {
    const own = ownLookup();
    const query = 'Which physician took the train to see her kitten?';
    const small = [{ id: 'a', text: 'A doctor on a train.' }];
    const large = Array.from({ length: 60 }, (_, i) => ({
      id: String(i),
      text: `${wordsFrom(9_000 + i * 40, 40)} doctor`,
    }));
    const want = scoreAlignment(words, query, large);
    expect(scoreAlignment(own, query, small)).toEqual(scoreAlignment(words, query, small));
    const reserve = vi.spyOn(SimdArena.prototype, 'reserve').mockImplementation(() => {
      throw new RangeError('WebAssembly.Memory.grow(): Maximum memory size exceeded');
    });
    try {
      expect(scoreAlignment(own, query, large)).toEqual(want);
      expect(reserve).toHaveBeenCalled();
    } finally {
      reserve.mockRestore();
    }
  });

  it('scores a call with more distinct words than its vector cache keeps like the same documents alone', () => {
    // 160 documents of 150 distinct words: 24,000 words in one call, past the 20,000 kept, after
    // earlier calls filled the cache with others. Without pool weighting a score is the document's own.
    const options = { poolWeighting: false };
    const query = 'Which physician took the train to see her kitten?';
    const docs = Array.from({ length: 160 }, (_, i) => ({
      id: String(i),
      text: `${wordsFrom(2_000 + i * 150, 150)} doctor`,
    }));
    scoreAlignment(words, 'warm cache', [{ id: 'w', text: wordsFrom(40_000, 19_000) }], options);
    const together = scoreAlignment(words, query, docs, options);
    const alone = docs.map((d) => scoreAlignment(words, query, [d], options)[0]);
    expect(together).toEqual(alone);
    expect(new Set(together).size).toBeGreaterThan(10);
  });

  it('scores through the RelevanceScorer interface with the static embedder as word source', async () => {
    const scorer = new AlignmentScorer(wordVectorSource(embedder)!);
    expect(scorer.name).toBe('alignment');
    const out = await scorer.score('kitten', [
      { id: 'a', text: 'a kitten' },
      { id: 'b', text: 'tax law' },
    ]);
    expect(out).toHaveLength(2);
    expect(out[0]).toBeCloseTo(1, 5);
    expect(out[1]).toBe(0);
    expect(await scorer.score('the of and', [{ id: 'a', text: 'the of and' }])).toEqual([0]);
  });

  it('finds word vectors only in an embedder with the word-vector capability', () => {
    const sentencesOnly: Embedder = {
      modelId: embedder.modelId,
      dimension: embedder.dimension,
      prepare: () => embedder.prepare(),
      embed: (texts) => embedder.embed(texts),
      state: () => embedder.state(),
      close: async () => {},
    };
    expect(wordVectorSource(sentencesOnly)).toBeNull();
    expect(wordVectorSource(null)).toBeNull();
    expect(wordVectorSource(embedder)).not.toBeNull();
  });
});
