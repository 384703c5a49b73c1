/**
 * Settings over HTTP (§13) on a real socket: GET for any role of the space, never a token hash;
 * PATCH for admins only, persisted (another engram on the store sees it) and honoured by recall,
 * bad values 400 naming the key, null resetting a key; both routes in the OpenAPI document.
 */
import { describe, expect, it } from 'vitest';

import { silentLogger } from '../src/domain/log.js';
import { testEngram } from './helpers.js';
import { startTestService, TOKEN_CONFIG, TOKENS } from './http-helpers.js';

const PATH = '/v1/spaces/team-a/settings';

type Setting = { key: string; value: unknown; source: string; changeable: boolean };

/** One setting of a GET or PATCH body by key. */
function setting(body: { sections: { settings: Setting[] }[] }, key: string): Setting {
  const found = body.sections.flatMap((s) => s.settings).find((s) => s.key === key);
  if (!found) throw new Error(`no setting ${key}`);
  return found;
}

describe('settings over HTTP', () => {
  it('reads settings for any role of the space and never returns a token hash', async () => {
    const svc = await startTestService({ server: { tokens: TOKEN_CONFIG } });
    const res = await svc.request('GET', PATH, { token: TOKENS.readerA });
    expect(res.status).toBe(200);
    expect(res.body.space).toBe('team-a');
    expect(res.text).not.toContain('sha256:');
    for (const t of TOKEN_CONFIG) expect(res.text).not.toContain(t.hash.slice(7, 27));
    expect(setting(res.body, 'server.tokens').value).toContain('reader-a (read: team-a)');
    expect(setting(res.body, 'recall.weights.vector')).toMatchObject({
      source: 'default',
      changeable: true,
    });
    const other = await svc.request('GET', '/v1/spaces/team-b/settings', {
      token: TOKENS.readerA,
    });
    expect(other.status).toBe(403);
  });

  it('lets only an admin change settings', async () => {
    const svc = await startTestService({ server: { tokens: TOKEN_CONFIG } });
    const json = { 'recall.weights.graph': 0 };
    for (const token of [TOKENS.readerA, TOKENS.writerA]) {
      const res = await svc.request('PATCH', PATH, { token, json });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
    const res = await svc.request('PATCH', PATH, { token: TOKENS.admin, json });
    expect(res.status).toBe(200);
    expect(setting(res.body, 'recall.weights.graph')).toMatchObject({
      value: 0,
      source: 'runtime',
    });
  });

  it('refuses bad values with 400 naming the key', async () => {
    const svc = await startTestService({ server: { tokens: TOKEN_CONFIG } });
    const cases: [unknown, string][] = [
      [{ 'recall.weights.keyword': -1 }, 'recall.weights.keyword'],
      [{ 'recall.rerank.enabled': 'yes' }, 'recall.rerank.enabled'],
      [{ 'auto_recall.max_results': 0 }, 'auto_recall.max_results'],
      [{ 'recall.semantic_budget_ms': 100 }, 'recall.semantic_budget_ms'],
      [{ 'no.such.key': 1 }, 'no.such.key'],
    ];
    for (const [json, field] of cases) {
      const res = await svc.request('PATCH', PATH, { token: TOKENS.admin, json });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('INVALID_INPUT');
      expect(res.body.error.details.field).toBe(field);
      expect(res.body.error.message).toContain(field);
    }
  });

  it('persists a change that recall honours, and resets it with null', async () => {
    const svc = await startTestService();
    const base = '/v1/spaces/default';
    for (const body of ['Tea at the planning meeting.', 'Coffee at the retrospective.'])
      await svc.request('POST', `${base}/memories`, { json: { body } });
    const recall = async () =>
      (await svc.request('POST', `${base}/recall`, { json: { query: 'planning tea' } })).body;
    expect((await recall()).timings_ms.keyword).toBeDefined();
    const changed = await svc.request('PATCH', `${base}/settings`, {
      json: { 'recall.weights.keyword': 0, 'dormant_recall.mode': 'shadow' },
    });
    expect(changed.status).toBe(200);
    expect((await recall()).timings_ms.keyword).toBeUndefined();

    const other = testEngram({ dir: svc.dir, embedder: null, logger: silentLogger });
    const seen = await other.settings();
    const keyword = seen.sections
      .flatMap((s) => s.settings)
      .find((s) => s.key === 'recall.weights.keyword');
    expect(keyword).toMatchObject({ value: 0, source: 'runtime' });
    expect((await other.dormantReview()).mode).toBe('shadow');

    const reset = await svc.request('PATCH', `${base}/settings`, {
      json: { 'recall.weights.keyword': null },
    });
    expect(setting(reset.body, 'recall.weights.keyword')).toMatchObject({
      value: 1,
      source: 'default',
    });
    expect((await recall()).timings_ms.keyword).toBeDefined();
  });

  it('documents both routes in the OpenAPI document', async () => {
    const svc = await startTestService();
    const doc = (await svc.request('GET', '/v1/openapi.json')).body;
    const path = doc.paths['/v1/spaces/{space}/settings'];
    expect(Object.keys(path).sort()).toEqual(['get', 'patch']);
    expect(doc.components.schemas.SettingsView).toBeDefined();
  });
});
