/**
 * Consolidation over HTTP on a real 127.0.0.1 socket: the preview (read-only, by stage), a run
 * (admin) that merges two near-duplicates, the runs page by page, a run's diary, undo once (then
 * 409), the calibration, bad stages and ids refused naming the field, tokens scoped to spaces and
 * roles, and the routes in the OpenAPI document. And the areas: listed with their counts (read), a
 * fold (write) previewed without change, applied, one item restored to its old area, and its
 * refusals (system area, equal names, empty source) as 400 naming the field.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import type { z } from 'zod';

import type { Engram } from '../src/app.js';
import { AreaFoldResultSchema, AreaListSchema } from '../src/interfaces/responses/areas.js';
import { testEngram } from './helpers.js';
import { serveEngram, type TestService, TOKEN_CONFIG, TOKENS } from './http-helpers.js';

const D = '/v1/spaces/team-a/dream';
const UNKNOWN = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

/** A service with tokens over an engram holding two near-duplicates and another fact in team-a. */
async function seeded(): Promise<{
  engram: Engram;
  request: TestService['request'];
  ids: string[];
}> {
  const engram = testEngram({ config: { server: { tokens: TOKEN_CONFIG } } });
  await engram.prepareModels();
  const ids: string[] = [];
  for (const body of [
    'Alice prefers dark mode in the editor',
    'In the editor, Alice prefers dark mode',
    'The billing service runs on PostgreSQL 15',
  ])
    ids.push((await engram.remember({ body, kind: 'fact', space: 'team-a' })).memory.id);
  await engram.idle();
  const server = await serveEngram(engram);
  onTestFinished(() => server.close());
  return { engram, request: server.request, ids };
}

describe('consolidation over HTTP', () => {
  it('previews read-only, by stage; a bad stage or key is 400 naming the field', async () => {
    const { request, ids } = await seeded();
    const res = await request('GET', `${D}/preview`, { token: TOKENS.readerA });
    expect(res.status, res.text).toBe(200);
    expect(res.body.space).toBe('team-a');
    expect(res.body.stages.map((s: { stage: string }) => s.stage)).toEqual([
      'duplicates',
      'conflicts',
      'folds',
      'stale',
      'skills',
    ]);
    const [merge] = res.body.stages[0].proposals;
    expect(merge).toMatchObject({ action: 'merge', skip: false });
    expect([...merge.items].sort()).toEqual([ids[0], ids[1]].sort());
    const runs = await request('GET', `${D}/runs`, { token: TOKENS.readerA });
    expect(runs.body).toEqual({ runs: [], next_cursor: null });

    const some = await request('GET', `${D}/preview?stages=folds&stages=stale`, {
      token: TOKENS.readerA,
    });
    expect(some.body.stages.map((s: { stage: string }) => s.stage)).toEqual(['folds', 'stale']);
    const comma = await request('GET', `${D}/preview?stages=duplicates,skills`, {
      token: TOKENS.readerA,
    });
    expect(comma.body.stages.map((s: { stage: string }) => s.stage)).toEqual([
      'duplicates',
      'skills',
    ]);
    for (const [query, field] of [
      ['stages=naps', 'stages[0]'],
      ['stages=folds,naps', 'stages[1]'],
      ['colour=red', 'colour'],
    ]) {
      const bad = await request('GET', `${D}/preview?${query}`, { token: TOKENS.readerA });
      expect([bad.status, bad.body.error.code, bad.body.error.details.field], query).toEqual([
        400,
        'INVALID_INPUT',
        field,
      ]);
    }
    const bad = await request('GET', `${D}/preview?stages=naps`, { token: TOKENS.readerA });
    expect(bad.body.error.message).toContain(
      'must be one of duplicates, conflicts, folds, stale, skills',
    );
  });

  it('runs (admin), lists, shows the diary, undoes once', async () => {
    const { request, ids } = await seeded();
    for (const token of [TOKENS.readerA, TOKENS.writerA]) {
      const res = await request('POST', `${D}/runs`, { token });
      expect([res.status, res.body.error.code]).toEqual([403, 'FORBIDDEN']);
    }
    for (const [json, field] of [
      [{ stages: ['naps'] }, 'stages[0]'],
      [{ stages: [] }, 'stages'],
      [{ dry_run: 'yes' }, 'dry_run'],
      [{ space: 'team-b' }, 'space'],
    ] as const) {
      const res = await request('POST', `${D}/runs`, { token: TOKENS.admin, json });
      expect([res.status, res.body.error.details.field], JSON.stringify(json)).toEqual([
        400,
        field,
      ]);
    }
    const dry = await request('POST', `${D}/runs`, {
      token: TOKENS.admin,
      json: { dry_run: true },
    });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.run).toMatchObject({ dry_run: true, state: 'completed', space: 'team-a' });
    const ran = await request('POST', `${D}/runs`, { token: TOKENS.admin });
    expect(ran.status, ran.text).toBe(200);
    expect(ran.body.run).toMatchObject({ dry_run: false, state: 'completed', diary: 'final' });
    const [entry] = ran.body.entries;
    expect(entry).toMatchObject({ stage: 'duplicates', action: 'merge', outcome: 'applied' });
    const [lesser, keeper] = entry.items as [string, string];
    expect([lesser, keeper].sort()).toEqual([ids[0], ids[1]].sort());
    const memory = (id: string) =>
      request('GET', `/v1/spaces/team-a/memories/${id}`, { token: TOKENS.readerA });
    expect((await memory(lesser)).body.status).toBe('merged');
    expect((await memory(keeper)).body.status).toBe('active');

    const runId = ran.body.run.id as string;
    const first = await request('GET', `${D}/runs?limit=1`, { token: TOKENS.readerA });
    expect(first.body.runs.map((r: { id: string }) => r.id)).toEqual([runId]);
    const next = await request(
      'GET',
      `${D}/runs?limit=1&cursor=${encodeURIComponent(first.body.next_cursor)}`,
      { token: TOKENS.readerA },
    );
    expect(next.body.runs.map((r: { id: string }) => r.id)).toEqual([dry.body.run.id]);
    const diary = await request('GET', `${D}/runs/${runId}`, { token: TOKENS.readerA });
    expect(diary.body).toEqual(ran.body);
    const missing = await request('GET', `${D}/runs/${UNKNOWN}`, { token: TOKENS.readerA });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'NOT_FOUND']);
    const badId = await request('GET', `${D}/runs/bad%20id`, { token: TOKENS.readerA });
    expect([badId.status, badId.body.error.details.field]).toEqual([400, 'id']);
    const badLimit = await request('GET', `${D}/runs?limit=0`, { token: TOKENS.readerA });
    expect([badLimit.status, badLimit.body.error.details.field]).toEqual([400, 'limit']);

    const byWriter = await request('POST', `${D}/runs/${runId}/undo`, { token: TOKENS.writerA });
    expect(byWriter.status).toBe(403);
    const undone = await request('POST', `${D}/runs/${runId}/undo`, { token: TOKENS.admin });
    expect(undone.status, undone.text).toBe(200);
    expect(undone.body).toEqual({
      run_id: runId,
      restored: [{ seq: 1, action: 'merge', items: [lesser, keeper] }],
      not_restored: [],
    });
    expect((await memory(lesser)).body.status).toBe('active');
    const again = await request('POST', `${D}/runs/${runId}/undo`, { token: TOKENS.admin });
    expect([again.status, again.body.error.code]).toEqual([409, 'CONFLICT']);
    const undoMissing = await request('POST', `${D}/runs/${UNKNOWN}/undo`, {
      token: TOKENS.admin,
    });
    expect(undoMissing.status).toBe(404);
  });

  it('calibrates the duplicate thresholds', async () => {
    const { request } = await seeded();
    const res = await request('GET', `${D}/calibrate`, { token: TOKENS.readerA });
    expect(res.status, res.text).toBe(200);
    expect(res.body.examined).toBe(3);
    expect(res.body.merges[0]).toMatchObject({ configured: true, similarity: 0.9, overlap: 0.7 });
    expect(res.body.merges[0].merges).toBe(1);
    expect(res.body.similarity.p50).toBeGreaterThanOrEqual(0.9);
  });

  it('keeps spaces apart: a token without the space is 403; no token is 401', async () => {
    const { request } = await seeded();
    const calls: [string, string][] = [
      ['GET', `${D}/preview`],
      ['POST', `${D}/runs`],
      ['GET', `${D}/runs`],
      ['GET', `${D}/runs/${UNKNOWN}`],
      ['POST', `${D}/runs/${UNKNOWN}/undo`],
      ['GET', `${D}/calibrate`],
    ];
    for (const [method, path] of calls) {
      const res = await request(method, path, { token: TOKENS.writerB });
      expect([res.status, res.body.error.code], `${method} ${path}`).toEqual([403, 'FORBIDDEN']);
      expect((await request(method, path)).status, `${method} ${path}`).toBe(401);
    }
    const elsewhere = await request('GET', '/v1/spaces/team-b/dream/preview', {
      token: TOKENS.writerB,
    });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.stages[0].proposals).toEqual([]);
  });

  it('documents the routes and their schemas in the OpenAPI document', async () => {
    const { request } = await seeded();
    const doc = (await request('GET', '/v1/openapi.json')).body;
    const ops = (path: string) => Object.keys(doc.paths[`/v1/spaces/{space}/dream${path}`]).sort();
    expect(ops('/preview')).toEqual(['get']);
    expect(ops('/runs')).toEqual(['get', 'post']);
    expect(ops('/runs/{id}')).toEqual(['get']);
    expect(ops('/runs/{id}/undo')).toEqual(['post']);
    expect(ops('/calibrate')).toEqual(['get']);
    for (const name of [
      'DreamPreview',
      'DreamDiary',
      'DreamRun',
      'DreamRunPage',
      'DreamUndoReport',
      'DreamCalibration',
      'DreamRunBody',
    ])
      expect(doc.components.schemas, name).toHaveProperty(name);
    const undo = doc.paths['/v1/spaces/{space}/dream/runs/{id}/undo'].post;
    expect(undo.responses['409'].description).toMatch(/undone already/u);
  });
});

const A = '/v1/spaces/team-a/areas';
const FROM = 'project/billing';
const TO = 'projects/billing';

/** A service with tokens over an engram holding two memories in FROM and one each in TO, general. */
async function withAreas() {
  const engram = testEngram({ config: { server: { tokens: TOKEN_CONFIG } } });
  const remember = async (body: string, area: string) =>
    (await engram.remember({ body, area, space: 'team-a' })).memory.id;
  const moving = [
    await remember('Invoices are generated nightly', FROM),
    await remember('Billing retries a failed charge three times', FROM),
  ];
  await remember('Billing runs on PostgreSQL 15', TO);
  await remember('The offsite is in Lisbon', 'general');
  await engram.idle();
  const server = await serveEngram(engram);
  onTestFinished(() => server.close());
  const item = async (id: string) =>
    (await server.request('GET', `/v1/spaces/team-a/memories/${id}`, { token: TOKENS.readerA }))
      .body as { area: string; body: string; version: number };
  return { request: server.request, moving, item };
}

/** The response parses under its documented schema without losing a field. */
function lossless(schema: z.ZodType, body: unknown): void {
  expect(schema.parse(body)).toEqual(body);
}

describe('areas over HTTP', () => {
  it('lists areas (read); a dry run changes nothing; a fold (write) moves; restore moves back', async () => {
    const { request, moving, item } = await withAreas();
    const listed = await request('GET', A, { token: TOKENS.readerA });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual({
      areas: [
        { area: 'general', items: 1 },
        { area: FROM, items: 2 },
        { area: TO, items: 1 },
      ],
    });
    lossless(AreaListSchema, listed.body);

    const fold = (token: string, json: object) =>
      request('POST', `${A}/fold`, { token, json: { from: FROM, to: TO, ...json } });
    const byReader = await fold(TOKENS.readerA, {});
    expect([byReader.status, byReader.body.error.code]).toEqual([403, 'FORBIDDEN']);
    const dry = await fold(TOKENS.writerA, { dry_run: true });
    expect(dry.status, dry.text).toBe(200);
    expect({ ...dry.body, items: [...dry.body.items].sort() }).toEqual({
      from: FROM,
      to: TO,
      dry_run: true,
      items: [...moving].sort(),
    });
    lossless(AreaFoldResultSchema, dry.body);
    expect((await request('GET', A, { token: TOKENS.readerA })).body).toEqual(listed.body);
    for (const id of moving) expect((await item(id)).area).toBe(FROM);

    const bodies = await Promise.all(moving.map(async (id) => (await item(id)).body));
    const done = await fold(TOKENS.writerA, { reason: 'typo in the area name' });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ from: FROM, to: TO, dry_run: false });
    expect([...done.body.items].sort()).toEqual([...moving].sort());
    for (const [i, id] of moving.entries())
      expect(await item(id)).toMatchObject({ area: TO, body: bodies[i], version: 1 });
    expect((await request('GET', A, { token: TOKENS.readerA })).body.areas).toEqual([
      { area: 'general', items: 1 },
      { area: TO, items: 3 },
    ]);

    const restored = await request('POST', `/v1/spaces/team-a/memories/${moving[0]}/restore`, {
      token: TOKENS.writerA,
    });
    expect(restored.status, restored.text).toBe(200);
    expect((await item(moving[0]!)).area).toBe(FROM);
    expect((await item(moving[1]!)).area).toBe(TO);
  });

  it('refuses a system area, equal names, an empty source and bad bodies: 400 naming the field', async () => {
    const { request } = await withAreas();
    for (const [json, field] of [
      [{ from: '_inbox', to: 'general' }, 'from'],
      [{ from: 'general', to: '_inbox' }, 'to'],
      [{ from: 'general', to: 'general' }, 'to'],
      [{ from: 'nowhere', to: 'general' }, 'from'],
      [{ from: 'bad area', to: 'general' }, 'from'],
      [{ to: 'general' }, 'from'],
      [{ from: FROM, to: TO, dry_run: 'yes' }, 'dry_run'],
      [{ from: FROM, to: TO, space: 'team-b' }, 'space'],
    ] as const) {
      const res = await request('POST', `${A}/fold`, { token: TOKENS.writerA, json });
      expect(
        [res.status, res.body.error.code, res.body.error.details.field],
        JSON.stringify(json),
      ).toEqual([400, 'INVALID_INPUT', field]);
    }
    const system = await request('POST', `${A}/fold`, {
      token: TOKENS.writerA,
      json: { from: '_inbox', to: 'general' },
    });
    expect(system.body.error.message).toBe('from: _inbox is a system area');
    expect((await request('GET', A, { token: TOKENS.readerA })).body.areas).toHaveLength(3);
  });

  it('keeps spaces apart, and documents the routes in the OpenAPI document', async () => {
    const { request } = await withAreas();
    const calls = [
      ['GET', A, undefined],
      ['POST', `${A}/fold`, { from: FROM, to: TO }],
    ] as const;
    for (const [method, path, json] of calls) {
      const res = await request(method, path, { token: TOKENS.writerB, json });
      expect([res.status, res.body.error.code], `${method} ${path}`).toEqual([403, 'FORBIDDEN']);
      expect((await request(method, path, { json })).status, `${method} ${path}`).toBe(401);
    }
    const elsewhere = await request('GET', '/v1/spaces/team-b/areas', { token: TOKENS.writerB });
    expect(elsewhere.body).toEqual({ areas: [] });

    const doc = (await request('GET', '/v1/openapi.json')).body;
    expect(Object.keys(doc.paths['/v1/spaces/{space}/areas'])).toEqual(['get']);
    expect(Object.keys(doc.paths['/v1/spaces/{space}/areas/fold'])).toEqual(['post']);
    for (const name of ['AreaList', 'AreaCount', 'AreaFoldResult', 'AreaFoldBody'])
      expect(doc.components.schemas, name).toHaveProperty(name);
  });
});
