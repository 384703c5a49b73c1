// End-to-end check on the real wink GloVe package: builds (or reuses) the cache and compares sentences.
import { resolve } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { dot } from '../embedder.js';
import { StaticEmbedder } from './static-embedder.js';

const cacheDir = resolve(process.env.ENGRAM_TEST_CACHE_DIR ?? 'node_modules/.cache/engram-test');
const embedder = new StaticEmbedder({ cacheDir });

beforeAll(async () => {
  await embedder.prepare();
}, 300_000);

async function closer(anchor: string, near: string, far: string): Promise<[number, number]> {
  const [a, b, c] = await embedder.embed([anchor, near, far]);
  return [dot(a!, b!), dot(a!, c!)];
}

describe('static embedder on GloVe 6B 100d', () => {
  it('loads the full vocabulary', () => {
    const words = embedder.words();
    expect(words.size).toBe(341479);
    expect(words.rankOf('the')).toBe(1);
    expect(words.wordId('typescript')).toBeGreaterThan(0);
  });

  it('puts a cat on a mat near a kitten on a rug, far from stock markets', async () => {
    const [near, far] = await closer(
      'The cat sat on the mat',
      'A kitten rested on the rug',
      'Stock markets fell sharply today',
    );
    expect(near).toBeGreaterThan(far);
  });

  it('puts TypeScript near JavaScript coding, far from rainy weather', async () => {
    const [near, far] = await closer(
      'my favourite programming language is TypeScript',
      'I like coding in JavaScript',
      'the weather is rainy',
    );
    expect(near).toBeGreaterThan(far);
  });
});
