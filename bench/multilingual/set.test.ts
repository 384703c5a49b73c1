import { describe, expect, it } from 'vitest';

import { termWords } from '../../src/domain/inflection.js';
import { indexText } from '../../src/domain/segment.js';
import { keywordTerms } from '../../src/domain/text.js';
import { BigramBm25, bigramTokens } from './bigram-bm25.js';
import { buildLanguageSet, LANGUAGES, loadSets } from './set.js';

describe('the multilingual recall set', () => {
  const sets = loadSets();

  it('is what the templates make (run build-set.ts after changing them)', () => {
    expect(sets).toEqual(LANGUAGES.map(buildLanguageSet));
  });

  it.each(sets.map((s) => [s.lang, s] as const))(
    'has a few hundred memories and 50+ questions with known answers (%s)',
    (_, set) => {
      expect(set.memories.length).toBeGreaterThanOrEqual(300);
      expect(set.questions.length).toBeGreaterThanOrEqual(50);
      const ids = new Set(set.memories.map((m) => m.id));
      expect(ids.size).toBe(set.memories.length);
      expect(new Set(set.memories.map((m) => m.text)).size).toBe(set.memories.length);
      for (const q of set.questions) {
        expect(q.expected.length).toBeGreaterThan(0);
        for (const id of q.expected) expect(ids.has(id)).toBe(true);
      }
    },
  );

  it('asks only questions that share a word or a stem with each of their answers', () => {
    // A German genitive ("Sebastians Hund") shares the name: the stemmers take the s off. A Russian
    // name is declined ("Алексей", "у Алексея"), which stems do not always undo: the question
    // shares its lemma, compared here as all but the last two letters.
    const bare = (word: string) =>
      /^\p{Script=Cyrillic}+$/u.test(word)
        ? word.slice(0, Math.max(4, word.length - 2))
        : word.replace(/s$/u, '');
    for (const set of sets) {
      const text = new Map(set.memories.map((m) => [m.id, m.text]));
      for (const q of set.questions) {
        const terms = keywordTerms(q.text).map(bare);
        for (const id of q.expected) {
          // The words of the memory as indexed: its stems (inflection.ts) included.
          const memory = text.get(id)!;
          const tokens = termWords(indexText(memory) ?? memory);
          const words = new Set(tokens.map(bare));
          expect(
            terms.some((t) => words.has(t)),
            `${q.id} / ${id}`,
          ).toBe(true);
        }
      }
    }
  });
});

describe('the bigram BM25 baseline', () => {
  it('cuts runs of letters into overlapping pairs', () => {
    expect(bigramTokens('北京烤鸭, a')).toEqual(['北京', '京烤', '烤鸭', 'a']);
  });

  it('ranks the documents sharing more and rarer bigrams first, and leaves the rest out', () => {
    const index = new BigramBm25(['a', 'b', 'c'], ['王芳住在杭州', '李伟住在成都', '明天开会']);
    expect(index.search('谁住在杭州', 10)).toEqual(['a', 'b']);
    expect(index.search('巴黎', 10)).toEqual([]);
  });
});
