/**
 * Every route of the HTTP API on a real server (ephemeral 127.0.0.1 port, real sockets). Each
 * JSON response is also checked against the response schema the OpenAPI document publishes.
 */
import { describe, expect, it } from 'vitest';

import {
  BatchResultSchema,
  HistorySchema,
  MemoryPageSchema,
  MemorySchema,
  RelationsResultSchema,
  RememberResultSchema,
  SupersedeResultSchema,
} from '../src/interfaces/responses/memories.js';
import { RecallResponseSchema } from '../src/interfaces/responses/recall.js';
import { HealthSchema, StatusSchema } from '../src/interfaces/responses/status.js';
import { jsonLines, startTestService, type TestService } from './http-helpers.js';

const M = '/v1/spaces/default/memories';

async function remember(s: TestService, body: Record<string, unknown>): Promise<string> {
  const res = await s.request('POST', M, { json: body });
  expect(res.status, res.text).toBe(201);
  return RememberResultSchema.parse(res.body).memory.id;
}

describe('HTTP API routes', () => {
  it('GET /v1/health reports store, embedder and worker without a token', async () => {
    const s = await startTestService({ server: { tokens: [] } });
    const res = await s.request('GET', '/v1/health');
    expect(res.status).toBe(200);
    const health = HealthSchema.parse(res.body);
    expect(health.components.store.status).toBe('ok');
    expect(['ok', 'loading']).toContain(health.components.embedder.status);
    expect(health.components.worker.status).toBe('ok');
    expect(res.text).not.toContain(s.dir);
    expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('remembers one memory (201) and returns an exact duplicate (200)', async () => {
    const s = await startTestService();
    const body = {
      body: 'Alex prefers TypeScript over Python.',
      kind: 'preference',
      tags: ['lang'],
    };
    const first = await s.request('POST', M, { json: body });
    expect(first.status).toBe(201);
    expect(RememberResultSchema.parse(first.body)).toMatchObject({
      created: true,
      memory: { kind: 'preference', space: 'default' },
    });
    const again = await s.request('POST', M, { json: body });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ created: false, memory: { id: first.body.memory.id } });
  });

  it('remembers a batch: each bad item fails alone, an item naming another space fails', async () => {
    const s = await startTestService();
    const res = await s.request('POST', `${M}/batch`, {
      json: {
        items: [
          { body: 'First good item.' },
          { kind: 'fact' },
          { body: 'Item aimed at another space.', space: 'team-b' },
          { body: 'Second good item.', space: 'default' },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    const { results } = BatchResultSchema.parse(res.body);
    expect(results.map((r) => [r.index, r.ok])).toEqual([
      [0, true],
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(results[1]).toMatchObject({ error: { code: 'INVALID_INPUT', field: 'body' } });
    expect(results[2]).toMatchObject({
      error: { code: 'INVALID_INPUT', field: 'items[2].space' },
    });
    expect((await s.service.engram.list({ space: 'team-b' })).items).toEqual([]);
  });

  it('lists with repeated and comma-separated filters and pages with the cursor', async () => {
    const s = await startTestService();
    for (let i = 0; i < 4; i++)
      await remember(s, { body: `Ops fact number ${i}.`, kind: 'fact', area: 'ops/oncall' });
    await remember(s, { body: 'A pinned rule.', kind: 'rule', pinned: true });
    await remember(s, { body: 'A plain note.' });
    const page1 = await s.request('GET', `${M}?kinds=fact&kinds=rule&limit=3`);
    expect(page1.status, page1.text).toBe(200);
    const p1 = MemoryPageSchema.parse(page1.body);
    expect(p1.items).toHaveLength(3);
    const page2 = await s.request(
      'GET',
      `${M}?kinds=fact,rule&limit=3&cursor=${encodeURIComponent(p1.next_cursor!)}`,
    );
    const p2 = MemoryPageSchema.parse(page2.body);
    expect(new Set([...p1.items, ...p2.items].map((m) => m.kind))).toEqual(
      new Set(['fact', 'rule']),
    );
    expect(p1.items.length + p2.items.length).toBe(5);
    const pinned = MemoryPageSchema.parse((await s.request('GET', `${M}?pinned=true`)).body);
    expect(pinned.items.map((m) => m.body)).toEqual(['A pinned rule.']);
    const area = MemoryPageSchema.parse((await s.request('GET', `${M}?areas=ops`)).body);
    expect(area.items).toHaveLength(4);
    const bad = await s.request('GET', `${M}?kinds=opinion`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'kinds[0]' } });
  });

  it('gets, revises (PATCH), forgets (DELETE) and restores a memory', async () => {
    const s = await startTestService();
    const id = await remember(s, { body: 'Deploys happen on Tuesdays.', kind: 'rule' });
    expect(MemorySchema.parse((await s.request('GET', `${M}/${id}`)).body).body).toBe(
      'Deploys happen on Tuesdays.',
    );
    const revised = await s.request('PATCH', `${M}/${id}`, {
      json: { body: 'Deploys happen on Wednesdays.', reason: 'moved' },
    });
    expect(revised.status, revised.text).toBe(200);
    expect(MemorySchema.parse(revised.body)).toMatchObject({
      version: 2,
      body: 'Deploys happen on Wednesdays.',
    });
    const empty = await s.request('PATCH', `${M}/${id}`, { json: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toMatch(/at least one of body, title, tags/);

    const forgotten = await s.request('DELETE', `${M}/${id}?reason=obsolete`);
    expect(MemorySchema.parse(forgotten.body).status).toBe('forgotten');
    const recall = await s.request('POST', '/v1/spaces/default/recall', {
      json: { query: 'when do deploys happen' },
    });
    expect(RecallResponseSchema.parse(recall.body).hits.map((h) => h.id)).not.toContain(id);
    const restored = await s.request('POST', `${M}/${id}/restore`);
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.status).toBe('active');
    const version1 = await s.request('POST', `${M}/${id}/restore`, { json: { version: 1 } });
    expect(version1.body).toMatchObject({ version: 3, body: 'Deploys happen on Tuesdays.' });

    const history = HistorySchema.parse((await s.request('GET', `${M}/${id}/history`)).body);
    expect(history.versions.map((v) => v.version)).toEqual([1, 2, 3]);
    expect(history.status_events.map((e) => e.to_status)).toEqual(
      expect.arrayContaining(['forgotten', 'active']),
    );
    expect(history.status_events.find((e) => e.to_status === 'forgotten')?.reason).toMatch(
      /obsolete/,
    );
  });

  it('pins, unpins, moves, tags and sets importance', async () => {
    const s = await startTestService();
    const id = await remember(s, { body: 'The VPN endpoint is vpn.example.com.', tags: ['net'] });
    expect((await s.request('POST', `${M}/${id}/pin`)).body.pinned).toBe(true);
    expect(
      (await s.request('POST', `${M}/${id}/unpin`, { json: { reason: 'not needed' } })).body.pinned,
    ).toBe(false);
    expect(
      (await s.request('POST', `${M}/${id}/move`, { json: { area: 'infra/network' } })).body.area,
    ).toBe('infra/network');
    const tagged = await s.request('POST', `${M}/${id}/tags`, {
      json: { add: ['vpn'], remove: ['net'] },
    });
    expect(MemorySchema.parse(tagged.body).tags).toEqual(['vpn']);
    expect(
      (await s.request('POST', `${M}/${id}/importance`, { json: { importance: 0.9 } })).body
        .importance,
    ).toBe(0.9);
    const bad = await s.request('POST', `${M}/${id}/importance`, { json: { importance: 2 } });
    expect(bad.body.error).toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'importance' },
    });
    const missing = await s.request('POST', `${M}/${id}/move`, { json: {} });
    expect(missing.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'area' } });
  });

  it('supersedes, relates, lists relations and invalidates them', async () => {
    const s = await startTestService();
    const a = await remember(s, { body: 'The rate limit is 100 per minute.' });
    const b = await remember(s, { body: 'The rate limit is 500 per minute.' });
    const related = await s.request('POST', `${M}/${a}/relations`, {
      json: { to_id: b, type: 'derived_from' },
    });
    expect(related.status, related.text).toBe(201);
    expect(RelationsResultSchema.parse(related.body).relations).toEqual([
      expect.objectContaining({ type: 'derived_from', from_id: a, to_id: b, invalidated_at: null }),
    ]);
    const listed = RelationsResultSchema.parse(
      (await s.request('GET', `${M}/${b}/relations`)).body,
    );
    expect(listed.relations).toHaveLength(1);
    const removed = await s.request('DELETE', `${M}/${a}/relations/${b}?reason=mistake`);
    expect(RelationsResultSchema.parse(removed.body).relations[0]).toMatchObject({
      invalidated_reason: 'mistake',
    });
    const sup = await s.request('POST', `${M}/${a}/supersede`, { json: { by: b } });
    expect(sup.status, sup.text).toBe(200);
    expect(SupersedeResultSchema.parse(sup.body)).toMatchObject({
      old: { status: 'superseded' },
      new: { status: 'active' },
    });
    expect((await s.request('GET', `${M}/nope/relations`)).status).toBe(404);
  });

  it('recalls with the §3.5 envelope and reports status', async () => {
    const s = await startTestService();
    await remember(s, { body: 'The billing service listens on port 5433.', kind: 'fact' });
    await remember(s, { body: 'Lunch is at noon on Fridays.' });
    const res = await s.request('POST', '/v1/spaces/default/recall', {
      json: { query: 'billing port', k: 1, kinds: ['fact'] },
    });
    expect(res.status, res.text).toBe(200);
    const envelope = RecallResponseSchema.parse(res.body);
    expect(Object.keys(res.body).sort()).toEqual(['decision', 'degraded', 'hits', 'timings_ms']);
    expect(envelope.hits).toHaveLength(1);
    expect(envelope.hits[0]!.body).toMatch(/5433/);
    const status = StatusSchema.parse((await s.request('GET', '/v1/spaces/default/status')).body);
    expect(status).toMatchObject({ space: 'default', store: { items_total: 2 } });
  });

  it('purges a memory irreversibly', async () => {
    const s = await startTestService();
    const id = await remember(s, { body: 'A phone number to erase: 555-0100.' });
    const res = await s.request('POST', `${M}/${id}/purge`, {
      json: { reason: 'privacy request' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ id, purged: true });
    expect((await s.request('GET', `${M}/${id}`)).status).toBe(404);
  });

  it('exports a space as JSONL and imports it into another store idempotently', async () => {
    const source = await startTestService();
    const a = await remember(source, { body: 'Exported fact one.', kind: 'fact' });
    const b = await remember(source, { body: 'Exported fact two.', kind: 'fact' });
    await source.request('POST', `${M}/${a}/relations`, { json: { to_id: b } });
    const exported = await source.request('GET', '/v1/spaces/default/export');
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/application\/x-ndjson/);
    const lines = jsonLines(exported.text);
    expect(lines.map((l) => l.type)).toEqual(['engram-export', 'item', 'item', 'relation']);

    const target = await startTestService();
    const imported = await target.request('POST', '/v1/spaces/default/import', {
      body: `${exported.text}{"body": "A plain memory line."}\n{"body": ""}\n`,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    expect(imported.status).toBe(200);
    const results = jsonLines(imported.text);
    expect(results.slice(0, -1).map((r) => r.status)).toEqual([
      'skipped',
      'imported',
      'imported',
      'imported',
      'created',
      'error',
    ]);
    expect(results.at(-1)).toMatchObject({
      summary: { lines: 6, imported: 3, created: 1, error: 1 },
    });
    const again = jsonLines(
      (await target.request('POST', '/v1/spaces/default/import', { body: exported.text })).text,
    );
    expect(again.at(-1)).toMatchObject({ summary: { exists: 3, imported: 0 } });
    expect((await target.request('GET', `${M}/${a}`)).body.body).toBe('Exported fact one.');
  });

  it('import lines naming another space fail alone', async () => {
    const s = await startTestService();
    const res = await s.request('POST', '/v1/spaces/team-a/import', {
      body: '{"body": "Kept in team-a."}\n{"body": "Aimed at team-b.", "space": "team-b"}\n',
    });
    const results = jsonLines(res.text);
    expect(results[0]).toMatchObject({ line: 1, status: 'created' });
    expect(results[1]).toMatchObject({ line: 2, status: 'error', error: { field: 'space' } });
    expect((await s.service.engram.list({ space: 'team-b' })).items).toHaveLength(0);
  });

  it('unknown routes are NOT_FOUND with the error envelope', async () => {
    const s = await startTestService();
    const res = await s.request('GET', '/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND' });
  });
});
