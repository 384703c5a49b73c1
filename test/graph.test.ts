// The knowledge graph through the service: incremental upkeep vs rebuild, the graph channel in
// recall, the graph API, and bad input; on SQLite, and on PostgreSQL when ENGRAM_TEST_PG_URL is set.
import { describe, expect, it } from 'vitest';

import { assembleEngram } from '../src/app.js';
import { loadConfig } from '../src/config/load.js';
import { EngramError } from '../src/domain/errors.js';
import { silentLogger } from '../src/domain/log.js';
import { ModelEmbedders } from '../src/models/embedders.js';
import { VectorSupply } from '../src/models/supply.js';
import type { GraphDump } from '../src/store/graph-store.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';
import { exportLines, importLines } from '../src/transfer/transfer.js';
import { type Backend, BACKENDS } from './backends.js';
import { consistent } from './graph-invariants.js';
import { tempDir, testConfig, testEngram } from './helpers.js';

type Engram = ReturnType<typeof testEngram>;

/**
 * An engram without embedder whose graph upkeep runs inline, so a test can read the store right
 * after a write (the worker-thread upkeep has its own test below).
 */
function plainOn(
  backend: Backend,
  config: { graph?: Record<string, unknown>; recall?: Record<string, unknown> } = {},
): Engram {
  return testEngram({
    config: {
      ...config,
      ...backend.fresh(),
      embedder: { provider: 'none' },
      graph: { worker: false, ...config.graph },
    },
  });
}

/** The configuration of `plainOn`, for a test's describe block on one backend. */
type PlainConfig = Parameters<typeof plainOn>[1];

async function dump(engram: Engram, space = 'default'): Promise<GraphDump> {
  return consistent(await engram.storeForTransfer.graph!.dump(space));
}

function edge(d: GraphDump, a: string, b: string, type: string): number {
  const [x, y] = a < b ? [a, b] : [b, a];
  return d.edges.find((e) => e.a === x && e.b === y && e.type === type)?.weight ?? 0;
}

async function remember(
  engram: Engram,
  body: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  return (await engram.remember({ body, ...extra })).memory.id;
}

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

async function rejects(p: Promise<unknown>, code: string, field?: string): Promise<EngramError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EngramError);
  expect((err as EngramError).code).toBe(code);
  if (field) expect((err as EngramError).details.field).toBe(field);
  return err as EngramError;
}

describe.each(BACKENDS)('graph upkeep ($name)', (backend) => {
  const plain = (config?: PlainConfig) => plainOn(backend, config);

  it('keeps the graph incrementally through every write, and a rebuild gives the same graph', async () => {
    const engram = plain();
    const a = await remember(engram, 'Alice Johnson leads Project Phoenix with Bob Stone.');
    const b = await remember(engram, 'Project Phoenix runs on Kubernetes and PostgreSQL.');
    const c = await remember(engram, 'Bob Stone maintains the Grafana dashboards for Kubernetes.');
    const d = await remember(engram, 'The auth-service -> PostgreSQL link uses port 5432.', {
      tags: ['db'],
    });
    const e = await remember(engram, 'Carol Diaz reviewed Project Phoenix (PX) last week.', {
      title: 'Review',
    });
    await engram.revise(b, { body: 'Project Phoenix runs on Nomad and PostgreSQL since v2.1.0.' });
    await engram.forget(c);
    await engram.forget(e);
    await engram.restore(e);
    await engram.relate(a, d);
    await engram.supersede(d, b);
    await engram.tag(a, { add: ['team'] });
    await engram.move(a, 'people');
    const purged = await remember(engram, 'Zed Quark visited Atlantis Station with Alice Johnson.');
    await engram.purge(purged);
    const lines = await collect(
      (async function* () {
        yield JSON.stringify({ body: 'Dana Wu joined Project Phoenix from Acme Corp.' });
        yield JSON.stringify({
          body: 'Acme Corp hosts its wiki at https://wiki.acme.example.com/home.',
        });
      })(),
    );
    await importLines(engram, lines, {});

    const incremental = await dump(engram);
    expect(incremental.entities.length).toBeGreaterThan(8);
    const report = await engram.graphRebuild();
    expect(report.items).toBe(7);
    const rebuilt = await dump(engram);
    expect(rebuilt).toEqual(incremental);
  });

  it('follows forget and restore: a forgotten item stops counting, a restored one counts again', async () => {
    const engram = plain();
    const a = await remember(engram, 'Nova Labs builds the Orion Console.');
    await remember(engram, 'Orion Console needs Redis.');
    const before = await dump(engram);
    expect(before.entities.find((x) => x.key === 'nova lab')?.mentions).toBe(1);
    expect(edge(before, 'nova lab', 'orion console', 'co_mention')).toBe(1);
    await engram.forget(a);
    const forgotten = await dump(engram);
    expect(forgotten.entities.find((x) => x.key === 'nova lab')?.mentions).toBe(0);
    expect(edge(forgotten, 'nova lab', 'orion console', 'co_mention')).toBe(0);
    expect(forgotten.entities.find((x) => x.key === 'orion console')?.mentions).toBe(1);
    const hit = await engram.recall({ query: 'Nova Labs', statuses: ['active', 'forgotten'] });
    expect(hit.hits.every((h) => h.channels.graph === undefined)).toBe(true);
    await engram.restore(a);
    expect(await dump(engram)).toEqual(before);
  });

  it('removes a purged item’s mentions and the entities only it named', async () => {
    const engram = plain();
    const a = await remember(engram, 'Quasar Dynamics signed with Helios Bank.');
    await remember(engram, 'Helios Bank audits every quarter.');
    await engram.purge(a);
    const d = await dump(engram);
    expect(d.mentions.some((m) => m.item_id === a)).toBe(false);
    expect(d.entities.map((e) => e.key)).toEqual(['helios bank']);
    expect(d.edges).toEqual([]);
  });

  it('turns memory relations into typed entity edges, and drops them when invalidated', async () => {
    const engram = plain();
    const a = await remember(engram, 'Vega Team owns the Lyra Gateway.');
    const b = await remember(engram, 'Lyra Gateway depends on Etcd.');
    await engram.relate(a, b);
    const related = await dump(engram);
    expect(edge(related, 'vega team', 'etcd', 'related')).toBe(1);
    expect(edge(related, 'lyra gateway', 'etcd', 'related')).toBe(1);
    await engram.unrelate(a, b);
    expect(edge(await dump(engram), 'vega team', 'etcd', 'related')).toBe(0);
    const c = await remember(engram, 'Lyra Gateway depends on Consul now.');
    await engram.supersede(b, c);
    const superseded = await dump(engram);
    expect(edge(superseded, 'etcd', 'consul', 'supersedes')).toBe(1);
    await engram.restore(b);
    expect(edge(await dump(engram), 'etcd', 'consul', 'supersedes')).toBe(0);
  });

  it('re-extracts on revision only, and records each item’s extraction version', async () => {
    const engram = plain();
    const a = await remember(engram, 'Orbit Labs ships the Mars Rover.');
    await engram.pin(a);
    await engram.setImportance(a, 0.9);
    expect((await engram.graphStats()).items_stale).toBe(0);
    await engram.revise(a, { body: 'Orbit Labs ships the Titan Lander.' });
    const d = await dump(engram);
    expect(d.entities.map((e) => e.key)).toEqual(['orbit lab', 'titan lander']);
    expect((await engram.graphStats()).items_stale).toBe(0);
  });

  it('extracts imported export records and their relations', async () => {
    const source = plain();
    const a = await remember(source, 'Iris Park runs the Kestrel Pipeline.');
    const b = await remember(source, 'Kestrel Pipeline writes to BigQuery.');
    await source.relate(a, b, { type: 'derived_from' });
    const exported = await collect(exportLines(source, 'default'));
    const target = plain();
    await importLines(target, exported, {});
    const d = await dump(target);
    expect(d).toEqual(await dump(source));
    expect(edge(d, 'iris park', 'bigquery', 'derived_from')).toBe(1);
  });
});

describe.each(BACKENDS)('graph upkeep in a worker thread ($name)', (backend) => {
  it('trails the writes, lets this process read its own writes, and drains on close', async () => {
    const dir = tempDir();
    const store = backend.fresh();
    const engram = testEngram({ dir, config: { ...store, embedder: { provider: 'none' } } });
    const a = await remember(engram, 'Alice Johnson leads Project Phoenix.');
    const b = await remember(engram, 'Project Phoenix runs on Kubernetes.');
    expect(await engram.graphStats()).toMatchObject({
      entities: 3,
      items_extracted: 2,
      items_stale: 0,
    });
    const r = await engram.recall({ query: 'Who is Alice?', k: 10 });
    const hops = new Map(r.hits.map((h) => [h.id, h.channels.graph]));
    expect([hops.get(a), hops.get(b)]).toEqual([1, 2]);
    const incremental = await dump(engram);
    await engram.graphRebuild();
    expect(await dump(engram)).toEqual(incremental);
    await remember(engram, 'Carol Diaz joined Project Phoenix.');
    await engram.close();
    const reopened = testEngram({
      dir,
      config: { ...store, embedder: { provider: 'none' }, graph: { worker: false } },
    });
    expect(await reopened.graphStats()).toMatchObject({ items_extracted: 3, items_stale: 0 });
  });
});

describe.each(BACKENDS)('graph channel ($name)', (backend) => {
  const plain = (config?: PlainConfig) => plainOn(backend, config);

  async function phoenix(config: PlainConfig = {}) {
    // Four unrelated notes written in a row would be each other's write neighbours: the graph
    // channel is what these tests look at.
    const engram = plain({ ...config, recall: { ...config.recall, context: { write_gap_ms: 0 } } });
    const a = await remember(engram, 'Alice Johnson leads Project Phoenix.');
    const b = await remember(engram, 'Project Phoenix runs on Kubernetes in the Frankfurt region.');
    const c = await remember(engram, 'Kubernetes clusters get upgraded every quarter.');
    const d = await remember(engram, 'Lunch options near the office are limited.');
    return { engram, a, b, c, d };
  }

  it('finds an item that shares no word with the query, two hops away through entities', async () => {
    const { engram, a, b, c, d } = await phoenix();
    const result = await engram.recall({ query: 'Who is Alice?', k: 10 });
    const byId = new Map(result.hits.map((h) => [h.id, h]));
    expect(byId.get(a)?.channels).toMatchObject({ graph: 1, graph_path: ['Alice Johnson'] });
    const two = byId.get(b);
    expect(two?.channels).toEqual({ graph: 2, graph_path: ['Alice Johnson', 'Project Phoenix'] });
    expect(byId.has(c)).toBe(false);
    expect(byId.has(d)).toBe(false);
    expect(result.degraded.filter((x) => x.channel === 'graph')).toEqual([]);
  });

  it('reaches further with a larger depth, ranked by 1/hops', async () => {
    const { engram, a, b, c } = await phoenix({ graph: { depth: 3 } });
    const result = await engram.recall({ query: 'Alice', k: 10 });
    const hops = new Map(result.hits.map((h) => [h.id, h.channels.graph]));
    expect([hops.get(a), hops.get(b), hops.get(c)]).toEqual([1, 2, 3]);
    const order = result.hits.map((h) => h.id).filter((id) => [a, b, c].includes(id));
    expect(order).toEqual([a, b, c]);
  });

  it('respects the recall filters and spaces', async () => {
    const { engram, b } = await phoenix();
    await engram.move(b, 'infra');
    const other = await engram.recall({ query: 'Who is Alice?', areas: ['general'], k: 10 });
    expect(other.hits.map((h) => h.id)).not.toContain(b);
    await engram.remember({ body: 'Alice Johnson moved to Lisbon.', space: 'elsewhere' });
    const elsewhere = await engram.recall({ query: 'Alice', space: 'elsewhere', k: 10 });
    expect(elsewhere.hits).toHaveLength(1);
    expect(elsewhere.hits[0]?.channels.graph_path).toEqual(['Alice Johnson']);
  });

  it('is disabled by weight 0 (per request and in configuration)', async () => {
    const { engram } = await phoenix();
    const off = await engram.recall({ query: 'Who is Alice?', weights: { graph: 0 }, k: 10 });
    expect(off.hits.every((h) => h.channels.graph === undefined)).toBe(true);
    expect(off.timings_ms.graph).toBeUndefined();
    const configured = await phoenix({ recall: { weights: { graph: 0 } } });
    const r = await configured.engram.recall({ query: 'Who is Alice?', k: 10 });
    expect(r.hits.every((h) => h.channels.graph === undefined)).toBe(true);
  });

  it('resolves aliases and a first name to the full entity', async () => {
    const engram = plain();
    const a = await remember(engram, 'The Large Language Model (LLM) evaluation runs nightly.');
    const b = await remember(engram, 'Our Large Language Model costs too much.');
    const result = await engram.recall({ query: 'what does the LLM cost', k: 10 });
    const graph = new Map(result.hits.map((h) => [h.id, h.channels.graph]));
    expect(graph.get(a)).toBe(1);
    expect(graph.get(b)).toBe(1);
  });

  it('ignores an entity until some item names it other than as a sentence start', async () => {
    const engram = plain();
    const a = await remember(engram, 'Docker runs our nightly builds.');
    const before = await engram.recall({ query: 'what about docker', k: 10 });
    expect(before.hits.filter((h) => h.channels.graph !== undefined)).toEqual([]);
    expect((await engram.graphEntities())[0]).toMatchObject({ key: 'docker', confirmed: false });
    const b = await remember(engram, 'We moved the release jobs to Docker last week.');
    const after = await engram.recall({ query: 'what about docker', k: 10 });
    const graph = new Map(after.hits.map((h) => [h.id, h.channels.graph]));
    expect([graph.get(a), graph.get(b)]).toEqual([1, 1]);
  });

  it('does not traverse hubs: an entity named by most items links nothing', async () => {
    const engram = plain({ graph: { hub_min_mentions: 3, hub_share: 0.5 } });
    for (const place of ['Oslo', 'Lima', 'Pune', 'Kobe', 'Bern'])
      await remember(engram, `Caroline visited ${place} Museum.`);
    const r = await engram.recall({ query: 'What did Caroline see?', k: 10 });
    expect(r.hits.filter((h) => h.channels.graph !== undefined)).toEqual([]);
    const specific = await engram.recall({ query: 'Caroline in Lima Museum', k: 10 });
    expect(specific.hits.filter((h) => h.channels.graph !== undefined)).toHaveLength(1);
  });
});

describe('graph configuration and unsupported stores', () => {
  it('refuses a configured depth of 0 or above the cap', () => {
    for (const depth of [0, 5]) {
      let error: unknown;
      try {
        loadConfig({ env: {}, overrides: { graph: { depth } } });
      } catch (e) {
        error = e;
      }
      expect((error as EngramError).code).toBe('CONFIG_INVALID');
      expect((error as EngramError).details.field).toBe('graph.depth');
    }
  });

  it('reports graph_unsupported on a store without graph support (test double: a store hiding its graph)', async () => {
    const dir = tempDir();
    const config = loadConfig({
      env: {},
      overrides: testConfig(dir, { embedder: { provider: 'none' } }),
    });
    const real = openSqliteStore({ path: config.store.path! });
    const store = new Proxy(real, {
      get: (target, prop) => (prop === 'graph' ? undefined : Reflect.get(target, prop, target)),
    }) as Store;
    const vectors = new VectorSupply(
      store,
      new ModelEmbedders(null, undefined, silentLogger),
      null,
      config,
      silentLogger,
      false,
    );
    const engram = assembleEngram({ config, store, vectors, log: silentLogger });
    try {
      await engram.remember({ body: 'Alice Johnson leads Project Phoenix.' });
      const r = await engram.recall({ query: 'Alice Johnson' });
      expect(r.degraded).toContainEqual({ channel: 'graph', reason: 'graph_unsupported' });
      expect(r.hits).toHaveLength(1);
      await rejects(engram.graphStats(), 'STORE_UNAVAILABLE');
    } finally {
      await engram.close();
    }
  });
});

describe.each(BACKENDS)('graph API ($name)', (backend) => {
  const plain = (config?: PlainConfig) => plainOn(backend, config);

  it('reports stats, entities and neighbours with paths and edge types', async () => {
    const engram = plain();
    await remember(engram, 'Alice Johnson leads Project Phoenix.');
    await remember(engram, 'Project Phoenix runs on Kubernetes.');
    await remember(engram, 'Project Phoenix stores data in PostgreSQL.');
    const stats = await engram.graphStats();
    expect(stats).toMatchObject({
      entities: 4,
      mentions: 6,
      edges: 3,
      items_extracted: 3,
      items_stale: 0,
    });
    expect(stats.edges_by_type).toEqual({ co_mention: 3 });
    const top = await engram.graphEntities({ top: 1 });
    expect(top[0]).toMatchObject({
      key: 'project phoenix',
      name: 'Project Phoenix',
      mentions: 3,
      degree: 3,
    });
    const n = await engram.graphNeighbors({ entity: 'alice johnson', depth: 2 });
    expect(n.entity.name).toBe('Alice Johnson');
    expect(n.neighbors.map((x) => [x.entity.name, x.distance])).toEqual([
      ['Project Phoenix', 1],
      ['Kubernetes', 2],
      ['PostgreSQL', 2],
    ]);
    expect(n.neighbors[1]?.path).toEqual(['Alice Johnson', 'Project Phoenix', 'Kubernetes']);
    expect(n.neighbors[0]?.edges).toEqual([{ type: 'co_mention', weight: 1 }]);
    const one = await engram.graphNeighbors({ entity: 'Alice Johnson' });
    expect(one.neighbors).toHaveLength(1);
  });

  it('builds a bounded, deterministic, read-only hub report telling structure from provenance', async () => {
    const engram = plain({ graph: { hub_min_mentions: 4 } });
    const topics = [
      ['Grafana', 'Prometheus'],
      ['Grafana', 'Prometheus'],
      ['Terraform', 'Vault'],
      ['Terraform', 'Vault'],
      ['Grafana', 'Loki'],
      ['Terraform', 'Consul'],
    ];
    let n = 0;
    for (const [x, y] of topics) {
      await remember(engram, `Atlas Platform uses ${x} with ${y} (note ${n}).`, {
        source: { session: `s${n}` },
      });
      n++;
    }
    for (let i = 0; i < 6; i++)
      await remember(engram, `Weekly digest ${i}: Digest Bot summarised Team Rota number ${i}.`, {
        source: { session: 'digest' },
      });
    await remember(engram, 'Atlas Platform has its own area.', { area: 'atlas-platform' });
    const before = await dump(engram);
    const report = await engram.graphHubs({ limit: 5 });
    expect(await dump(engram)).toEqual(before);
    expect(await engram.graphHubs({ limit: 5 })).toEqual(report);
    expect(report.hubs.length).toBeLessThanOrEqual(5);
    const atlas = report.hubs.find((h) => h.entity.key === 'atlas platform')!;
    expect(atlas).toMatchObject({ diagnosis: 'structural', congested: true });
    expect(atlas.clusters.length).toBeGreaterThan(0);
    const grafana = atlas.clusters.find((c) => c.entities.includes('Grafana'));
    expect(grafana?.entities).toEqual(expect.arrayContaining(['Grafana', 'Prometheus']));
    expect(grafana?.entities).not.toContain('Terraform');
    expect(atlas.anchors).toContainEqual({
      kind: 'area',
      name: 'atlas-platform',
      entity: 'atlas platform',
      items: 1,
    });
    const digest = report.hubs.find((h) => h.entity.key === 'digest bot')!;
    expect(digest.diagnosis).toBe('provenance');
    expect(digest.provenance.top_source).toBe('session:digest');
    expect(digest.suggestion).toContain('session:digest');
  });
});

describe.each(BACKENDS)('graph bad input ($name)', (backend) => {
  const plain = (config?: PlainConfig) => plainOn(backend, config);

  it('refuses a depth of 0 or above the cap, and other bad requests, naming the field', async () => {
    const engram = plain();
    await remember(engram, 'Alice Johnson leads Project Phoenix.');
    const zero = await rejects(
      engram.graphNeighbors({ entity: 'Alice Johnson', depth: 0 }),
      'INVALID_INPUT',
      'depth',
    );
    expect(zero.message).toContain('between 1 and 4');
    await rejects(
      engram.graphNeighbors({ entity: 'Alice Johnson', depth: 5 }),
      'INVALID_INPUT',
      'depth',
    );
    await rejects(
      engram.graphNeighbors({ entity: 'Alice Johnson', depth: 1.5 }),
      'INVALID_INPUT',
      'depth',
    );
    await rejects(engram.graphNeighbors({ entity: '   ' }), 'INVALID_INPUT', 'entity');
    await rejects(engram.graphNeighbors({ entity: 'Nobody Known' }), 'NOT_FOUND', 'entity');
    await rejects(engram.graphEntities({ top: 0 }), 'INVALID_INPUT', 'top');
    await rejects(engram.graphEntities({ by: 'size' as never }), 'INVALID_INPUT', 'by');
    await rejects(engram.graphHubs({ limit: 51 }), 'INVALID_INPUT', 'limit');
    await rejects(
      engram.recall({ query: 'x', weights: { graph: -1 } }),
      'INVALID_INPUT',
      'weights.graph',
    );
  });

  it('stores entities with quotes, punctuation and non-English text, and finds them again', async () => {
    const engram = plain();
    const a = await remember(
      engram,
      `"O'Brien & Sons" signed with “Zoë Müller”; see 'Robert'); DROP TABLE--`,
    );
    await remember(engram, '東京で会議。Привет! 😀');
    const n = await engram.graphNeighbors({ entity: 'Zoë Müller' });
    expect(n.entity.key).toBe('zoë müller');
    const r = await engram.recall({ query: 'zoë müller', k: 5 });
    expect(r.hits[0]?.id).toBe(a);
    expect(r.hits[0]?.channels.graph).toBe(1);
  });
});
