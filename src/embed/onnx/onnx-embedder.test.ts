// Tests of the ONNX embedder on the tiny committed encoders (scripts/models/tiny_models.py): folder
// checks, pooling, unit length, batching, truncation, and that the runtime loads only on demand.
import { cp, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { EngramError } from '../../domain/errors.js';
import { dot } from '../embedder.js';
import { ONNX_PATH_FIELD, OnnxEmbedder } from './onnx-embedder.js';

const MODELS = join(import.meta.dirname, '..', '..', '..', 'test', 'fixtures', 'models');
const ENCODER = join(MODELS, 'tiny-encoder');
const ENCODER_CLS = join(MODELS, 'tiny-encoder-cls');

const TEXTS = [
  'the cat sat on the mat',
  'The cat sat on a mat.',
  'money and power in the city',
  'Where did you put the old book?',
  'a zyxwv of qqq',
];

let tmp: string;
let embedder: OnnxEmbedder;
const opened: OnnxEmbedder[] = [];

/** An embedder closed after all tests. */
function open(options: ConstructorParameters<typeof OnnxEmbedder>[0]): OnnxEmbedder {
  const made = new OnnxEmbedder(options);
  opened.push(made);
  return made;
}

/** A copy of the tiny encoder in a fresh temp folder, changed by `change`. */
async function copyFixture(name: string, change: (dir: string) => Promise<void>): Promise<string> {
  const dir = join(tmp, name);
  await cp(ENCODER, dir, { recursive: true });
  await change(dir);
  return dir;
}

async function embedAll(target: OnnxEmbedder, texts: readonly string[]): Promise<Float32Array[]> {
  const vectors = await target.embed(texts);
  return vectors.map((v) => {
    expect(v).not.toBeNull();
    return v!;
  });
}

function norm(vector: Float32Array): number {
  return Math.sqrt(dot(vector, vector));
}

function expectClose(actual: Float32Array, expected: Float32Array, digits = 6): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((value, i) => expect(value).toBeCloseTo(expected[i]!, digits));
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'engram-onnx-'));
  embedder = open({ path: ENCODER });
  await embedder.prepare();
});

afterAll(async () => {
  await Promise.all(opened.map((e) => e.close()));
  await rm(tmp, { recursive: true, force: true });
});

describe('configuration', () => {
  it('reads the dimension from config.json and names the model after its folder', () => {
    const fresh = open({ path: ENCODER });
    expect(fresh.dimension).toBe(32);
    expect(fresh.modelId).toBe('onnx:tiny-encoder');
    expect(open({ path: ENCODER, modelId: 'onnx:tiny@2' }).modelId).toBe('onnx:tiny@2');
  });

  it('follows 1_Pooling/config.json under auto pooling, and the option otherwise', () => {
    expect(open({ path: ENCODER }).pooling).toBe('mean');
    expect(open({ path: ENCODER_CLS }).pooling).toBe('cls');
    expect(open({ path: ENCODER_CLS, pooling: 'mean' }).pooling).toBe('mean');
  });

  it('uses mean pooling when the folder declares none', async () => {
    const dir = await copyFixture('no-pooling', (d) =>
      rm(join(d, '1_Pooling'), { recursive: true }),
    );
    expect(open({ path: dir }).pooling).toBe('mean');
  });

  it('reports state without loading the model', () => {
    const fresh = open({ path: ENCODER });
    expect(fresh.state()).toEqual({
      model_id: 'onnx:tiny-encoder',
      dimension: 32,
      available: true,
      loaded: false,
    });
    expect(embedder.state().loaded).toBe(true);
  });

  it('refuses a batch size or length limit that is not a positive integer', () => {
    expect(() => new OnnxEmbedder({ path: ENCODER, batchSize: 0 })).toThrow(/batchSize/);
    expect(() => new OnnxEmbedder({ path: ENCODER, maxLength: 1.5 })).toThrow(/maxLength/);
  });
});

describe('missing files', () => {
  const cases = [
    ['onnx/model.onnx', 'onnx/model.onnx'],
    ['tokenizer.json', 'tokenizer.json'],
    ['tokenizer_config.json', 'tokenizer_config.json'],
    ['config.json', 'config.json'],
  ] as const;

  it.each(cases)('names %s when it is missing', async (removed, named) => {
    const dir = await copyFixture(`missing-${removed.replace('/', '-')}`, (d) =>
      rm(join(d, removed)),
    );
    let error: unknown;
    try {
      new OnnxEmbedder({ path: dir });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(EngramError);
    const engramError = error as EngramError;
    expect(engramError.code).toBe('CONFIG_INVALID');
    expect(engramError.details.field).toBe(ONNX_PATH_FIELD);
    expect(engramError.message).toContain(ONNX_PATH_FIELD);
    expect(engramError.message).toContain(join(dir, named));
  });

  it('names the folder when it does not exist', () => {
    const dir = join(tmp, 'nowhere');
    expect(() => new OnnxEmbedder({ path: dir })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining(dir) }),
    );
  });

  it('reports unavailable, with the reason, once a file disappears', async () => {
    const dir = await copyFixture('vanishing', async () => undefined);
    const target = open({ path: dir });
    await rm(join(dir, 'tokenizer.json'));
    expect(target.state()).toMatchObject({ available: false, loaded: false });
    expect(target.state().reason).toContain(join(dir, 'tokenizer.json'));
  });
});

describe('model file', () => {
  it('loads a top-level model.onnx', async () => {
    const dir = await copyFixture('top-level', (d) =>
      rename(join(d, 'onnx', 'model.onnx'), join(d, 'model.onnx')),
    );
    const [vector] = await embedAll(open({ path: dir }), [TEXTS[0]!]);
    const [expected] = await embedAll(embedder, [TEXTS[0]!]);
    expect(vector).toEqual(expected);
  });

  it('loads another onnx/model*.onnx when onnx/model.onnx is absent', async () => {
    const dir = await copyFixture('quantized-name', (d) =>
      rename(join(d, 'onnx', 'model.onnx'), join(d, 'onnx', 'model_quantized.onnx')),
    );
    const [vector] = await embedAll(open({ path: dir }), [TEXTS[0]!]);
    const [expected] = await embedAll(embedder, [TEXTS[0]!]);
    expect(vector).toEqual(expected);
  });

  it('fails to prepare with EMBEDDER_UNAVAILABLE on a corrupt graph, and says why in state', async () => {
    const dir = await copyFixture('corrupt', (d) =>
      writeFile(join(d, 'onnx', 'model.onnx'), 'not a model'),
    );
    const target = open({ path: dir });
    await expect(target.prepare()).rejects.toMatchObject({ code: 'EMBEDDER_UNAVAILABLE' });
    const state = target.state();
    expect(state.available).toBe(false);
    expect(state.reason).toContain(dir);
  });
});

describe('vectors', () => {
  it('returns one unit vector of the model dimension per text', async () => {
    const vectors = await embedAll(embedder, TEXTS);
    expect(vectors).toHaveLength(TEXTS.length);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector.length).toBe(32);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
  });

  it('is deterministic, across calls and across instances', async () => {
    const first = await embedAll(embedder, TEXTS);
    const again = await embedAll(embedder, TEXTS);
    const other = await embedAll(open({ path: ENCODER }), TEXTS);
    expect(again).toEqual(first);
    expect(other).toEqual(first);
  });

  it('places texts sharing words closer than unrelated texts', async () => {
    const [cat, cat2, money] = await embedAll(embedder, TEXTS.slice(0, 3));
    expect(dot(cat!, cat2!)).toBeGreaterThan(dot(cat!, money!));
  });

  it('returns null for empty and whitespace-only texts, without loading the model', async () => {
    const fresh = open({ path: ENCODER });
    expect(await fresh.embed(['', '  \n\t'])).toEqual([null, null]);
    expect(fresh.state().loaded).toBe(false);
    const mixed = await embedder.embed(['', TEXTS[0]!, ' ']);
    expect(mixed[0]).toBeNull();
    expect(mixed[1]).toBeInstanceOf(Float32Array);
    expect(mixed[2]).toBeNull();
  });

  it('refuses texts that are not strings', async () => {
    await expect(embedder.embed([1 as unknown as string])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });

  it('gives the same vectors in batches of 2 as one text at a time', async () => {
    const batched = await embedAll(open({ path: ENCODER, batchSize: 2 }), TEXTS);
    for (const [i, text] of TEXTS.entries()) {
      const [single] = await embedAll(embedder, [text]);
      expectClose(batched[i]!, single!);
    }
  });

  it('pools by CLS token or by mean, into different vectors', async () => {
    const mean = await embedAll(embedder, TEXTS);
    const cls = await embedAll(open({ path: ENCODER, pooling: 'cls' }), TEXTS);
    const declared = await embedAll(open({ path: ENCODER_CLS }), TEXTS);
    expect(declared).toEqual(cls);
    for (const [i, vector] of cls.entries()) {
      expect(norm(vector)).toBeCloseTo(1, 5);
      expect(dot(vector, mean[i]!)).toBeLessThan(0.999);
    }
    // The CLS vector depends on the whole text, not on the CLS token alone.
    expect(dot(cls[0]!, cls[2]!)).toBeLessThan(0.999);
  });

  it('returns the raw pooled vector with normalize: false', async () => {
    const raw = await embedAll(open({ path: ENCODER, normalize: false }), TEXTS);
    const unit = await embedAll(embedder, TEXTS);
    for (const [i, vector] of raw.entries()) {
      expect(Math.abs(norm(vector) - 1)).toBeGreaterThan(0.01);
      const scaled = vector.map((x) => x / norm(vector));
      expectClose(scaled, unit[i]!);
    }
  });
});

describe('length', () => {
  it('cuts texts at maxLength tokens, keeping the closing special token', async () => {
    const short = open({ path: ENCODER, maxLength: 6 });
    // [CLS] + 4 words + [SEP]: everything after the fourth word is dropped.
    const [a, b] = await embedAll(short, [
      'one two three four five six',
      'one two three four seven',
    ]);
    const [c] = await embedAll(short, ['one two three four']);
    expect(a).toEqual(b);
    expectClose(a!, c!);
    const [full] = await embedAll(embedder, ['one two three four five six']);
    expect(dot(full!, a!)).toBeLessThan(0.9999);
  });

  it('embeds a text longer than the model positions (capped by max_position_embeddings)', async () => {
    const long = Array.from({ length: 300 }, (_, i) => TEXTS[i % TEXTS.length]).join(' ');
    const [vector] = await embedAll(embedder, [long]);
    expect(norm(vector!)).toBeCloseTo(1, 5);
  });
});

describe('lifecycle', () => {
  it('embeds again after close, with the same vectors', async () => {
    const target = open({ path: ENCODER });
    const before = await embedAll(target, TEXTS);
    await target.close();
    expect(target.state().loaded).toBe(false);
    expect(await embedAll(target, TEXTS)).toEqual(before);
    expect(target.state().loaded).toBe(true);
  });

  it('imports the ONNX runtime only when a model loads', async () => {
    vi.resetModules();
    let imported = 0;
    vi.doMock('@huggingface/transformers', () => {
      imported++;
      return {};
    });
    try {
      const module = await import('./onnx-embedder.js');
      const lazy = new module.OnnxEmbedder({ path: ENCODER });
      lazy.state();
      await lazy.embed(['']);
      expect(imported).toBe(0);
      // The stand-in module has no exports, so the load fails, but only after importing it.
      await expect(lazy.prepare()).rejects.toMatchObject({ code: 'EMBEDDER_UNAVAILABLE' });
      expect(imported).toBe(1);
    } finally {
      vi.doUnmock('@huggingface/transformers');
      vi.resetModules();
    }
  });
});
