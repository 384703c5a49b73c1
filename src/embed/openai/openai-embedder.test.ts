// Tests of the OpenAI-compatible embedder, through a real HTTP socket to the stand-in server, and
// of its retry rules as pure functions. No test asserts how long anything took.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  type OpenAiStandIn,
  standInEmbedding,
  startOpenAiStandIn,
} from '../../../test/support/openai-standin.js';
import { EngramError, isEngramError } from '../../domain/errors.js';
import { dot } from '../embedder.js';
import { type OpenAiEmbedderOptions, PROBE_TEXT } from './openai-embedder.js';
import { OpenAiEmbedder } from './openai-embedder.js';
import { MAX_ERROR_TEXT } from './retry.js';

const KEY = 'sk-test-0123456789abcdef';

let server: OpenAiStandIn;
const embedders: OpenAiEmbedder[] = [];

beforeEach(async () => {
  server = await startOpenAiStandIn();
});

afterEach(async () => {
  while (embedders.length) await embedders.pop()!.close();
  await server.close();
});

function embedder(options: Partial<OpenAiEmbedderOptions> = {}): OpenAiEmbedder {
  const made = new OpenAiEmbedder({
    baseUrl: server.url,
    model: 'test-embed',
    retryBaseMs: 1,
    ...options,
  });
  embedders.push(made);
  return made;
}

/** A fetch that counts its calls (attempts), for failures the server may not see. */
function countingFetch(): { fetch: typeof fetch; calls: () => number } {
  let calls = 0;
  return {
    fetch: (input, init) => {
      calls++;
      return fetch(input, init);
    },
    calls: () => calls,
  };
}

async function failure(promise: Promise<unknown>): Promise<EngramError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isEngramError(error)) throw new Error(`expected an EngramError, got ${String(error)}`);
  return error;
}

function expectVectorOf(actual: Float32Array | null | undefined, text: string, dimension = 16) {
  const raw = standInEmbedding(text, dimension);
  const norm = Math.sqrt(raw.reduce((s, v) => s + v * v, 0));
  expect(actual).toBeInstanceOf(Float32Array);
  expect(actual!.length).toBe(dimension);
  raw.forEach((v, i) => expect(actual![i]).toBeCloseTo(v / norm, 6));
}

function inputsOf(request: { body: unknown } | undefined): unknown {
  return (request?.body as { input?: unknown } | undefined)?.input;
}

describe('OpenAiEmbedder against the OpenAI-compatible stand-in server', () => {
  describe('requests and vectors', () => {
    it('posts the documented body and returns unit vectors in input order', async () => {
      const e = embedder({ dimensions: 16 });
      const texts = ['the cat sat', 'a dog ran far', 'the cat ran'];
      const vectors = await e.embed(texts);
      expect(vectors).toHaveLength(3);
      texts.forEach((t, i) => expectVectorOf(vectors[i], t));
      for (const v of vectors) expect(dot(v!, v!)).toBeCloseTo(1, 5);
      expect(server.requests).toHaveLength(1);
      const [request] = server.requests;
      expect(request!.method).toBe('POST');
      expect(request!.path).toBe('/v1/embeddings');
      expect(request!.headers['content-type']).toBe('application/json');
      expect(request!.body).toEqual({
        model: 'test-embed',
        input: texts,
        encoding_format: 'float',
        dimensions: 16,
      });
    });

    it('orders vectors by `index`, not by their position in `data`', async () => {
      server.set({ reverseOrder: true });
      const texts = ['alpha beta', 'gamma', 'delta epsilon zeta'];
      const vectors = await embedder({ dimensions: 16 }).embed(texts);
      texts.forEach((t, i) => expectVectorOf(vectors[i], t));
    });

    it('returns null for empty and whitespace-only texts without sending them', async () => {
      const vectors = await embedder({ dimensions: 16 }).embed(['', '  ', 'hello world', '\n\t']);
      expect(vectors[0]).toBeNull();
      expect(vectors[1]).toBeNull();
      expectVectorOf(vectors[2], 'hello world');
      expect(vectors[3]).toBeNull();
      expect(server.requests.map(inputsOf)).toEqual([['hello world']]);
    });

    it('makes no request at all when every text is empty', async () => {
      const e = embedder();
      expect(await e.embed(['', ' '])).toEqual([null, null]);
      expect(await e.embed([])).toEqual([]);
      expect(server.requests).toHaveLength(0);
    });

    it('returns null for a zero vector (a text the server gives no weight)', async () => {
      const vectors = await embedder({ dimensions: 16 }).embed(['?!', 'word']);
      expect(vectors[0]).toBeNull();
      expectVectorOf(vectors[1], 'word');
    });

    it('splits texts into requests of at most batchSize inputs', async () => {
      const texts = ['one', 'two', '', 'three', 'four', 'five', 'six', 'seven'];
      const vectors = await embedder({ dimensions: 16, batchSize: 3 }).embed(texts);
      expect(server.requests.map((r) => (inputsOf(r) as string[]).length)).toEqual([3, 3, 1]);
      expect(server.requests.flatMap((r) => inputsOf(r) as string[])).toEqual(
        texts.filter((t) => t !== ''),
      );
      texts.forEach((t, i) =>
        t === '' ? expect(vectors[i]).toBeNull() : expectVectorOf(vectors[i], t),
      );
    });

    it('rejects texts that are not an array of strings as the caller’s fault', async () => {
      const error = await failure(embedder().embed([1 as unknown as string]));
      expect(error.code).toBe('INVALID_INPUT');
      expect(server.requests).toHaveLength(0);
    });
  });

  describe('dimension and model id', () => {
    it('sends `dimensions` only when configured and stamps it on the model id', async () => {
      const sized = embedder({ dimensions: 8 });
      expect(sized.modelId).toBe('openai:test-embed@8');
      expect(sized.dimension).toBe(8);
      const [vector] = await sized.embed(['some words']);
      expectVectorOf(vector, 'some words', 8);

      const plain = embedder();
      expect(plain.modelId).toBe('openai:test-embed');
      expect(embedder({ modelId: 'ollama:nomic@1' }).modelId).toBe('ollama:nomic@1');
      await plain.embed(['some words']);
      const bodies = server.requests.map((r) => r.body as Record<string, unknown>);
      expect(bodies[0]).toHaveProperty('dimensions', 8);
      expect(bodies.slice(1).every((b) => !('dimensions' in b))).toBe(true);
    });

    it('learns the dimension in prepare() with one probe request', async () => {
      const e = embedder();
      expect(e.dimension).toBe(0);
      expect(e.state()).toMatchObject({ dimension: 0, loaded: false, available: true });
      await e.prepare();
      expect(e.dimension).toBe(16);
      expect(e.state()).toMatchObject({ dimension: 16, loaded: true, available: true });
      expect(server.requests.map(inputsOf)).toEqual([[PROBE_TEXT]]);
      await e.prepare();
      expect(server.requests).toHaveLength(1);
    });

    it('probes by itself on the first embed, once for concurrent calls', async () => {
      server.set({ dimension: 12 });
      const e = embedder();
      const [a, b] = await Promise.all([e.embed(['first text']), e.embed(['second text'])]);
      expectVectorOf(a[0], 'first text', 12);
      expectVectorOf(b[0], 'second text', 12);
      const probes = server.requests.filter((r) => (inputsOf(r) as string[])[0] === PROBE_TEXT);
      expect(probes).toHaveLength(1);
      expect(server.requests).toHaveLength(3);
    });

    it('rejects a vector whose length differs from the learned dimension', async () => {
      const e = embedder();
      await e.prepare();
      server.set({ dimension: 12 });
      const error = await failure(e.embed(['changed model']));
      expect(error.code).toBe('EMBEDDER_UNAVAILABLE');
      expect(error.details.rule).toBe('dimension_mismatch');
      expect(error.message).toContain('has 12 numbers, expected 16');
    });
  });

  describe('authentication', () => {
    it('sends the bearer key only when one is configured', async () => {
      server.set({ apiKey: KEY });
      await embedder({ dimensions: 16, apiKey: KEY }).embed(['with key']);
      expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);

      server.set({ apiKey: null });
      await embedder({ dimensions: 16 }).embed(['without key']);
      expect(server.requests[1]!.headers).not.toHaveProperty('authorization');
    });

    it('reports a 401 without retrying and never repeats the key, even when the server does', async () => {
      server.set({ apiKey: 'sk-the-right-one' });
      const e = embedder({ dimensions: 16, apiKey: KEY });
      const error = await failure(e.embed(['hello']));
      expect(error.code).toBe('EMBEDDER_UNAVAILABLE');
      expect(error.message).toContain('HTTP 401');
      expect(error.message).toContain('Incorrect API key provided');
      expect(server.requests).toHaveLength(1);
      const reported = [error.message, JSON.stringify(error.toJSON()), e.state().reason ?? ''];
      for (const text of reported) expect(text).not.toContain(KEY);
    });
  });

  describe('retries', () => {
    it('honours Retry-After on a 429 and then succeeds', { timeout: 5_000 }, async () => {
      // A back-off base of a minute would outlast the test timeout; Retry-After: 0 must win.
      server.set({ failNext: { count: 2, status: 429, retryAfter: '0' } });
      const e = embedder({ dimensions: 16, retryBaseMs: 60_000 });
      const [vector] = await e.embed(['rate limited']);
      expectVectorOf(vector, 'rate limited');
      expect(server.requests).toHaveLength(3);
      expect(e.state()).toMatchObject({ available: true, loaded: true });
    });

    it('retries a 500 and then succeeds', async () => {
      server.set({ failNext: { count: 2, status: 500 } });
      const [vector] = await embedder({ dimensions: 16 }).embed(['flaky']);
      expectVectorOf(vector, 'flaky');
      expect(server.requests).toHaveLength(3);
    });

    it('gives up after maxRetries with the status and the server’s error text', async () => {
      server.set({ failNext: { count: 10, status: 503, message: 'backend exploded' } });
      const e = embedder({ dimensions: 16, maxRetries: 2 });
      const error = await failure(e.embed(['doomed']));
      expect(error.code).toBe('EMBEDDER_UNAVAILABLE');
      expect(error.message).toContain('HTTP 503');
      expect(error.message).toContain('backend exploded');
      expect(error.message).toContain('after 3 attempts');
      expect(error.details).toMatchObject({ rule: 'http_status', status: 503, attempts: 3 });
      expect(server.requests).toHaveLength(3);
    });

    it('quotes a non-JSON error body trimmed', async () => {
      const page = `<html><body>Bad gateway ${'x'.repeat(2_000)}</body></html>`;
      server.set({ failNext: { count: 1, status: 502, rawBody: page } });
      const error = await failure(embedder({ dimensions: 16, maxRetries: 0 }).embed(['proxy']));
      expect(error.message).toContain('HTTP 502: <html><body>Bad gateway');
      expect(error.message.length).toBeLessThan(MAX_ERROR_TEXT + 200);
    });

    it('does not retry a 400, and names the input the server rejected', async () => {
      server.set({ failOnInput: 'POISON' });
      const error = await failure(
        embedder({ dimensions: 16 }).embed(['fine text', 'text with POISON in it']),
      );
      expect(error.message).toContain('HTTP 400');
      expect(error.message).toContain('input[1] contains the marker "POISON"');
      expect(error.details).toMatchObject({ status: 400, attempts: 1 });
      expect(server.requests).toHaveLength(1);
    });

    it('does not retry a 404, and hints at the base URL', async () => {
      const e = embedder({ baseUrl: server.url.replace(/\/v1$/, ''), dimensions: 16 });
      const error = await failure(e.embed(['wrong root']));
      expect(error.message).toContain('HTTP 404: Unknown request URL: POST /embeddings');
      expect(error.message).toContain('often ending in /v1');
      expect(server.requests).toHaveLength(1);
    });

    it('times out a slow request, retries it, then reports the timeout', async () => {
      server.set({ delayMs: 10_000 });
      const counter = countingFetch();
      const e = embedder({ dimensions: 16, timeoutMs: 50, maxRetries: 1, fetch: counter.fetch });
      const error = await failure(e.embed(['slow']));
      expect(error.code).toBe('EMBEDDER_UNAVAILABLE');
      expect(error.details.rule).toBe('timeout');
      expect(error.message).toContain('no answer within 50 ms');
      expect(counter.calls()).toBe(2);
    });

    it('retries a refused connection, then reports the network error', async () => {
      const url = server.url;
      await server.close();
      server = await startOpenAiStandIn();
      const counter = countingFetch();
      const e = embedder({ baseUrl: url, dimensions: 16, maxRetries: 2, fetch: counter.fetch });
      const error = await failure(e.embed(['nobody home']));
      expect(error.details.rule).toBe('network');
      expect(error.message).toContain('network error');
      expect(counter.calls()).toBe(3);
    });
  });

  describe('malformed answers', () => {
    const cases = [
      ['bad_json', 'the body is not valid JSON', 'malformed_response'],
      ['missing_data', 'malformed response: data:', 'malformed_response'],
      ['wrong_count', '1 embeddings for 2 inputs', 'malformed_response'],
      ['wrong_length', 'data[0].embedding has 15 numbers, expected 16', 'dimension_mismatch'],
      ['not_numbers', 'data[0].embedding[0] is not a finite number', 'malformed_response'],
      ['duplicate_index', 'data[1].index 0 appears twice', 'malformed_response'],
    ] as const;

    it.each(cases)('%s: says what was wrong and does not retry', async (mode, says, rule) => {
      server.set({ malformed: mode });
      const e = embedder({ dimensions: 16 });
      const error = await failure(e.embed(['first text', 'second text']));
      expect(error.code).toBe('EMBEDDER_UNAVAILABLE');
      expect(error.message).toContain(says);
      expect(error.details.rule).toBe(rule);
      expect(server.requests).toHaveLength(1);
      expect(e.state()).toMatchObject({ available: false, loaded: false });
    });
  });

  describe('state and close', () => {
    it('turns unavailable with the reason after a failure and back after a success', async () => {
      const e = embedder({ dimensions: 16, maxRetries: 0 });
      expect(e.state()).toEqual({
        model_id: 'openai:test-embed@16',
        dimension: 16,
        available: true,
        loaded: false,
      });
      server.set({ failNext: { count: 1, status: 500, message: 'warming up' } });
      await failure(e.embed(['first']));
      expect(e.state()).toMatchObject({ available: false, loaded: false });
      expect(e.state().reason).toContain('warming up');
      await e.embed(['second']);
      expect(e.state()).toEqual({
        model_id: 'openai:test-embed@16',
        dimension: 16,
        available: true,
        loaded: true,
      });
      const seen = server.requests.length;
      e.state();
      expect(server.requests).toHaveLength(seen);
    });

    it('close() aborts a request in flight without marking the server unavailable', async () => {
      server.set({ delayMs: 30_000 });
      const e = embedder({ dimensions: 16, maxRetries: 0 });
      const pending = failure(e.embed(['never answered']));
      await server.waitForRequests(1);
      await e.close();
      const error = await pending;
      expect(error.code).toBe('EMBEDDER_UNAVAILABLE');
      expect(error.details.rule).toBe('closed');
      expect(e.state().available).toBe(true);
    });

    it('close() also ends a wait between retries', async () => {
      server.set({ failNext: { count: 10, status: 500 } });
      const e = embedder({ dimensions: 16, retryBaseMs: 60_000 });
      const pending = failure(e.embed(['waiting to retry']));
      await server.waitForRequests(1);
      await e.close();
      expect((await pending).details.rule).toBe('closed');
      expect(server.requests).toHaveLength(1);
    });
  });
});

describe('OpenAiEmbedder options', () => {
  const base = { baseUrl: 'http://127.0.0.1:1/v1', model: 'm' };
  const bad: [string, Partial<OpenAiEmbedderOptions>][] = [
    ['base_url', { baseUrl: 'ftp://example.com/v1' }],
    ['base_url', { baseUrl: 'not a url' }],
    ['base_url', { baseUrl: 'http://user:hunter2@example.com/v1' }],
    ['base_url', { baseUrl: 'http://example.com/v1?key=1' }],
    ['model', { model: '  ' }],
    ['dimensions', { dimensions: 0 }],
    ['dimensions', { dimensions: 1.5 }],
    ['batch_size', { batchSize: 0 }],
    ['batch_size', { batchSize: 5_000 }],
    ['timeout_ms', { timeoutMs: 0 }],
    ['max_retries', { maxRetries: -1 }],
    ['retry_base_ms', { retryBaseMs: -5 }],
    ['api_key', { apiKey: '' }],
    ['api_key', { apiKey: 'sk-has a space\n' }],
    ['model_id', { modelId: '' }],
  ];

  it.each(bad)('rejects a bad embedder.openai.%s', (field, options) => {
    let error: unknown;
    try {
      new OpenAiEmbedder({ ...base, ...options });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EngramError);
    const engram = error as EngramError;
    expect(engram.code).toBe('CONFIG_INVALID');
    expect(engram.details.field).toBe(`embedder.openai.${field}`);
    expect(engram.message).toContain(`embedder.openai.${field}`);
    expect(engram.message).not.toContain('hunter2');
    expect(engram.message).not.toContain('sk-has');
  });

  it('accepts a base URL with a trailing slash', async () => {
    const server = await startOpenAiStandIn();
    try {
      const e = new OpenAiEmbedder({ baseUrl: `${server.url}/`, model: 'm', dimensions: 16 });
      await e.embed(['slash']);
      expect(server.requests[0]!.path).toBe('/v1/embeddings');
    } finally {
      await server.close();
    }
  });
});
