/**
 * Insights over HTTP on a real 127.0.0.1 socket: the shape (parsed by the response schema) with
 * the space's memories, status changes and the recalls this process served; `days` validated
 * (400 naming the field); a token of another space refused (403); the route in the OpenAPI
 * document with its note that recall latency covers this process.
 */
import { describe, expect, it, onTestFinished } from 'vitest';

import { InsightsSchema } from '../src/interfaces/responses/insights.js';
import { testEngram } from './helpers.js';
import { serveEngram, type TestService, TOKEN_CONFIG, TOKENS } from './http-helpers.js';

const PATH = '/v1/spaces/team-a/insights';

/** A service with tokens over an engram holding three memories of team-a, one forgotten. */
async function seeded(): Promise<TestService['request']> {
  const engram = testEngram({ embedder: null, config: { server: { tokens: TOKEN_CONFIG } } });
  const space = 'team-a';
  await engram.remember({ body: 'Deploys happen on Tuesdays.', kind: 'fact', space });
  await engram.remember({ body: 'Alice likes short reviews.', kind: 'preference', space });
  const old = await engram.remember({ body: 'The office is in Leeds.', kind: 'fact', space });
  await engram.forget(old.memory.id, { space });
  const server = await serveEngram(engram);
  onTestFinished(() => server.close());
  return server.request;
}

describe('insights over HTTP', () => {
  it('answers counts over time, totals, strength and the recall latency of this process', async () => {
    const request = await seeded();
    for (const query of ['Tuesdays', 'reviews'])
      expect(
        (
          await request('POST', '/v1/spaces/team-a/recall', {
            token: TOKENS.readerA,
            json: { query },
          })
        ).status,
      ).toBe(200);
    const res = await request('GET', `${PATH}?days=7`, { token: TOKENS.readerA });
    expect(res.status, res.text).toBe(200);
    const body = InsightsSchema.parse(res.body);
    expect(body, 'every field documented').toEqual(res.body);
    expect([body.space, body.days, body.timeline.length]).toEqual(['team-a', 7, 7]);
    expect(body.totals).toEqual({
      items: 3,
      by_kind: { fact: 2, preference: 1 },
      by_status: { active: 2, forgotten: 1 },
    });
    expect(body.timeline.at(-1)).toMatchObject({
      day: body.to,
      kinds: { fact: 2, preference: 1 },
      status_changes: { forgotten: 1 },
    });
    expect(body.strength.live).toBe(2);
    expect(body.strength.buckets).toHaveLength(10);
    expect(body.recall_latency).toMatchObject({ served: 2, count: 2, capacity: 10_000 });
    expect(body.recall_latency.overall!.p95).toBeGreaterThanOrEqual(
      body.recall_latency.overall!.p50,
    );
    const fallback = await request('GET', PATH, { token: TOKENS.readerA });
    expect(fallback.body.days).toBe(90);
  });

  it('refuses a bad `days` naming the field, and another space', async () => {
    const request = await seeded();
    for (const query of ['days=0', 'days=3651', 'days=1.5', 'days=soon', 'colour=red']) {
      const bad = await request('GET', `${PATH}?${query}`, { token: TOKENS.readerA });
      expect([bad.status, bad.body.error.code], query).toEqual([400, 'INVALID_INPUT']);
      expect(bad.body.error.details.field, query).toBe(
        query.startsWith('days') ? 'days' : 'colour',
      );
    }
    const other = await request('GET', '/v1/spaces/team-b/insights', { token: TOKENS.readerA });
    expect([other.status, other.body.error.code]).toEqual([403, 'FORBIDDEN']);
    expect((await request('GET', PATH)).status).toBe(401);
  });

  it('documents the route and what its recall latency covers', async () => {
    const request = await seeded();
    const doc = (await request('GET', '/v1/openapi.json')).body;
    const route = doc.paths['/v1/spaces/{space}/insights'].get;
    expect(route.description).toContain('this server process has served since it started');
    expect(route.parameters.map((p: { name: string }) => p.name)).toContain('days');
    expect(doc.components.schemas.Insights).toBeDefined();
  });
});
