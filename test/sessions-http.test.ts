/**
 * Sessions over HTTP on a real 127.0.0.1 socket: import with per-record results (a bad record
 * fails alone, naming its index and field), list, get, search (turns, never memories), purge
 * (admin; then 404, the audit row kept), tokens scoped to spaces and roles, the OpenAPI document,
 * and the wall between sessions and recall.
 */
import { describe, expect, it, onTestFinished } from 'vitest';

import type { Engram } from '../src/app.js';
import { testEngram } from './helpers.js';
import { serveEngram, type TestService, TOKEN_CONFIG, TOKENS } from './http-helpers.js';

const T0 = Date.parse('2025-06-01T12:00:00Z');
const A = '/v1/spaces/team-a/sessions';

const DEPLOY = {
  id: 'conv-deploy',
  agent: 'claude',
  title: 'Deploy freeze',
  turns: [
    {
      role: 'user',
      text: 'Can we deploy the quokkaflux relay on Friday?',
      at: '2025-05-02T09:00:00Z',
    },
    {
      role: 'assistant',
      text: 'No: Friday deploys of the quokkaflux relay are frozen until the audit.',
      at: '2025-05-02T09:00:05Z',
    },
  ],
};

const GARDEN = {
  id: 'conv-garden',
  agent: 'codex',
  started_at: '2025-05-10T08:00:00Z',
  source: { tool: 'chat-export', original_id: 'g-1', exported_by: { name: 'me' } },
  turns: [{ role: 'user', text: 'Water the fern twice a week in summer.' }],
};

const INGRESS = {
  id: 'conv-ingress',
  agent: 'claude',
  started_at: '2025-04-01T08:00:00Z',
  turns: [{ role: 'user', text: 'The ingress drops websocket connections.' }],
};

/** A service with tokens (TOKEN_CONFIG) over an engram with a fixed clock and no embedder. */
async function serve(): Promise<{ engram: Engram; request: TestService['request'] }> {
  const engram = testEngram({
    now: () => T0,
    config: { embedder: { provider: 'none' }, server: { tokens: TOKEN_CONFIG } },
  });
  const server = await serveEngram(engram);
  onTestFinished(() => server.close());
  return { engram, request: server.request };
}

async function seeded() {
  const s = await serve();
  const res = await s.request('POST', A, {
    token: TOKENS.writerA,
    json: { records: [DEPLOY, GARDEN, INGRESS] },
  });
  expect(res.status, res.text).toBe(200);
  return s;
}

describe('sessions over HTTP', () => {
  it('imports records one by one: a bad record fails alone with its index and field', async () => {
    const { request } = await serve();
    const res = await request('POST', A, {
      token: TOKENS.writerA,
      json: {
        records: [
          DEPLOY,
          { id: 'conv-bad', turns: [{ role: 'robot', text: 'beep' }] },
          { id: 'conv-other', space: 'team-b', turns: [{ role: 'user', text: 'elsewhere' }] },
          'not a session',
          { ...GARDEN, space: 'team-a' },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results).toEqual([
      { index: 0, ok: true, id: 'conv-deploy', status: 'created', turns: 2 },
      {
        index: 1,
        ok: false,
        error: {
          code: 'INVALID_INPUT',
          message: 'turns[0].role: must be one of user, assistant, system, tool',
          field: 'turns[0].role',
        },
      },
      {
        index: 2,
        ok: false,
        error: {
          code: 'INVALID_INPUT',
          message: 'space: a record may only name the space of the path',
          field: 'space',
        },
      },
      { index: 3, ok: false, error: expect.objectContaining({ field: '(root)' }) },
      { index: 4, ok: true, id: 'conv-garden', status: 'created', turns: 1 },
    ]);
    const again = await request('POST', A, {
      token: TOKENS.writerA,
      json: {
        records: [DEPLOY, { turns: [{ role: 'user', text: 'no id, no agent' }] }],
        agent: 'fallback-agent',
      },
    });
    expect(again.body.results[0]).toMatchObject({ ok: true, status: 'exists' });
    const dry = await request('POST', A, {
      token: TOKENS.writerA,
      json: { records: [INGRESS], dry_run: true },
    });
    expect(dry.body.results).toEqual([
      { index: 0, ok: true, id: 'conv-ingress', status: 'valid', turns: 1 },
    ]);
    const listed = await request('GET', `${A}?limit=10`, { token: TOKENS.readerA });
    const ids = listed.body.sessions.map((s: { id: string }) => s.id);
    expect(ids).toContain('conv-deploy');
    expect(ids).toContain('conv-garden');
    expect(ids).not.toContain('conv-ingress');
    expect(ids).not.toContain('conv-other');
    // The record naming no agent took the batch's; the one naming its own kept it.
    const unnamed = await request('GET', `${A}/${again.body.results[1].id}`, {
      token: TOKENS.readerA,
    });
    expect(unnamed.body.agent).toBe('fallback-agent');
  });

  it('refuses a body that is not a batch, and a batch over the limit', async () => {
    const { request, engram } = await serve();
    const bare = await request('POST', A, { token: TOKENS.writerA, json: [DEPLOY] });
    expect([bare.status, bare.body.error.code]).toEqual([400, 'INVALID_INPUT']);
    const max = engram.config.limits.max_batch_items;
    const big = await request('POST', A, {
      token: TOKENS.writerA,
      json: { records: Array.from({ length: max + 1 }, () => DEPLOY) },
    });
    expect([big.status, big.body.error.details.field]).toEqual([413, 'records']);
  });

  it('lists newest first without turns, by agent, page by page', async () => {
    const { request } = await seeded();
    const all = await request('GET', A, { token: TOKENS.readerA });
    expect(all.status).toBe(200);
    expect(all.body.sessions.map((s: { id: string }) => s.id)).toEqual([
      'conv-garden',
      'conv-deploy',
      'conv-ingress',
    ]);
    expect(all.body.sessions[0]).toEqual({
      id: 'conv-garden',
      space: 'team-a',
      agent: 'codex',
      title: null,
      started_at: '2025-05-10T08:00:00.000Z',
      ended_at: null,
      source: GARDEN.source,
      created_at: new Date(T0).toISOString(),
      turn_count: 1,
    });
    const claude = await request('GET', `${A}?agent=claude`, { token: TOKENS.readerA });
    expect(claude.body.sessions.map((s: { id: string }) => s.id)).toEqual([
      'conv-deploy',
      'conv-ingress',
    ]);
    const first = await request('GET', `${A}?limit=2`, { token: TOKENS.readerA });
    expect(first.body.sessions).toHaveLength(2);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const next = await request(
      'GET',
      `${A}?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      { token: TOKENS.readerA },
    );
    expect(next.body).toEqual({
      sessions: [expect.objectContaining({ id: 'conv-ingress' })],
      next_cursor: null,
    });
    for (const bad of ['limit=0', 'limit=x', 'colour=red', 'cursor=nope']) {
      const res = await request('GET', `${A}?${bad}`, { token: TOKENS.readerA });
      expect([res.status, res.body.error.code], bad).toEqual([400, 'INVALID_INPUT']);
    }
  });

  it('gets one session with its turns; an unknown id is 404', async () => {
    const { request } = await seeded();
    const res = await request('GET', `${A}/conv-deploy`, { token: TOKENS.readerA });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: 'conv-deploy',
      space: 'team-a',
      agent: 'claude',
      title: 'Deploy freeze',
      started_at: '2025-05-02T09:00:00.000Z',
      ended_at: '2025-05-02T09:00:05.000Z',
      source: null,
      created_at: new Date(T0).toISOString(),
      turns: DEPLOY.turns.map((t, index) => ({
        index,
        role: t.role,
        text: t.text,
        at: new Date(t.at).toISOString(),
      })),
    });
    const missing = await request('GET', `${A}/conv-nope`, { token: TOKENS.readerA });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const bad = await request('GET', `${A}/bad%20id`, { token: TOKENS.readerA });
    expect([bad.status, bad.body.error.details.field]).toEqual([400, 'id']);
  });

  it('searches turns, best first, and never returns a memory', async () => {
    const { request } = await seeded();
    const memory = await request('POST', '/v1/spaces/team-a/memories', {
      token: TOKENS.writerA,
      json: { body: 'Friday deploys of the quokkaflux relay are frozen.', kind: 'fact' },
    });
    expect(memory.status).toBe(201);
    const res = await request('POST', `${A}/search`, {
      token: TOKENS.readerA,
      json: { query: 'quokkaflux relay frozen' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.hits[0]).toMatchObject({
      session_id: 'conv-deploy',
      turn_index: 1,
      role: 'assistant',
      text: DEPLOY.turns[1]!.text,
      score: expect.any(Number),
      session: {
        id: 'conv-deploy',
        agent: 'claude',
        title: 'Deploy freeze',
        started_at: '2025-05-02T09:00:00.000Z',
      },
    });
    for (const hit of res.body.hits) {
      expect(hit.session_id).toBe('conv-deploy');
      expect(hit.session_id).not.toBe(memory.body.memory.id);
    }
    const byAgent = await request('POST', `${A}/search`, {
      token: TOKENS.readerA,
      json: { query: 'quokkaflux', agent: 'codex' },
    });
    expect(byAgent.body.hits).toEqual([]);
    const capped = await request('POST', `${A}/search`, {
      token: TOKENS.readerA,
      json: { query: 'quokkaflux', limit: 1 },
    });
    expect(capped.body.hits).toHaveLength(1);
    for (const [json, field] of [
      [{ query: '  ' }, 'query'],
      [{ query: 'x', limit: 0 }, 'limit'],
      [{ query: 'x', space: 'team-b' }, 'space'],
    ] as const) {
      const bad = await request('POST', `${A}/search`, { token: TOKENS.readerA, json });
      expect([bad.status, bad.body.error.details.field], JSON.stringify(json)).toEqual([
        400,
        field,
      ]);
    }
  });

  it("never puts a session's text in recall results", async () => {
    const { request } = await seeded();
    await request('POST', '/v1/spaces/team-a/memories', {
      token: TOKENS.writerA,
      json: { body: 'The fern on the balcony belongs to Sam.', kind: 'fact' },
    });
    for (const query of ['quokkaflux relay Friday deploys', 'water the fern twice a week']) {
      const res = await request('POST', '/v1/spaces/team-a/recall', {
        token: TOKENS.readerA,
        json: { query, k: 10 },
      });
      expect(res.status, res.text).toBe(200);
      for (const turn of [...DEPLOY.turns, ...GARDEN.turns])
        expect(res.text, query).not.toContain(turn.text);
    }
    const fern = await request('POST', '/v1/spaces/team-a/recall', {
      token: TOKENS.readerA,
      json: { query: 'water the fern twice a week', k: 10 },
    });
    expect(fern.body.hits.map((h: { body: string }) => h.body)).toEqual([
      'The fern on the balcony belongs to Sam.',
    ]);
  });

  it('purges with an admin token: audited, then 404, the id not stored again', async () => {
    const { request, engram } = await seeded();
    for (const token of [TOKENS.readerA, TOKENS.writerA]) {
      const res = await request('DELETE', `${A}/conv-deploy`, { token });
      expect([res.status, res.body.error.code]).toEqual([403, 'FORBIDDEN']);
    }
    const purged = await request('DELETE', `${A}/conv-deploy?reason=privacy%20request`, {
      token: TOKENS.admin,
    });
    expect(purged.status, purged.text).toBe(200);
    const audit = {
      id: 'conv-deploy',
      space: 'team-a',
      actor: 'admin',
      reason: 'privacy request',
      at: new Date(T0).toISOString(),
    };
    expect(purged.body).toEqual({ id: 'conv-deploy', purged: true, audit });
    const gone = await request('GET', `${A}/conv-deploy`, { token: TOKENS.readerA });
    expect([gone.status, gone.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const search = await request('POST', `${A}/search`, {
      token: TOKENS.readerA,
      json: { query: 'quokkaflux' },
    });
    expect(search.body.hits).toEqual([]);
    const twice = await request('DELETE', `${A}/conv-deploy`, { token: TOKENS.admin });
    expect(twice.status).toBe(404);
    const reimport = await request('POST', A, {
      token: TOKENS.writerA,
      json: { records: [DEPLOY] },
    });
    expect(reimport.body.results[0]).toMatchObject({ ok: true, status: 'purged' });
    const rows = [];
    for await (const r of engram.storeForTransfer.sessions!.exportSessions('team-a'))
      if (r.kind === 'session_purge') rows.push(r.value);
    expect(rows).toEqual([{ ...audit, at: T0 }]);
  });

  it('keeps spaces apart: a token without the space is 403, another space holds its own', async () => {
    const { request } = await seeded();
    const calls: [string, string, unknown?][] = [
      ['GET', A],
      ['GET', `${A}/conv-deploy`],
      ['POST', `${A}/search`, { query: 'quokkaflux' }],
      ['POST', A, { records: [GARDEN] }],
      ['DELETE', `${A}/conv-deploy`],
    ];
    for (const [method, path, json] of calls) {
      const res = await request(method, path, { token: TOKENS.writerB, json });
      expect([res.status, res.body.error.code], `${method} ${path}`).toEqual([403, 'FORBIDDEN']);
    }
    const anon = await request('GET', A);
    expect(anon.status).toBe(401);
    const readerWrites = await request('POST', A, {
      token: TOKENS.readerA,
      json: { records: [GARDEN] },
    });
    expect(readerWrites.status).toBe(403);
    const B = '/v1/spaces/team-b/sessions';
    const mine = await request('POST', B, {
      token: TOKENS.writerB,
      json: { records: [{ ...GARDEN, id: 'conv-b' }] },
    });
    expect(mine.body.results[0]).toMatchObject({ ok: true, status: 'created' });
    const listB = await request('GET', B, { token: TOKENS.writerB });
    expect(listB.body.sessions.map((s: { id: string }) => s.id)).toEqual(['conv-b']);
    const fromB = await request('GET', `${B}/conv-deploy`, { token: TOKENS.writerB });
    expect(fromB.status).toBe(404);
    const searchB = await request('POST', `${B}/search`, {
      token: TOKENS.writerB,
      json: { query: 'quokkaflux' },
    });
    expect(searchB.body.hits).toEqual([]);
  });

  it('documents the routes and their schemas in the OpenAPI document', async () => {
    const { request } = await serve();
    const doc = (await request('GET', '/v1/openapi.json')).body;
    expect(Object.keys(doc.paths['/v1/spaces/{space}/sessions']).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/v1/spaces/{space}/sessions/{id}']).sort()).toEqual([
      'delete',
      'get',
    ]);
    expect(Object.keys(doc.paths['/v1/spaces/{space}/sessions/search'])).toEqual(['post']);
    for (const name of [
      'Session',
      'SessionPage',
      'SessionSearchResult',
      'SessionImportResults',
      'SessionPurgeResult',
      'SessionImportBody',
      'SessionSearchBody',
      'SessionRecord',
    ])
      expect(doc.components.schemas, name).toHaveProperty(name);
    const purge = doc.paths['/v1/spaces/{space}/sessions/{id}'].delete;
    expect(purge.responses['404'].description).toMatch(/session/u);
  });
});
