// Tests of the cross-encoder scorer on the tiny committed model (scripts/models/tiny_models.py),
// whose logit is 1.5 x (query words also in the document) - 2.5, give or take 0.2.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  CROSS_ENCODER_PATH_FIELD,
  CrossEncoderScorer,
  logitsToRelevance,
} from './cross-encoder.js';
import type { RelevanceDocument } from './relevance.js';

const MODEL = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'test',
  'fixtures',
  'models',
  'tiny-cross-encoder',
);

const QUERY = 'the cat sat on the mat';
/** Documents sharing more and more words with QUERY. */
const BY_OVERLAP = ['dogs run fast', 'a cat can run', 'the cat ran', 'the cat sat down'];
/** Query tokens found in each document: both "the"s of the query count when it has "the". */
const OVERLAP = [0, 1, 3, 4];

let tmp: string;
let scorer: CrossEncoderScorer;
const opened: CrossEncoderScorer[] = [];

function open(options: ConstructorParameters<typeof CrossEncoderScorer>[0]): CrossEncoderScorer {
  const made = new CrossEncoderScorer(options);
  opened.push(made);
  return made;
}

function docs(texts: readonly string[]): RelevanceDocument[] {
  return texts.map((text, i) => ({ id: `d${i}`, text }));
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'engram-cross-'));
  scorer = open({ path: MODEL });
  await scorer.prepare();
});

afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await rm(tmp, { recursive: true, force: true });
});

describe('scores', () => {
  it('is named cross-encoder', () => {
    expect(scorer.name).toBe('cross-encoder');
  });

  it('gives one score in 0..1 per document, in order', async () => {
    const scores = await scorer.score(QUERY, docs(BY_OVERLAP));
    expect(scores).toHaveLength(BY_OVERLAP.length);
    for (const score of scores) {
      expect(score).toBeGreaterThan(0);
      expect(score).toBeLessThan(1);
    }
  });

  it('grows with the query words the document shares, as the tiny graph defines', async () => {
    const scores = await scorer.score(QUERY, docs(BY_OVERLAP));
    for (const [i, score] of scores.entries()) {
      const overlap = OVERLAP[i]!;
      expect(score).toBeGreaterThan(sigmoid(1.5 * overlap - 2.7));
      expect(score).toBeLessThan(sigmoid(1.5 * overlap - 2.3));
    }
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeGreaterThan(scores[i - 1]!);
  });

  it('reads the pair in order: query words count only when the document has them', async () => {
    const [forward] = await scorer.score('cat', docs(['the cat sat on the mat']));
    const [reverse] = await scorer.score('the cat sat on the mat', docs(['cat']));
    expect(forward).toBeLessThan(reverse!);
  });

  it('is deterministic', async () => {
    const first = await scorer.score(QUERY, docs(BY_OVERLAP));
    expect(await scorer.score(QUERY, docs(BY_OVERLAP))).toEqual(first);
    expect(await open({ path: MODEL }).score(QUERY, docs(BY_OVERLAP))).toEqual(first);
  });

  it('scores the same in batches of 2 as one pair at a time', async () => {
    const texts = [...BY_OVERLAP, 'where is the mat', 'The Cat!'];
    const batched = await open({ path: MODEL, batchSize: 2 }).score(QUERY, docs(texts));
    for (const [i, text] of texts.entries()) {
      const [single] = await scorer.score(QUERY, docs([text]));
      expect(batched[i]).toBeCloseTo(single!, 6);
    }
  });

  it('scores 0 for an empty document or an empty query, without running the model', async () => {
    const fresh = open({ path: MODEL });
    expect(await fresh.score('  ', docs(BY_OVERLAP))).toEqual([0, 0, 0, 0]);
    expect(await fresh.score(QUERY, docs(['', ' \n']))).toEqual([0, 0]);
    const [, empty] = await scorer.score(QUERY, docs(['the cat', '']));
    expect(empty).toBe(0);
  });

  it('ignores a document context', async () => {
    const [plain] = await scorer.score(QUERY, docs(['dogs run fast']));
    const [withContext] = await scorer.score(QUERY, [
      { id: 'd', text: 'dogs run fast', context: ['the cat sat on the mat'] },
    ]);
    expect(withContext).toBe(plain);
  });

  it('drops the end of a pair longer than maxLength', async () => {
    // [CLS] cat sat [SEP] dogs run fast cat sat [SEP]: at 7 tokens the shared words are cut.
    const document = docs(['dogs run fast cat sat']);
    const [full] = await scorer.score('cat sat', document);
    const [cut] = await open({ path: MODEL, maxLength: 7 }).score('cat sat', document);
    expect(full).toBeGreaterThan(sigmoid(0.5 - 0.2));
    expect(cut).toBeLessThan(sigmoid(-2.5 + 0.2));
  });
});

describe('configuration', () => {
  it.each(['onnx/model.onnx', 'tokenizer.json', 'config.json'])(
    'names %s when it is missing',
    async (removed) => {
      const dir = join(tmp, `missing-${removed.replace('/', '-')}`);
      await cp(MODEL, dir, { recursive: true });
      await rm(join(dir, removed));
      expect(() => new CrossEncoderScorer({ path: dir })).toThrow(
        expect.objectContaining({
          code: 'CONFIG_INVALID',
          details: expect.objectContaining({ field: CROSS_ENCODER_PATH_FIELD }),
          message: expect.stringContaining(join(dir, removed)),
        }),
      );
    },
  );

  it('refuses a batch size that is not a positive integer', () => {
    expect(() => new CrossEncoderScorer({ path: MODEL, batchSize: 0 })).toThrow(/batchSize/);
  });
});

describe('logitsToRelevance', () => {
  it('takes the sigmoid of a single logit', () => {
    expect(logitsToRelevance(new Float32Array([0, 2, -2]), 1)).toEqual([
      0.5,
      sigmoid(2),
      sigmoid(-2),
    ]);
  });

  it('takes the softmax probability of label 1 from two logits', () => {
    const [even, relevant] = logitsToRelevance(new Float32Array([1, 1, -1, 2]), 2);
    expect(even).toBe(0.5);
    expect(relevant).toBeCloseTo(Math.exp(2) / (Math.exp(-1) + Math.exp(2)), 12);
  });
});
