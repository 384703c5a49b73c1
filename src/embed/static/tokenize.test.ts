// Tests of the GloVe-style tokenizer, with and without a vocabulary to resolve compounds against.
import { describe, expect, it } from 'vitest';

import { stripDiacritics, tokenize } from './tokenize.js';

describe('tokenize without a vocabulary', () => {
  it('lowercases and drops punctuation', () => {
    expect(tokenize('The Cat, sat -- on (the) mat!!! ... ?')).toEqual([
      'the',
      'cat',
      'sat',
      'on',
      'the',
      'mat',
    ]);
  });

  it('splits PTB clitics like GloVe 6B', () => {
    expect(tokenize("Don't worry, it's fine; we can't and won't")).toEqual([
      'do',
      "n't",
      'worry',
      'it',
      "'s",
      'fine',
      'we',
      'ca',
      "n't",
      'and',
      'wo',
      "n't",
    ]);
    expect(tokenize('I’m sure they’ll go')).toEqual(['i', "'m", 'sure', 'they', "'ll", 'go']);
  });

  it('keeps hyphenated forms, numbers and dotted abbreviations', () => {
    expect(tokenize('A well-known U.S. state-of-the-art 1,000-strong 3.5 mp3 h1n1')).toEqual([
      'a',
      'well-known',
      'u.s.',
      'state-of-the-art',
      '1,000',
      'strong',
      '3.5',
      'mp3',
      'h1n1',
    ]);
  });

  it('keeps accents and non-Latin scripts, normalising compatibility forms', () => {
    expect(tokenize('Café NAÏVE ﬁne 日本 ')).toEqual(['café', 'naïve', 'fine', '日本']);
    expect(stripDiacritics('café naïve')).toBe('cafe naive');
  });

  it('handles empty and punctuation-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' ,.;:!? -- \'" ')).toEqual([]);
  });
});

describe('tokenize against a vocabulary', () => {
  const vocab = new Set(['do', 'it', 'well-known', 'state', 'art', 'cafe', 'o', 'neil', 'the']);
  const isKnown = (t: string) => vocab.has(t);

  it('keeps known compounds and splits unknown ones into parts', () => {
    expect(tokenize('well-known state-of-the-art', isKnown)).toEqual([
      'well-known',
      'state',
      'of',
      'the',
      'art',
    ]);
  });

  it('splits clitics and apostrophe names when unknown', () => {
    expect(tokenize("don't it's O'Neil", isKnown)).toEqual(['do', "n't", 'it', "'s", 'o', 'neil']);
    expect(tokenize("don't", (t) => t === "don't")).toEqual(["don't"]);
  });

  it('falls back to unaccented known forms', () => {
    expect(tokenize('Café naïve', isKnown)).toEqual(['cafe', 'naïve']);
  });
});
