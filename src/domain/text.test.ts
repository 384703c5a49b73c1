import { describe, expect, it } from 'vitest';

import { bodyHash, embeddingText, keywordTerms, normalizeBody } from './text.js';

describe('keywordTerms', () => {
  it('drops stop-words and FTS syntax, keeps content words', () => {
    expect(keywordTerms('What does "Alex" prefer NEAR( the * backend ^?')).toEqual([
      'alex',
      'prefer',
      'near',
      'backend',
    ]);
    expect(keywordTerms('title:billing -deploy AND OR')).toEqual(['title', 'billing', 'deploy']);
  });

  it('keeps stop-words when the query has nothing else, and returns nothing for punctuation', () => {
    expect(keywordTerms('who are you')).toEqual(['who', 'are', 'you']);
    expect(keywordTerms('"*^-:()')).toEqual([]);
  });

  it('handles non-Latin scripts and diacritics', () => {
    expect(keywordTerms('Müller café 東京')).toEqual(['müller', 'café', '東京']);
  });
});

describe('duplicate keys', () => {
  it('normalises whitespace, case and Unicode form', () => {
    expect(normalizeBody('  Cafe\u0301   au LAIT\n')).toBe('café au lait');
    expect(bodyHash('Café au lait')).toBe(bodyHash(' cafe\u0301  AU lait '));
    expect(bodyHash('a')).not.toBe(bodyHash('b'));
  });
});

describe('embeddingText', () => {
  it('is title, body and tags on their own lines, or the body itself when it stands alone', () => {
    const body = 'Ana drinks green tea.';
    expect(embeddingText({ title: null, body, tags: [] })).toBe(body);
    expect(embeddingText({ title: '', body, tags: [] })).toBe(body);
    expect(embeddingText({ title: 'Drinks', body, tags: [] })).toBe(`Drinks\n${body}`);
    expect(embeddingText({ title: null, body, tags: ['ana', 'tea'] })).toBe(`${body}\nana tea`);
    expect(embeddingText({ title: 'T', body: '', tags: ['x'] })).toBe('T\nx');
    expect(embeddingText({ title: null, body: '', tags: [] })).toBe('');
  });
});
