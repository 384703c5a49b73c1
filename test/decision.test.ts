/**
 * Decision recall (§5.1) through the library: the stage judges the ordinary pool all or nothing
 * under one deadline, orders it by relevance and cuts to k; every fallback reason returns exactly
 * the ordinary hits; without an adapter the response is the ordinary one. Adapters: the built-in
 * alignment scorer, the tiny local cross-encoder, and an OpenAI-compatible chat endpoint (the
 * stand-in server on 127.0.0.1).
 */
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import type { RecallResponse } from '../src/domain/types.js';
import { testEngram } from './helpers.js';
import { type OpenAiStandIn, startOpenAiStandIn } from './support/openai-standin.js';

const NOTES = [
  'The deploy script lives in the tools folder of the infra repository.',
  'Alice prefers green tea in the morning and coffee after lunch.',
  'The quarterly report for finance is due on Friday afternoon.',
  'Bob keeps his bike in the garage next to the garden tools.',
  'Our staging database runs PostgreSQL 15 with pgvector.',
  'The team lunch is on Thursday at the Italian place.',
  'Carol reviews every pull request that touches billing.',
  'The office plants need water every Monday morning.',
];

const servers: OpenAiStandIn[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function seeded(decision: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const engram = testEngram({
    config: { recall: { decision, ...extra }, graph: { enabled: false } },
  });
  await engram.rememberMany(NOTES.map((body) => ({ body })));
  return engram;
}

/**
 * The parts of a response that must match (timings differ run to run, and each recall's access
 * accounting moves the frequency boost in the last digits of the scores).
 */
const answer = (r: RecallResponse) => ({
  hits: r.hits.map((h) => ({ ...h, score: Math.round(h.score * 1e6) })),
  degraded: r.degraded,
  decision: r.decision,
});
const same = (r: RecallResponse) => answer(r).hits;

async function ordinary(engram: Engram, query: string, k = 3) {
  return engram.recall({ query, k, decision: 'off' });
}

describe('decision recall', () => {
  it('without an adapter, answers exactly as ordinary recall', async () => {
    const engram = await seeded();
    const plain = await engram.recall({ query: 'green tea', k: 3 });
    expect(plain.decision).toEqual({ state: 'off' });
    expect(answer(plain)).toEqual(answer(await ordinary(engram, 'green tea')));
    expect(plain.hits.every((h) => !('relevance' in h))).toBe(true);
    expect(Object.keys(plain.timings_ms)).not.toContain('decision');
    // Asked for with no adapter: the ordinary hits, and why.
    const asked = await engram.recall({ query: 'green tea', k: 3, decision: 'on' });
    expect(asked.decision).toEqual({
      state: 'fell_back',
      reason: 'adapter_unregistered',
      adapter: 'none',
    });
    expect(same(asked)).toEqual(same(plain));
  });

  it('alignment: judges the pool, orders by relevance, cuts to k, and flags low confidence', async () => {
    const engram = await seeded({ adapter: 'alignment', pool: 8 });
    const r = await engram.recall({ query: 'when is the quarterly finance report due', k: 3 });
    expect(r.decision).toMatchObject({
      state: 'applied',
      adapter: 'alignment',
      low_confidence: false,
    });
    expect(r.hits).toHaveLength(3);
    expect(r.hits[0]?.body).toContain('quarterly report');
    const rel = r.hits.map((h) => h.relevance!);
    expect(rel.every((x) => x >= 0 && x <= 1)).toBe(true);
    expect([...rel].sort((a, b) => b - a)).toEqual(rel);
    expect(r.timings_ms.decision).toBeGreaterThanOrEqual(0);

    const none = await engram.recall({ query: 'volcanic basalt erosion rates', k: 3 });
    if (none.hits.length > 0) expect(none.decision.low_confidence).toBe(true);
  });

  it('refuses decision and legacy rerank asked together; reports rerank skipped when decision is selected', async () => {
    const engram = await seeded({ adapter: 'alignment' });
    await expect(
      engram.recall({ query: 'tea', rerank: true, decision: 'on' }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', details: { field: 'rerank' } });
    const r = await engram.recall({ query: 'tea', rerank: true });
    expect(r.decision).toMatchObject({
      state: 'applied',
      rerank: { state: 'skipped', reason: 'decision_recall_selected' },
    });
    const off = await engram.recall({ query: 'tea', decision: 'off' });
    expect(off.decision).toEqual({ state: 'off' });
  });

  it('records access only for the hits returned, not for the judged pool', async () => {
    const engram = await seeded({ adapter: 'alignment', pool: 8 });
    const r = await engram.recall({ query: 'garage bike garden tools', k: 1 });
    const returned = r.hits[0]!.id;
    await engram.idle(); // accesses are written behind recall (§3.6)
    const all = (await engram.list({ limit: 20 })).items;
    for (const m of all) expect(m.access_count, m.id).toBe(m.id === returned ? 1 : 0);
  });

  it('cross-encoder: judges with the local model; without its folder it falls back (unsupported_capabilities)', async () => {
    const path = join(import.meta.dirname, 'fixtures', 'models', 'tiny-cross-encoder');
    // Loading the model counts against the deadline: a loaded machine must not turn the
    // judgment into a fallback, so this test gives it all the time it needs.
    const engram = await seeded(
      { adapter: 'cross-encoder', deadline_ms: 600_000 },
      { rerank: { cross_encoder: { path } } },
    );
    const r = await engram.recall({ query: 'quarterly report friday', k: 2 });
    expect(r.decision).toMatchObject({ state: 'applied', adapter: 'cross-encoder' });
    expect(r.hits[0]?.body).toContain('quarterly report');

    const missing = await seeded({ adapter: 'cross-encoder' });
    const f = await missing.recall({ query: 'quarterly report friday', k: 2 });
    expect(f.decision).toMatchObject({ state: 'fell_back', reason: 'unsupported_capabilities' });
    expect(same(f)).toEqual(same(await ordinary(missing, 'quarterly report friday', 2)));
  });
});

describe('decision recall with the OpenAI-compatible stand-in chat server', () => {
  async function judged(
    switches: Parameters<typeof startOpenAiStandIn>[0] = {},
    decision: Record<string, unknown> = {},
  ) {
    const server = await startOpenAiStandIn(switches);
    servers.push(server);
    const engram = await seeded({
      adapter: 'openai-compatible',
      openai: { base_url: server.url, model: 'judge' },
      ...decision,
    });
    return { server, engram };
  }

  it('applies with graded relevance from logprobs', async () => {
    const { engram } = await judged();
    const r = await engram.recall({ query: 'which database does staging run', k: 3 });
    expect(r.decision).toMatchObject({ state: 'applied', adapter: 'openai-compatible' });
    expect(r.hits[0]?.body).toContain('staging database');
    expect(r.hits[0]!.relevance!).toBeGreaterThan(r.hits[2]!.relevance!);
  });

  it('falls back with the ordinary hits when the judge misses the deadline', async () => {
    const { engram } = await judged({ delayMs: 10_000 }, { deadline_ms: 200 });
    const r = await engram.recall({ query: 'which database does staging run', k: 3 });
    expect(r.decision).toMatchObject({ state: 'fell_back', reason: 'deadline_expired' });
    expect(same(r)).toEqual(same(await ordinary(engram, 'which database does staging run')));
  });

  it('falls back on missing credentials (401) and on server errors (adapter_error)', async () => {
    const { engram, server } = await judged({ apiKey: 'sk-needed' });
    const r = await engram.recall({ query: 'staging database', k: 3 });
    expect(r.decision).toMatchObject({ state: 'fell_back', reason: 'missing_credentials' });
    server.set({ apiKey: null, failNext: { count: 1000, status: 500, message: 'overloaded' } });
    const e = await engram.recall({ query: 'staging database', k: 3 });
    expect(e.decision).toMatchObject({ state: 'fell_back', reason: 'adapter_error' });
    expect(same(e)).toEqual(same(await ordinary(engram, 'staging database')));
  });
});

describe('decision sources (§5.3)', () => {
  it('docs: adds sections of engram documentation, labelled, only when the stage applies', async () => {
    const engram = await seeded({ adapter: 'alignment', sources: { graph: 0, docs: 3 } });
    const query = 'how do I move the store to another embedding model and roll back';
    const r = await engram.recall({ query, k: 10 });
    const docs = r.hits.filter((h) => h.source?.type === 'docs');
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.length).toBeLessThanOrEqual(3);
    for (const d of docs) {
      expect(d.id).toMatch(/^docs:/);
      expect(d.source).toMatchObject({ type: 'docs', pointer: expect.any(String) });
    }
    expect(r.hits.map((h) => h.source?.type === 'docs' && h.source.pointer)).toEqual(
      expect.arrayContaining([expect.stringMatching(/models/)]),
    );
    // Not in ordinary recall, nor in a fallback; and no memory was touched by them.
    const off = await engram.recall({ query, k: 10, decision: 'off' });
    expect(off.hits.some((h) => h.source)).toBe(false);
    const none = await seeded({ adapter: 'alignment', sources: { graph: 0, docs: 0 } });
    expect((await none.recall({ query, k: 10 })).hits.some((h) => h.source)).toBe(false);
  });

  it('sessions: adds matching turns of past sessions, labelled, and never turns them into memories', async () => {
    const engram = await seeded({
      adapter: 'alignment',
      sources: { graph: 0, docs: 0, sessions: 2 },
    });
    const [stored] = await engram.importSessions([
      {
        id: 'chat-1',
        agent: 'helper',
        turns: [
          { role: 'user', text: 'Remind me which harbour the ferry Marigold leaves from.' },
          { role: 'assistant', text: 'The ferry Marigold leaves from the north harbour at dawn.' },
        ],
      },
    ]);
    expect(stored).toMatchObject({ ok: true });
    const r = await engram.recall({ query: 'ferry Marigold harbour', k: 5 });
    const turns = r.hits.filter((h) => h.source?.type === 'session');
    expect(turns.length).toBeGreaterThan(0);
    expect(turns[0]!.source).toMatchObject({
      type: 'session',
      session_id: 'chat-1',
      agent: 'helper',
    });
    // Ordinary recall never returns turns; the session created no memory.
    const plain = await engram.recall({ query: 'ferry Marigold harbour', k: 5, decision: 'off' });
    expect(plain.hits.some((h) => h.body.includes('Marigold'))).toBe(false);
    expect((await engram.list({ limit: 50 })).items).toHaveLength(NOTES.length);
  });

  it('graph: adds memory items tied to the query entities that the pool lacks (judged by the stand-in)', async () => {
    const server = await startOpenAiStandIn();
    servers.push(server);
    const engram = testEngram({
      config: {
        recall: {
          decision: {
            adapter: 'openai-compatible',
            pool: 1,
            openai: { base_url: server.url, model: 'judge' },
            sources: { graph: 3, docs: 0 },
          },
        },
        // Extraction inline, so the graph is complete when the writes return.
        graph: { worker: false },
      },
    });
    await engram.rememberMany(
      [
        'Alice Johnson leads Project Phoenix.',
        'Project Phoenix ships the billing rewrite in March.',
        'Bob Smith joined Project Phoenix from the data team.',
        'The Phoenix team meets on Tuesdays with Alice Johnson.',
        'Unrelated: the office plants need water.',
      ].map((body) => ({ body })),
    );
    const r = await engram.recall({ query: 'Who leads Project Phoenix?', k: 1 });
    expect(r.decision).toMatchObject({ state: 'applied' });
    const chats = server.requests.filter((q) => q.path.endsWith('/chat/completions'));
    // The pool of one, plus what the graph source added.
    expect(chats.length).toBeGreaterThan(1);
    expect(chats.length).toBeLessThanOrEqual(4);
  });
});
