// Tests of the binary cache: build from a small wink-layout fixture, load, look up, detect damage.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { EngramError } from '../../domain/errors.js';
import type { PrepareProgress } from '../embedder.js';
import { dot, normalize } from '../embedder.js';
import { buildStaticCache } from './build-cache.js';
import { verifiedStampPath } from './cache-file.js';
import { CACHE_FORMAT_VERSION, crc32, decodeCache, HEADER_BYTES } from './cache-format.js';
import { staticCacheFileName, staticCachePath, StaticEmbedder } from './static-embedder.js';
import type { Fixture } from './test-fixture.js';
import { FIXTURE_WORDS, writeFixture } from './test-fixture.js';
import { WordVectors } from './word-vectors.js';

let dir: string;
let fixture: Fixture;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'engram-cache-'));
  fixture = await writeFixture(join(dir, 'src'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function ruleOf(error: unknown): unknown {
  return error instanceof EngramError ? error.details.rule : undefined;
}

async function build(chunkBytes?: number): Promise<string> {
  const cachePath = join(dir, 'cache', 'wv.bin');
  await buildStaticCache({ sourcePath: fixture.path, cachePath, chunkBytes });
  return cachePath;
}

describe('build and load', () => {
  it.each([undefined, 3, 7, 64])('round-trips every word (chunkBytes=%s)', async (chunkBytes) => {
    const wv = WordVectors.load(await build(chunkBytes));
    expect(wv.size).toBe(FIXTURE_WORDS.length);
    expect(wv.dimension).toBe(100);
    FIXTURE_WORDS.forEach((word, id) => {
      expect(wv.wordId(word)).toBe(id);
      expect(wv.rankOf(word)).toBe(id + 1);
      expect(wv.word(id)).toBe(word);
      const original = normalize(Float32Array.from(fixture.vectors.get(word)!))!;
      expect(dot(wv.wordVector(id), original)).toBeGreaterThan(0.999);
    });
  });

  it('finds UTF-8 and escaped words and rejects unknown ones', async () => {
    const wv = WordVectors.load(await build());
    for (const word of ['café', 'naïve', '日本', '"', '\\', 'well-known']) {
      expect(wv.wordId(word)).toBe(FIXTURE_WORDS.indexOf(word));
    }
    for (const word of ['', 'CAT', 'cats', 'caf', 'cafés', 'naive', '日', 'zsombo', 'the ']) {
      expect(wv.wordId(word)).toBe(-1);
      expect(wv.rankOf(word)).toBe(-1);
    }
  });

  it('rejects out-of-range word ids', async () => {
    const wv = WordVectors.load(await build());
    expect(() => wv.wordVector(-1)).toThrow(EngramError);
    expect(() => wv.wordWeight(FIXTURE_WORDS.length)).toThrow(EngramError);
    expect(() => wv.word(1.5)).toThrow(EngramError);
  });

  it('reports progress with total = number of words', async () => {
    const events: PrepareProgress[] = [];
    await buildStaticCache({
      sourcePath: fixture.path,
      cachePath: join(dir, 'wv.bin'),
      onProgress: (p) => events.push(p),
    });
    expect(events.length).toBeGreaterThan(1);
    for (const event of events) expect(event.total).toBe(FIXTURE_WORDS.length);
    expect(events.map((e) => e.phase)).toContain('scan');
    expect(events.at(-1)).toEqual({
      phase: 'done',
      done: FIXTURE_WORDS.length,
      total: FIXTURE_WORDS.length,
    });
  });

  it('lets concurrent builders of one path all succeed with a valid file', async () => {
    const cachePath = join(dir, 'cache', 'wv.bin');
    await Promise.all(
      [1, 2, 3].map(() => buildStaticCache({ sourcePath: fixture.path, cachePath })),
    );
    expect(WordVectors.load(cachePath).size).toBe(FIXTURE_WORDS.length);
    // The cache and the stamp of its verification: no temp file is left behind.
    expect((await readdir(join(dir, 'cache'))).sort()).toEqual(['wv.bin', 'wv.bin.verified']);
  });
});

describe('damaged caches', () => {
  async function damage(mutate: (bytes: Buffer) => Buffer): Promise<string> {
    const cachePath = await build();
    await writeFile(cachePath, mutate(await readFile(cachePath)));
    return cachePath;
  }

  function expectInvalid(cachePath: string, message: RegExp): void {
    let caught: unknown;
    try {
      WordVectors.load(cachePath);
    } catch (error) {
      caught = error;
    }
    expect(ruleOf(caught)).toBe('cache_invalid');
    expect((caught as Error).message).toMatch(message);
  }

  it('detects a flipped body byte', async () => {
    const path = await damage((b) => {
      b[b.length - 20] = b[b.length - 20]! ^ 0xff;
      return b;
    });
    expectInvalid(path, /checksum/);
  });

  it('detects truncation', async () => {
    expectInvalid(await damage((b) => b.subarray(0, b.length - 100)), /bytes/);
    expectInvalid(await damage((b) => b.subarray(0, 10)), /truncated/);
  });

  it('detects a wrong magic number and a wrong version', async () => {
    expectInvalid(await damage((b) => Buffer.concat([Buffer.from('XX'), b.subarray(2)])), /magic/);
    const path = await damage((b) => {
      b.writeUInt32LE(CACHE_FORMAT_VERSION + 1, 8);
      b.writeUInt32LE(crc32(b.subarray(0, 60)), 60);
      return b;
    });
    expectInvalid(path, /format version/);
  });

  it('reports a missing cache as rebuildable', () => {
    expect(ruleOf(catchError(() => WordVectors.load(join(dir, 'nope.bin'))))).toBe('cache_missing');
  });

  it('decodes a cache image at an unaligned offset', async () => {
    const bytes = await readFile(await build());
    const shifted = new Uint8Array(bytes.length + 3).subarray(3);
    shifted.set(bytes);
    expect(decodeCache(shifted).wordCount).toBe(FIXTURE_WORDS.length);
    expect(HEADER_BYTES % 8).toBe(0);
  });
});

describe('verified caches read on demand', () => {
  /** A vocabulary of 300 made-up words: several pages of matrix rows. */
  const MANY = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}x`);

  async function buildMany(): Promise<string> {
    const many = await writeFixture(join(dir, 'many'), { words: MANY });
    const cachePath = join(dir, 'many-cache', 'wv.bin');
    await buildStaticCache({ sourcePath: many.path, cachePath });
    return cachePath;
  }

  it('checks a file in full once, stamps it, and later reads the same vectors on demand', async () => {
    const cachePath = await buildMany();
    const full = WordVectors.fromBytes(await readFile(cachePath));
    expect(existsSync(verifiedStampPath(cachePath))).toBe(false);
    const first = WordVectors.load(cachePath);
    expect(existsSync(verifiedStampPath(cachePath))).toBe(true);
    const onDemand = WordVectors.load(cachePath);
    // Far-apart rows first, so pages are fetched out of order.
    for (const id of [299, 0, 150, 64, 63, 200, 1]) {
      expect(onDemand.wordVector(id)).toEqual(full.wordVector(id));
      expect(first.wordVector(id)).toEqual(full.wordVector(id));
    }
    const text = MANY.filter((_, i) => i % 7 === 0).join(' ');
    expect(onDemand.sentenceVector(text)).toEqual(full.sentenceVector(text));
    expect(onDemand.wordId(MANY[123]!)).toBe(123);
  });

  it('checks the whole file again once it changed after its stamp', async () => {
    const cachePath = await buildMany();
    WordVectors.load(cachePath);
    const bytes = await readFile(cachePath);
    bytes[bytes.length - 20] = bytes[bytes.length - 20]! ^ 0xff;
    await writeFile(cachePath, bytes);
    expect(() => WordVectors.load(cachePath)).toThrow(/body checksum/);
  });

  it('checks the whole file when the stamp is unreadable or names another file', async () => {
    const cachePath = await buildMany();
    await writeFile(verifiedStampPath(cachePath), '{"not":"this file"}');
    const vectors = WordVectors.load(cachePath);
    expect(vectors.size).toBe(MANY.length);
    expect(await readFile(verifiedStampPath(cachePath), 'utf8')).toContain('"bodyCrc"');
  });
});

describe('atomic writes', () => {
  it('fails at once on a cache folder that cannot be created (a recursive mkdir would hang)', async () => {
    const cachePath = '/proc/engram-no-such/cache/wv.bin';
    await expect(buildStaticCache({ sourcePath: fixture.path, cachePath })).rejects.toThrow(
      /engram-no-such/,
    );
  });

  it('leaves no file under the final name when the source is malformed', async () => {
    const broken = join(dir, 'broken.json');
    await writeFile(broken, fixture.json.slice(0, Math.floor(fixture.json.length * 0.8)));
    const cacheDir = join(dir, 'out');
    const cachePath = join(cacheDir, 'wv.bin');
    const error = await buildStaticCache({ sourcePath: broken, cachePath }).catch((e) => e);
    expect(ruleOf(error)).toBe('source_malformed');
    expect(await readdir(cacheDir).catch(() => [])).toEqual([]);
  });

  it('keeps an existing cache when a rebuild fails', async () => {
    const cachePath = await build();
    const before = await readFile(cachePath);
    const broken = join(dir, 'broken.json');
    await writeFile(broken, fixture.json.replace('"vectors":{', '"vectors":{"x":[1,2],'));
    await expect(buildStaticCache({ sourcePath: broken, cachePath })).rejects.toThrow(/malformed/);
    expect((await readFile(cachePath)).equals(before)).toBe(true);
    expect(await readdir(join(dir, 'cache'))).toEqual(['wv.bin']);
  });

  it.each([
    ['a duplicate index', (j: string) => j.replace(/,1\]/, ',0]')],
    ['a words list that disagrees', (j: string) => j.replace('"words":["the"', '"words":["thee"')],
    ['no dimensions field', (j: string) => j.replace('"dimensions":100,', '')],
    ['trailing garbage', (j: string) => `${j} x`],
  ])('rejects a source with %s', async (_name, mutate) => {
    const broken = join(dir, 'broken.json');
    await writeFile(broken, mutate(fixture.json));
    const error = await buildStaticCache({
      sourcePath: broken,
      cachePath: join(dir, 'o.bin'),
    }).catch((e) => e);
    expect(ruleOf(error)).toBe('source_malformed');
  });

  it('reports a missing source', async () => {
    const error = await buildStaticCache({
      sourcePath: join(dir, 'missing.json'),
      cachePath: join(dir, 'o.bin'),
    }).catch((e) => e);
    expect(ruleOf(error)).toBe('source_missing');
  });
});

describe('StaticEmbedder cache handling', () => {
  it('rebuilds a corrupt cache on prepare, with progress', async () => {
    const cacheDir = join(dir, 'cache');
    await new StaticEmbedder({ cacheDir, sourcePath: fixture.path }).prepare();
    const cachePath = staticCachePath(cacheDir);
    const bytes = await readFile(cachePath);
    await writeFile(cachePath, bytes.subarray(0, bytes.length / 2));

    const events: PrepareProgress[] = [];
    const embedder = new StaticEmbedder({ cacheDir, sourcePath: fixture.path });
    await embedder.prepare({ onProgress: (p) => events.push(p) });
    expect(events.at(-1)).toMatchObject({
      phase: 'building word vectors (first run)',
      step: 'done',
    });
    expect((await readFile(cachePath)).equals(bytes)).toBe(true);
    expect(embedder.state()).toMatchObject({ available: true, loaded: true });
  });

  it('rebuilds when the source changed size', async () => {
    const cacheDir = join(dir, 'cache');
    await new StaticEmbedder({ cacheDir, sourcePath: fixture.path }).prepare();
    const bigger = await writeFixture(join(dir, 'src'), { words: [...FIXTURE_WORDS, 'extra'] });
    const embedder = new StaticEmbedder({ cacheDir, sourcePath: bigger.path });
    await embedder.prepare();
    expect(embedder.words().wordId('extra')).toBe(FIXTURE_WORDS.length);
  });

  it('loads an existing cache without the source', async () => {
    const cacheDir = join(dir, 'cache');
    await new StaticEmbedder({ cacheDir, sourcePath: fixture.path }).prepare();
    const embedder = new StaticEmbedder({ cacheDir, sourcePath: join(dir, 'gone.json') });
    await embedder.prepare();
    expect(embedder.words().size).toBe(FIXTURE_WORDS.length);
  });

  it('fails clearly when neither cache nor source exists', async () => {
    const embedder = new StaticEmbedder({
      cacheDir: join(dir, 'empty'),
      sourcePath: join(dir, 'gone.json'),
    });
    expect(embedder.state()).toMatchObject({ available: false, loaded: false });
    expect(embedder.state().reason).toMatch(/not installed|no cache/);
    const error = await embedder.prepare().catch((e) => e);
    expect(error).toBeInstanceOf(EngramError);
    expect(error.code).toBe('EMBEDDER_UNAVAILABLE');
    expect(ruleOf(error)).toBe('source_missing');
  });

  it('shares one preparation between concurrent callers', async () => {
    const embedder = new StaticEmbedder({ cacheDir: join(dir, 'cache'), sourcePath: fixture.path });
    const seen: string[] = [];
    const first = embedder.prepare({ onProgress: () => seen.push('a') });
    const second = embedder.prepare({ onProgress: () => seen.push('b') });
    expect(second).toBe(first);
    await Promise.all([first, second]);
    expect(seen).toContain('a');
    expect(seen).toContain('b');
    const files = await readdir(join(dir, 'cache'));
    expect(files.sort()).toEqual([staticCacheFileName, `${staticCacheFileName}.verified`]);
  });
});

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}
