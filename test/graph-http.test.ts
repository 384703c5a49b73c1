/**
 * The knowledge graph over HTTP on a real 127.0.0.1 socket: stats, top entities, the hub report,
 * an entity's neighbourhood and the memories naming it, each answering in the response schema the
 * OpenAPI document publishes; bad query parameters are 400 naming the field, an unknown entity is
 * 404 naming `entity`, and a token of another space gets 403.
 */
import { describe, expect, it, onTestFinished } from 'vitest';

import {
  GraphEntityListSchema,
  GraphHubReportSchema,
  GraphMentionsSchema,
  GraphNeighborsSchema,
  GraphStatsSchema,
} from '../src/interfaces/responses/graph.js';
import { testEngram } from './helpers.js';
import { serveEngram, type TestService, TOKEN_CONFIG, TOKENS } from './http-helpers.js';

const G = '/v1/spaces/team-a/graph';

const BODIES = [
  'Alice Johnson leads Project Phoenix with Bob Stone.',
  'Project Phoenix runs on Kubernetes in the Frankfurt region.',
  'Bob Stone reviewed Project Phoenix last week.',
  'Carol Diaz joined Project Phoenix from Acme Corp.',
];

/** A service with tokens over an engram whose team-a memories name people and projects. */
async function seeded(): Promise<{ request: TestService['request']; ids: string[] }> {
  const engram = testEngram({
    config: { server: { tokens: TOKEN_CONFIG }, embedder: { provider: 'none' } },
  });
  const ids: string[] = [];
  for (const body of BODIES)
    ids.push((await engram.remember({ body, kind: 'fact', space: 'team-a' })).memory.id);
  // Graph upkeep runs after each write: wait until it is in the store.
  await engram.idle();
  const server = await serveEngram(engram);
  onTestFinished(() => server.close());
  return { request: server.request, ids };
}

const read = { token: TOKENS.readerA };

describe('the knowledge graph over HTTP', () => {
  it('answers stats, entities and hubs for a reader', async () => {
    const { request } = await seeded();
    const stats = await request('GET', G, read);
    expect(stats.status, stats.text).toBe(200);
    const s = GraphStatsSchema.parse(stats.body);
    expect(s).toMatchObject({ space: 'team-a', enabled: true, items_extracted: 4 });
    expect(s.entities).toBeGreaterThanOrEqual(5);
    expect(s.edges_by_type.co_mention).toBeGreaterThan(0);

    const top = await request('GET', `${G}/entities?top=3`, read);
    expect(top.status, top.text).toBe(200);
    const entities = GraphEntityListSchema.parse(top.body).entities;
    expect(entities).toHaveLength(3);
    expect(entities[0]).toMatchObject({ name: 'Project Phoenix', mentions: 4, type: 'name' });
    const byDegree = await request('GET', `${G}/entities?by=degree&type=name`, read);
    expect(byDegree.body.entities[0].name).toBe('Project Phoenix');

    const hubs = await request('GET', `${G}/hubs?limit=5`, read);
    expect(hubs.status, hubs.text).toBe(200);
    const report = GraphHubReportSchema.parse(hubs.body);
    expect(report).toMatchObject({ space: 'team-a', items: 4 });
    expect(report.hubs.map((h) => h.entity.name)).toContain('Project Phoenix');
  });

  it("answers an entity's neighbourhood by depth, and the memories naming it", async () => {
    const { request, ids } = await seeded();
    const one = await request('GET', `${G}/neighbors?entity=alice%20johnson`, read);
    expect(one.status, one.text).toBe(200);
    const near = GraphNeighborsSchema.parse(one.body);
    expect(near.entity.name).toBe('Alice Johnson');
    const names = near.neighbors.map((n) => n.entity.name);
    expect(names).toEqual(expect.arrayContaining(['Project Phoenix', 'Bob Stone']));
    expect(names).not.toContain('Kubernetes');
    const phoenix = near.neighbors.find((n) => n.entity.name === 'Project Phoenix')!;
    expect(phoenix).toMatchObject({ distance: 1, path: ['Alice Johnson', 'Project Phoenix'] });
    expect(phoenix.edges.map((e) => e.type)).toContain('co_mention');

    const two = await request('GET', `${G}/neighbors?entity=Alice%20Johnson&depth=2`, read);
    const far = GraphNeighborsSchema.parse(two.body).neighbors;
    const kube = far.find((n) => n.entity.name === 'Kubernetes');
    expect(kube?.distance).toBe(2);
    expect(kube?.path).toEqual(['Alice Johnson', 'Project Phoenix', 'Kubernetes']);

    const named = await request('GET', `${G}/mentions?entity=Bob%20Stone`, read);
    expect(named.status, named.text).toBe(200);
    const mentions = GraphMentionsSchema.parse(named.body);
    expect(mentions.entity.name).toBe('Bob Stone');
    expect(mentions.memories.map((m) => m.id)).toEqual([ids[2], ids[0]]);
    const some = await request('GET', `${G}/mentions?entity=Project%20Phoenix&limit=2`, read);
    expect(some.body.memories.map((m: { id: string }) => m.id)).toEqual([ids[3], ids[2]]);
  });

  it('refuses bad input naming the field, an unknown entity naming entity', async () => {
    const { request } = await seeded();
    for (const [path, field] of [
      ['neighbors', 'entity'],
      ['neighbors?entity=', 'entity'],
      ['neighbors?entity=Bob%20Stone&depth=9', 'depth'],
      ['neighbors?entity=Bob%20Stone&depth=two', 'depth'],
      ['neighbors?entity=Bob%20Stone&limit=0', 'limit'],
      ['mentions?entity=Bob%20Stone&limit=1.5', 'limit'],
      ['entities?top=0', 'top'],
      ['entities?by=size', 'by'],
      ['entities?type=planet', 'type'],
      ['hubs?limit=51', 'limit'],
      ['hubs?colour=red', 'colour'],
    ]) {
      const bad = await request('GET', `${G}/${path}`, read);
      expect([bad.status, bad.body.error.code, bad.body.error.details.field], path).toEqual([
        400,
        'INVALID_INPUT',
        field,
      ]);
    }
    const depth = await request('GET', `${G}/neighbors?entity=Bob%20Stone&depth=9`, read);
    expect(depth.body.error.message).toMatch(/between 1 and 4/);
    for (const path of ['neighbors', 'mentions']) {
      const missing = await request('GET', `${G}/${path}?entity=Zed%20Nobody`, read);
      expect([missing.status, missing.body.error.code, missing.body.error.details.field]).toEqual([
        404,
        'NOT_FOUND',
        'entity',
      ]);
    }
  });

  it('gives a token of another space 403, and documents the routes', async () => {
    const { request } = await seeded();
    for (const path of ['', '/entities', '/hubs', '/neighbors?entity=Bob', '/mentions?entity=Bob'])
      expect((await request('GET', `${G}${path}`, { token: TOKENS.writerB })).status, path).toBe(
        403,
      );
    expect((await request('GET', G)).status).toBe(401);
    const doc = (await request('GET', '/v1/openapi.json')).body;
    for (const path of ['', '/entities', '/hubs', '/neighbors', '/mentions']) {
      const op = doc.paths[`/v1/spaces/{space}/graph${path}`]?.get;
      expect(op, path).toBeDefined();
      expect(op.responses['200'].content['application/json'].schema.$ref, path).toMatch(
        /#\/components\/schemas\/Graph/,
      );
    }
    const query = doc.paths['/v1/spaces/{space}/graph/neighbors'].get.parameters.map(
      (p: { name: string }) => p.name,
    );
    expect(query).toEqual(expect.arrayContaining(['space', 'entity', 'depth', 'limit']));
  });
});
