// Tests of the `openai-compatible` decision adapter against the OpenAI-compatible stand-in
// (test/support/openai-standin.ts), whose chat route answers `yes` when the question and the
// memory share >= 2 distinct words of 4+ letters, with P(yes) = min(0.95, 0.2 + 0.2 x overlap).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { type OpenAiStandIn, startOpenAiStandIn } from '../../../test/support/openai-standin.js';
import type { RelevanceDocument } from '../rerank/relevance.js';
import { DecisionError } from './adapter.js';
import { normalizeToken, parseAnswer, yesProbability } from './openai-answer.js';
import { OpenAiJudge, type OpenAiJudgeOptions } from './openai-judge.js';
import { JUDGE_SYSTEM_PROMPT } from './openai-prompt.js';

const QUERY = 'When is the quarterly budget review meeting scheduled?';
/** Documents by falling overlap with QUERY: 5, 2, 1 and 0 shared words of 4+ letters. */
const TEXTS = [
  'The quarterly budget review meeting is scheduled for Friday at ten.',
  'Budget review notes from last year.',
  'The quarterly report went out late.',
  'Lunch with Sam on Tuesday.',
];
/** The stand-in's P(yes) for each of TEXTS. */
const P_YES = [0.95, 0.6, 0.4, 0.2];
const KEY = 'sk-test-secret-key-0123456789';

let standIn: OpenAiStandIn;

beforeEach(async () => {
  standIn = await startOpenAiStandIn();
});

afterEach(async () => {
  await standIn.close();
});

function judge(options: Partial<OpenAiJudgeOptions> = {}): OpenAiJudge {
  return new OpenAiJudge({
    baseUrl: standIn.url,
    model: 'judge-model',
    retryBaseMs: 0,
    ...options,
  });
}

function docs(texts: readonly string[] = TEXTS): RelevanceDocument[] {
  return texts.map((text, i) => ({ id: `m${i}`, text }));
}

function never(): AbortSignal {
  return new AbortController().signal;
}

/** The rejection of `promise` (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => expect.fail(`expected a rejection, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
}

async function decisionFailure(promise: Promise<unknown>): Promise<DecisionError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(DecisionError);
  return error as DecisionError;
}

function bodyOf(index: number): Record<string, unknown> {
  return standIn.requests[index]!.body as Record<string, unknown>;
}

describe('OpenAiJudge with the stand-in: judgments', () => {
  it('gives graded relevance from logprobs, in order of overlap', async () => {
    const scores = await judge().judge(QUERY, docs(), never());
    scores.forEach((score, i) => expect(score).toBeCloseTo(P_YES[i]!, 6));
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('sends one deterministic yes/no chat request per candidate, asking for logprobs', async () => {
    await judge().judge(QUERY, docs(TEXTS.slice(0, 2)), never());
    expect(standIn.requests).toHaveLength(2);
    const request = standIn.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/chat/completions');
    const body = bodyOf(0);
    expect(body).toMatchObject({
      model: 'judge-model',
      temperature: 0,
      logprobs: true,
      top_logprobs: 5,
    });
    expect(body.max_tokens).toBeLessThanOrEqual(4);
    const [system, user] = body.messages as { role: string; content: string }[];
    expect(system).toEqual({ role: 'system', content: JUDGE_SYSTEM_PROMPT });
    expect(user!.role).toBe('user');
    const texts = standIn.requests.map((r) => JSON.stringify(r.body));
    expect(texts.filter((t) => t.includes(TEXTS[0]!))).toHaveLength(1);
    expect(texts.filter((t) => t.includes(TEXTS[1]!))).toHaveLength(1);
  });

  it('puts the context turns after the candidate, labelled as context', async () => {
    const document = {
      id: 'm0',
      text: 'Budget review moved to Friday.',
      context: ['Sam: can we talk about the budget?', 'Ana: sure'],
    };
    await judge().judge(QUERY, [document], never());
    const user = (bodyOf(0).messages as { content: string }[])[1]!.content;
    const memory = user.indexOf(document.text);
    const context = user.indexOf('<context>');
    expect(memory).toBeGreaterThan(user.indexOf('<question>'));
    expect(context).toBeGreaterThan(memory);
    expect(user.slice(context)).toContain('for context only');
    expect(user.indexOf(document.context[0]!)).toBeGreaterThan(context);
    expect(user.indexOf(document.context[1]!)).toBeGreaterThan(context);
  });

  it('reads yes as 1 and no as 0 when the server omits logprobs', async () => {
    standIn.set({ chatLogprobs: false });
    expect(await judge().judge(QUERY, docs(), never())).toEqual([1, 1, 0, 0]);
  });

  it('with logprobs: false, neither asks for logprobs nor reads them', async () => {
    expect(await judge({ logprobs: false }).judge(QUERY, docs(), never())).toEqual([1, 1, 0, 0]);
    for (const request of standIn.requests) {
      expect(request.body).not.toHaveProperty('logprobs');
      expect(request.body).not.toHaveProperty('top_logprobs');
    }
  });

  it('detects a server that rejects logprobs, falls back to the answer and stops asking', async () => {
    standIn.set({ chatLogprobs: 'reject' });
    const adapter = judge({ concurrency: 1 });
    expect(await adapter.judge(QUERY, docs(), never())).toEqual([1, 1, 0, 0]);
    const asked = standIn.requests.map((r) => (r.body as { logprobs?: boolean }).logprobs === true);
    expect(asked).toEqual([true, false, false, false, false]);
    expect(await adapter.judge(QUERY, docs(TEXTS.slice(0, 1)), never())).toEqual([1]);
    expect(standIn.requests).toHaveLength(6);
    expect(bodyOf(5)).not.toHaveProperty('logprobs');
  });

  it('with logprobs: true, a server that rejects them is an adapter_error', async () => {
    standIn.set({ chatLogprobs: 'reject' });
    const error = await decisionFailure(judge({ logprobs: true }).judge(QUERY, docs(), never()));
    expect(error.reason).toBe('adapter_error');
    expect(error.message).toContain('HTTP 400');
    expect(error.message).toContain('logprobs is not supported');
  });

  it('normalises a numeric answer on a 0..10 or 0..1 scale', async () => {
    standIn.set({ chatAnswer: '7' });
    expect(await judge().judge(QUERY, docs(TEXTS.slice(0, 1)), never())).toEqual([0.7]);
    standIn.set({ chatAnswer: '0.25', chatLogprobs: false });
    expect(await judge().judge(QUERY, docs(TEXTS.slice(0, 1)), never())).toEqual([0.25]);
  });

  it('an unparseable answer is an adapter_error naming the answer', async () => {
    standIn.set({ chatAnswer: 'maybe' });
    const error = await decisionFailure(judge().judge(QUERY, docs(), never()));
    expect(error.reason).toBe('adapter_error');
    expect(error.message).toContain('"maybe"');
  });

  it('judges an empty list without a request', async () => {
    expect(await judge().judge(QUERY, [], never())).toEqual([]);
    expect(standIn.requests).toHaveLength(0);
  });
});

describe('OpenAiJudge with the stand-in: failures and credentials', () => {
  it('401 is missing_credentials, quoting the server without the key', async () => {
    standIn.set({ apiKey: 'sk-the-right-one' });
    const error = await decisionFailure(judge({ apiKey: KEY }).judge(QUERY, docs(), never()));
    expect(error.reason).toBe('missing_credentials');
    expect(error.message).toContain('HTTP 401');
    expect(error.message).toContain('Incorrect API key provided');
    expect(error.message).not.toContain(KEY);
  });

  it('sends the key as a bearer token', async () => {
    standIn.set({ apiKey: KEY });
    const scores = await judge({ apiKey: KEY }).judge(QUERY, docs(), never());
    expect(scores).toHaveLength(TEXTS.length);
    expect(standIn.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('500 after its retries is an adapter_error with the status and the server text', async () => {
    standIn.set({ failNext: { count: 2, status: 500, message: `model crashed (key ${KEY})` } });
    const adapter = judge({ apiKey: KEY, maxRetries: 1 });
    const error = await decisionFailure(adapter.judge(QUERY, docs(TEXTS.slice(0, 1)), never()));
    expect(error.reason).toBe('adapter_error');
    expect(error.message).toContain('HTTP 500');
    expect(error.message).toContain('model crashed');
    expect(error.message).toContain('after 2 attempts');
    expect(error.message).not.toContain(KEY);
    expect(standIn.requests).toHaveLength(2);
  });

  it('retries a 500 once by default and then succeeds', async () => {
    standIn.set({ failNext: { count: 1, status: 500 } });
    const scores = await judge().judge(QUERY, docs(TEXTS.slice(0, 1)), never());
    expect(scores[0]).toBeCloseTo(P_YES[0]!, 6);
    expect(standIn.requests).toHaveLength(2);
  });

  it('a refused connection is an adapter_error', async () => {
    const url = standIn.url;
    await standIn.close();
    standIn = await startOpenAiStandIn();
    const adapter = new OpenAiJudge({ baseUrl: url, model: 'm', maxRetries: 0 });
    const error = await decisionFailure(adapter.judge(QUERY, docs(), never()));
    expect(error.reason).toBe('adapter_error');
    expect(error.message).toContain('network error');
  });

  it('unavailable() is missing_credentials when a key is required and absent', async () => {
    expect(judge().unavailable()).toBeNull();
    expect(judge({ requireKey: true, apiKey: KEY }).unavailable()).toBeNull();
    const keyless = judge({ requireKey: true, apiKey: '' });
    expect(keyless.unavailable()?.reason).toBe('missing_credentials');
    const error = await decisionFailure(keyless.judge(QUERY, docs(), never()));
    expect(error.reason).toBe('missing_credentials');
    expect(standIn.requests).toHaveLength(0);
  });

  it('refuses a base URL with credentials, naming the field', () => {
    expect(() => new OpenAiJudge({ baseUrl: `http://u:${KEY}@127.0.0.1/v1`, model: 'm' })).toThrow(
      /recall\.decision\.openai\.base_url/,
    );
  });
});

describe('OpenAiJudge with the stand-in: concurrency and abort', () => {
  it('keeps at most `concurrency` requests in flight', async () => {
    standIn.set({ delayMs: 100 });
    const many = docs(Array.from({ length: 12 }, (_, i) => `${TEXTS[i % 4]} (${i})`));
    const scores = await judge({ concurrency: 3 }).judge(QUERY, many, never());
    expect(scores).toHaveLength(12);
    expect(standIn.requests).toHaveLength(12);
    expect(standIn.maxInFlight()).toBe(3);
  });

  it('an abort rejects with the signal reason and stops every request', async () => {
    standIn.set({ delayMs: 600_000 });
    const controller = new AbortController();
    const judging = judge({ concurrency: 2, timeoutMs: 3_600_000 }).judge(
      QUERY,
      docs(),
      controller.signal,
    );
    await standIn.waitForRequests(2);
    const reason = new Error('deadline');
    controller.abort(reason);
    expect(await rejection(judging)).toBe(reason);
    // The server sees both connections close; no further candidate is sent.
    await vi.waitFor(() => expect(standIn.inFlight()).toBe(0));
    expect(standIn.requests).toHaveLength(2);
  });

  it('an already aborted signal rejects without a request', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(judge().judge(QUERY, docs(), controller.signal));
    expect((error as Error).name).toBe('AbortError');
    expect(standIn.requests).toHaveLength(0);
  });

  it('the first failure stops the other requests', async () => {
    standIn.set({ chatAnswer: 'maybe' });
    const error = await decisionFailure(judge({ concurrency: 1 }).judge(QUERY, docs(), never()));
    expect(error.message).toContain('(candidate m0)');
    expect(standIn.requests).toHaveLength(1);
  });
});

describe('reading answers', () => {
  it('normalises tokens to words', () => {
    expect([' Yes', 'YES.', '\u0120yes', '\u2581yes', 'no!', ' No'].map(normalizeToken)).toEqual([
      'yes',
      'yes',
      'yes',
      'yes',
      'no',
      'no',
    ]);
  });

  it('P(yes) sums the variants of yes and of no, ignoring other tokens', () => {
    const tokens = [
      { token: 'Yes', logprob: Math.log(0.3) },
      { token: ' yes', logprob: Math.log(0.3) },
      { token: 'No', logprob: Math.log(0.2) },
      { token: 'Maybe', logprob: Math.log(0.2) },
    ];
    expect(yesProbability(tokens)).toBeCloseTo(0.75, 9);
    expect(yesProbability([{ token: 'Maybe', logprob: 0 }])).toBeUndefined();
  });

  it('parses yes/no and scores on their scales', () => {
    const cases: [string, number | undefined][] = [
      ['Yes.', 1],
      [' no', 0],
      ['"No"', 0],
      ['yesterday', undefined],
      ['7', 0.7],
      ['10', 1],
      ['8/10', 0.8],
      ['0.3', 0.3],
      ['1.0', 1],
      ['75%', 0.75],
      ['11', undefined],
      ['maybe', undefined],
      ['', undefined],
    ];
    for (const [answer, expected] of cases) expect(parseAnswer(answer)).toBe(expected);
  });
});
