/**
 * The embedding providers and relevance scorers chosen by configuration (§8), end to end through
 * the library: a local ONNX sentence encoder and a local ONNX cross-encoder (tiny models the
 * repository generates: scripts/models/tiny_models.py), and an OpenAI-compatible endpoint (the
 * stand-in server on 127.0.0.1). Each store publishes the configured model with its spec, so a
 * process configured otherwise still embeds with the published model.
 */
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { Embedder } from '../src/embed/embedder.js';
import { StaticEmbedder } from '../src/embed/static/static-embedder.js';
import { testCacheDir } from './cache-dir.js';
import { tempDir, testEngram } from './helpers.js';
import { type OpenAiStandIn, startOpenAiStandIn } from './support/openai-standin.js';

const MODELS = join(import.meta.dirname, 'fixtures', 'models');
const NOTES = [
  'The deploy script lives in the tools folder.',
  'Alice prefers green tea in the morning.',
  'The quarterly report is due on Friday.',
  'Bob keeps his bike in the garage.',
];

const servers: OpenAiStandIn[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('configured providers', () => {
  it('onnx: embeds writes and queries with the local encoder and publishes it with its spec', async () => {
    const dir = tempDir();
    const path = join(MODELS, 'tiny-encoder');
    const engram = testEngram({ dir, config: { embedder: { provider: 'onnx', onnx: { path } } } });
    await engram.rememberMany(NOTES.map((body) => ({ body })));
    await engram.idle();
    const status = await engram.status();
    expect(status.published_model).toMatchObject({ id: 'onnx:tiny-encoder', dimension: 32 });
    expect(status.store.vectors.pending).toBe(0);
    const r = await engram.recall({ query: 'green tea morning', k: 2 });
    expect(r.degraded).toEqual([]);
    expect(r.hits.some((h) => h.channels.vector !== undefined)).toBe(true);
    const models = await engram.modelsStatus();
    expect(models.published?.spec).toEqual({
      provider: 'onnx',
      path,
      pooling: 'auto',
      normalize: true,
    });
    await engram.close();

    // Another configuration on the same store: recall still embeds with the published model.
    const other = testEngram({ dir });
    const again = await other.recall({ query: 'green tea morning', k: 2 });
    expect(again.degraded).toEqual([]);
    expect((await other.modelsStatus()).configured).toEqual({
      model_id: 'static:glove-6b-100d-sif@1',
      published: false,
    });
  });

  it('onnx: a folder without its model file is a configuration error naming the file', () => {
    expect(() =>
      testEngram({
        config: { embedder: { provider: 'onnx', onnx: { path: join(MODELS, 'nope') } } },
      }),
    ).toThrow(/nope/);
    expect(() => testEngram({ config: { embedder: { provider: 'onnx' } } })).toThrow(
      /embedder\.onnx\.path/,
    );
  });

  it('openai: embeds through the stand-in server, sends the key from the environment variable', async () => {
    const server = await startOpenAiStandIn({ dimension: 20, apiKey: 'sk-test-key' });
    servers.push(server);
    const engram = testEngram({
      env: { STANDIN_KEY: 'sk-test-key' },
      config: {
        embedder: {
          provider: 'openai',
          openai: { base_url: server.url, model: 'stand-in', api_key_env: 'STANDIN_KEY' },
        },
      },
    });
    await engram.rememberMany(NOTES.map((body) => ({ body })));
    await engram.idle();
    expect((await engram.status()).published_model).toMatchObject({
      id: 'openai:stand-in',
      dimension: 20,
    });
    const r = await engram.recall({ query: 'bike garage', k: 2 });
    expect(r.degraded).toEqual([]);
    expect(r.hits[0]?.body).toContain('bike');
    expect(server.requests.every((q) => q.headers.authorization === 'Bearer sk-test-key')).toBe(
      true,
    );
  });

  it('openai: writes while the server is down are stored vector-pending and filled once it answers', async () => {
    const server = await startOpenAiStandIn({ dimension: 20 });
    servers.push(server);
    const engram = testEngram({
      config: {
        embedder: {
          provider: 'openai',
          openai: { base_url: server.url, model: 'stand-in', max_retries: 0 },
        },
      },
    });
    await engram.remember({ body: NOTES[0]! });
    server.set({ failNext: { count: 100, status: 500, message: 'model is loading' } });
    const written = await engram.remember({ body: NOTES[1]! });
    expect((await engram.get(written.memory.id)).vector).toBe('pending');
    server.set({ failNext: null });
    expect(await engram.backfill()).toBe(1);
    expect((await engram.get(written.memory.id)).vector).toBe('ready');
  });

  it('cross-encoder: reranks with the local cross-encoder and reports its relevance', async () => {
    const engram = testEngram({
      config: {
        recall: {
          rerank: {
            scorer: 'cross-encoder',
            cross_encoder: { path: join(MODELS, 'tiny-cross-encoder') },
          },
        },
      },
    });
    await engram.rememberMany(NOTES.map((body) => ({ body })));
    await engram.idle();
    const r = await engram.recall({ query: 'quarterly report Friday', k: 2, rerank: true });
    expect(r.degraded).toEqual([]);
    expect(r.hits[0]?.body).toContain('quarterly report');
  });

  it('a query that misses the semantic budget reports semantic_budget_exceeded (an embedder double that never answers queries)', async () => {
    const real = new StaticEmbedder({ cacheDir: testCacheDir() });
    let hang = false;
    const embedder: Embedder = {
      modelId: real.modelId,
      dimension: real.dimension,
      prepare: () => real.prepare(),
      embed: (texts) => (hang ? new Promise(() => undefined) : real.embed(texts)),
      state: () => real.state(),
      close: () => real.close(),
    };
    const engram = testEngram({ embedder, config: { recall: { semantic_budget_ms: 1 } } });
    await engram.rememberMany(NOTES.map((body) => ({ body })));
    await engram.idle();
    hang = true;
    const r = await engram.recall({ query: 'green tea' });
    expect(r.degraded).toContainEqual({ channel: 'vector', reason: 'semantic_budget_exceeded' });
    expect(r.hits.length).toBeGreaterThan(0);
  });
});
