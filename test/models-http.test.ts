/**
 * The model-transition routes of the HTTP API on a real server (ephemeral 127.0.0.1 port, real
 * sockets): status, choosing a model (202 with its rebuild job), the rebuild run through the
 * library until the swap, rollback, prune, rollback refused after prune, bad bodies named by
 * field, and the embedder status; only an admin token of every space may change models, while
 * any token of a space sees that space's embedder status without the store-wide queue.
 */
import { describe, expect, it } from 'vitest';

import { STATIC_MODEL_ID } from '../src/embed/static/static-embedder.js';
import {
  EmbedderStatusSchema,
  ModelsStatusSchema,
  PruneResultSchema,
  UseModelResultSchema,
} from '../src/interfaces/http/model-schemas.js';
import { startTestService, TOKEN_CONFIG, TOKENS } from './http-helpers.js';

const VARIANT = `${STATIC_MODEL_ID}~a=0.01`;
const BODIES = [
  'The billing service runs on PostgreSQL 15.',
  'Never deploy the billing service on Fridays.',
  'Alex is the tech lead of the payments team.',
  'Backups of the main database are kept for 35 days.',
];

/** A service with auth and no worker of its own, so every job runs where the test says. */
async function service() {
  const s = await startTestService({
    server: { tokens: TOKEN_CONFIG },
    worker: { enabled: false },
    graph: { enabled: false },
  });
  return { s, as: { token: TOKENS.admin } };
}

describe('HTTP model routes', () => {
  it('moves the store to another model and back, then prunes', async () => {
    const { s, as } = await service();
    const { engram } = s.service;

    // A fresh store publishes the configured model when its models are first asked for.
    const fresh = await s.request('GET', '/v1/models', as);
    expect(fresh.status, fresh.text).toBe(200);
    expect(ModelsStatusSchema.parse(fresh.body)).toMatchObject({
      published: { id: STATIC_MODEL_ID, role: 'published', vectors: 0 },
      target: null,
      standby: [],
      configured: { model_id: STATIC_MODEL_ID, published: true },
    });
    await engram.rememberMany(BODIES.map((body) => ({ body })));
    const first = ModelsStatusSchema.parse((await s.request('GET', '/v1/models', as)).body);
    expect(first).toMatchObject({
      published: { id: STATIC_MODEL_ID, role: 'published', spec: { provider: 'static' } },
      target: null,
      configured: { model_id: STATIC_MODEL_ID, published: true },
    });

    const use = await s.request('POST', '/v1/models/use', {
      ...as,
      json: { model: 'static:sif_a=0.01' },
    });
    expect(use.status, use.text).toBe(202);
    const started = UseModelResultSchema.parse(use.body);
    expect(started).toMatchObject({ action: 'started', model: VARIANT });
    expect(started.job).toMatchObject({ kind: 'models.rebuild', state: 'queued' });

    const again = await s.request('POST', '/v1/models/use', {
      ...as,
      json: { model: 'static:sif_a=0.01' },
    });
    expect(again.status, again.text).toBe(202);
    expect(again.body).toMatchObject({ action: 'running', job: { id: started.job!.id } });

    const during = ModelsStatusSchema.parse((await s.request('GET', '/v1/models', as)).body);
    expect(during.published?.id).toBe(STATIC_MODEL_ID);
    expect(during.target).toMatchObject({
      model: { id: VARIANT, role: 'target' },
      coverage: { items: BODIES.length, failed: 0 },
      job: { id: started.job!.id },
    });

    const job = await engram.runJobHere({
      kind: 'models.rebuild',
      payload: { model: VARIANT },
      dedupe_key: 'models.rebuild',
    });
    expect(job.state).toBe('succeeded');
    const after = ModelsStatusSchema.parse((await s.request('GET', '/v1/models', as)).body);
    expect(after.published?.id).toBe(VARIANT);
    expect(after.target).toBeNull();
    expect(after.standby.map((m) => m.id)).toEqual([STATIC_MODEL_ID]);

    const back = await s.request('POST', '/v1/models/rollback', as);
    expect(back.status, back.text).toBe(200);
    expect(UseModelResultSchema.parse(back.body)).toEqual({
      action: 'published',
      model: STATIC_MODEL_ID,
      previous: VARIANT,
    });

    const pruned = await s.request('POST', '/v1/models/prune', as);
    expect(pruned.status, pruned.text).toBe(200);
    expect(PruneResultSchema.parse(pruned.body)).toEqual({
      models: [VARIANT],
      vectors: BODIES.length,
    });
    const refused = await s.request('POST', '/v1/models/rollback', as);
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.error).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining(`the vectors of ${VARIANT} were pruned`),
    });

    const same = await s.request('POST', '/v1/models/use', { ...as, json: { model: 'static' } });
    expect(same.status, same.text).toBe(200);
    expect(same.body).toEqual({ action: 'unchanged', model: STATIC_MODEL_ID });
  });

  it('cancels a running transition when the published model is chosen again', async () => {
    const { s, as } = await service();
    await s.service.engram.remember({ body: BODIES[0]! });
    const use = await s.request('POST', '/v1/models/use', {
      ...as,
      json: { model: 'static:sif_a=0.01' },
    });
    expect(use.status, use.text).toBe(202);
    const cancel = await s.request('POST', '/v1/models/use', { ...as, json: { model: 'static' } });
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.body).toEqual({ action: 'cancelled', model: STATIC_MODEL_ID });
    expect((await s.request('GET', '/v1/models', as)).body.target).toBeNull();
  });

  it('answers 404 to a rollback with no previous model', async () => {
    const { s, as } = await service();
    const res = await s.request('POST', '/v1/models/rollback', as);
    expect(res.status, res.text).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('refuses bad bodies and unknown providers with 400 naming `model`', async () => {
    const { s, as } = await service();
    const bad: unknown[] = [{}, { model: 5 }, { model: '' }, { model: 'static', colour: 'red' }];
    for (const json of bad) {
      const res = await s.request('POST', '/v1/models/use', { ...as, json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_INPUT');
      expect(res.body.error.details.field, JSON.stringify(json)).toBe(
        'colour' in (json as object) ? 'colour' : 'model',
      );
    }
    const unknown = await s.request('POST', '/v1/models/use', {
      ...as,
      json: { model: 'nonsense:x' },
    });
    expect(unknown.status, unknown.text).toBe(400);
    expect(unknown.body.error.details).toMatchObject({ field: 'model' });
    expect(unknown.body.error.message).toContain('unknown provider "nonsense"');
    const broken = await s.request('POST', '/v1/models/use', {
      ...as,
      body: '{"model": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect((await s.request('GET', '/v1/models', as)).body.target).toBeNull();
  });

  it('lets only an admin token of every space change models (403), and none without a token (401)', async () => {
    const { s } = await service();
    const routes: [string, string, unknown?][] = [
      ['GET', '/v1/models'],
      ['POST', '/v1/models/use', { model: 'static:sif_a=0.01' }],
      ['POST', '/v1/models/rollback'],
      ['POST', '/v1/models/prune'],
    ];
    for (const [method, path, json] of routes) {
      for (const token of [TOKENS.readerA, TOKENS.writerA]) {
        const res = await s.request(method, path, { token, json });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.error.code).toBe('FORBIDDEN');
      }
      expect((await s.request(method, path, { json })).status, `${method} ${path}`).toBe(401);
    }
    // A refused body is never read: a malformed one still answers 403.
    const res = await s.request('POST', '/v1/models/use', {
      token: TOKENS.writerA,
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(403);
    expect((await s.request('GET', '/v1/models', { token: TOKENS.admin })).body.target).toBeNull();
  });

  it('reports the embedder status of a space; the live queue only to an admin of every space', async () => {
    const { s, as } = await service();
    await s.service.engram.remember({ body: BODIES[0]!, space: 'team-a' });

    const admin = await s.request('GET', '/v1/embedder?space=team-a&limit=5', as);
    expect(admin.status, admin.text).toBe(200);
    const full = EmbedderStatusSchema.parse(admin.body);
    expect(Object.keys(full).sort()).toEqual(['failures', 'pending', 'providers', 'queue']);
    expect(full.queue).toMatchObject({ queued: { query: 0, write: 0, background: 0 } });
    expect(full.pending).toBeGreaterThanOrEqual(0);
    expect(full.failures).toEqual([]);
    expect(full.providers).toContainEqual(
      expect.objectContaining({ model: STATIC_MODEL_ID, role: 'published', available: true }),
    );
    expect((await s.request('GET', '/v1/embedder', as)).status).toBe(200);

    const reader = await s.request('GET', '/v1/embedder?space=team-a', { token: TOKENS.readerA });
    expect(reader.status, reader.text).toBe(200);
    expect(Object.keys(reader.body).sort()).toEqual(['failures', 'pending', 'providers']);
    expect(reader.body.providers).toEqual(full.providers);

    const other = await s.request('GET', '/v1/embedder?space=team-b', { token: TOKENS.readerA });
    expect(other.status).toBe(403);
    expect(other.body.error.details.field).toBe('space');
    // Without `space`, the configured space: outside this token's scope.
    expect((await s.request('GET', '/v1/embedder', { token: TOKENS.readerA })).status).toBe(403);
    expect((await s.request('GET', '/v1/embedder?space=team-a')).status).toBe(401);

    const bad = await s.request('GET', '/v1/embedder?space=team-a&limit=0', as);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('limit');
    const badSpace = await s.request('GET', '/v1/embedder?space=no%20spaces', as);
    expect(badSpace.status).toBe(400);
    expect(badSpace.body.error.details.field).toBe('space');
  });
});
