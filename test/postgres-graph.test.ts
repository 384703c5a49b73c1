/**
 * The knowledge graph and session context on PostgreSQL beyond the shared graph suites
 * (test/graph.test.ts runs on both backends): the same writes give SQLite's graph and reports
 * (entity order included), several clients writing at once never corrupt counts, a failed batch
 * leaves the graph as it was, and session lookups use their index.
 */
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { isEngramError } from '../src/domain/errors.js';
import type { GraphDump } from '../src/store/graph-store.js';
import type { Queryable } from '../src/store/postgres/database.js';
import { sessionNeighbors } from '../src/store/postgres/session-context.js';
import { draft, seeded } from './fixtures/store-records.js';
import { consistent } from './graph-invariants.js';
import { testEngram } from './helpers.js';
import { dropSchema, PG_URL, pgConfig, randomSchema, schemaStore } from './postgres-helpers.js';

const INLINE = { embedder: { provider: 'none' as const }, graph: { worker: false } };

function onPostgres(schema: string): Engram {
  return testEngram({ config: { ...pgConfig(schema), ...INLINE } });
}

/** A dump with item ids replaced by labels, so stores with different ids compare. */
function labelled(dump: GraphDump, label: ReadonlyMap<string, string>): GraphDump {
  const name = (id: string) => label.get(id) ?? `unknown ${id}`;
  return {
    ...dump,
    mentions: dump.mentions
      .map((m) => ({ ...m, item_id: name(m.item_id) }))
      .sort((a, b) => (a.key + a.item_id < b.key + b.item_id ? -1 : 1)),
    statements: dump.statements
      .map((s) => ({ ...s, item_id: name(s.item_id) }))
      .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)),
  };
}

/** One history of writes, applied the same way to any engram; returns labels of its items. */
async function history(engram: Engram): Promise<Map<string, string>> {
  const label = new Map<string, string>();
  const add = (id: string, name: string) => {
    label.set(id, name);
    return id;
  };
  const bodies = [
    'Alice Johnson leads Project Phoenix with Bob Stone.',
    'Project Phoenix runs on Kubernetes and PostgreSQL.',
    'Bob Stone maintains the Grafana dashboards for Kubernetes.',
    'The auth-service -> PostgreSQL link uses port 5432.',
    'Carol Diaz reviewed Project Phoenix (PX) with Alice Johnson.',
    'Grafana Labs sponsors the Kubernetes meetup in Berlin.',
  ];
  const created = await engram.rememberMany(bodies.map((body) => ({ body })));
  const [a, b, c, d, e, f] = created.map((r, i) => add(r.ok ? r.memory.id : '', `m${i}`));
  await engram.revise(b!, { body: 'Project Phoenix moved to Nomad and PostgreSQL in Berlin.' });
  await engram.forget(c!);
  await engram.relate(a!, d!);
  await engram.supersede(d!, b!);
  await engram.forget(e!);
  await engram.restore(e!);
  await engram.relate(f!, c!, { type: 'derived_from' });
  await engram.restore(c!);
  await engram.unrelate(a!, d!);
  const g = add(
    (await engram.remember({ body: 'Dana Wu from Acme Corp met Bob Stone in Berlin.' })).memory.id,
    'm6',
  );
  await engram.relate(g, a!);
  const purged = (await engram.remember({ body: 'Zed Quark visited Berlin with Dana Wu.' })).memory;
  await engram.purge(purged.id);
  return label;
}

/** Everything id-free the graph API reports about a space. */
async function reports(engram: Engram) {
  const neighbors = [];
  for (const entity of ['Alice Johnson', 'Berlin', 'Kubernetes', 'Bob Stone'])
    neighbors.push(await engram.graphNeighbors({ entity, depth: 2 }));
  const recall = [];
  for (const query of ['Who is Alice?', 'Berlin', 'What about Kubernetes dashboards?'])
    recall.push(
      (await engram.recall({ query, k: 10, weights: { keyword: 0, vector: 0 } })).hits.map((h) => [
        h.body,
        h.channels,
      ]),
    );
  return {
    stats: await engram.graphStats(),
    byMentions: await engram.graphEntities({ top: 100 }),
    byDegree: await engram.graphEntities({ top: 100, by: 'degree' }),
    names: await engram.graphEntities({ top: 100, type: 'name' }),
    hubs: await engram.graphHubs({ limit: 10 }),
    neighbors,
    recall,
  };
}

/** Runs a write, accepting the domain refusals a random history causes (gone, not allowed). */
async function tolerant(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (!isEngramError(err) || !['NOT_FOUND', 'INVALID_INPUT', 'CONFLICT'].includes(err.code))
      throw err;
  }
}

if (PG_URL) {
  describe('the graph on PostgreSQL beside SQLite', () => {
    it('gives the same graph, entity order and reports for the same history of writes', async () => {
      const sqlite = testEngram({ config: INLINE });
      const schema = randomSchema();
      try {
        const pg = onPostgres(schema);
        const [liteLabels, pgLabels] = [await history(sqlite), await history(pg)];
        const [liteDump, pgDump] = [
          consistent(await sqlite.storeForTransfer.graph!.dump('default')),
          consistent(await pg.storeForTransfer.graph!.dump('default')),
        ];
        expect(pgDump.entities.length).toBeGreaterThan(10);
        expect(labelled(pgDump, pgLabels)).toEqual(labelled(liteDump, liteLabels));
        expect(await reports(pg)).toEqual(await reports(sqlite));
        await pg.graphRebuild();
        expect(consistent(await pg.storeForTransfer.graph!.dump('default'))).toEqual(pgDump);
      } finally {
        await dropSchema(schema);
      }
    });
  });

  describe('the graph with several PostgreSQL clients', () => {
    it('keeps exact counts when clients write, revise, relate, forget and purge at once', async () => {
      const schema = randomSchema();
      try {
        const clients = Array.from({ length: 4 }, () => onPostgres(schema));
        const names = ['Alice Johnson', 'Bob Stone', 'Project Phoenix', 'Kubernetes', 'Berlin'];
        const more = ['Grafana', 'Acme Corp', 'Carol Diaz', 'PostgreSQL', 'Nomad', 'Dana Wu'];
        const ids: string[] = [];
        const text = (random: () => number) => {
          const pick = () => [...names, ...more][Math.floor(random() * 11)]!;
          return `${pick()} met ${pick()} about ${pick()} and ${pick()} (${random().toFixed(6)}).`;
        };
        await Promise.all(
          clients.map(async (engram, c) => {
            const random = seeded(100 + c);
            const any = () => ids[Math.floor(random() * ids.length)]!;
            for (let step = 0; step < 30; step++) {
              const roll = random();
              if (ids.length < 4 || roll < 0.35) {
                const batch = await engram.rememberMany([
                  { body: text(random) },
                  { body: text(random) },
                ]);
                for (const r of batch) if (r.ok) ids.push(r.memory.id);
              } else if (roll < 0.5)
                await tolerant(() => engram.revise(any(), { body: text(random) }));
              else if (roll < 0.65) await tolerant(() => engram.relate(any(), any()));
              else if (roll < 0.75) await tolerant(() => engram.forget(any()));
              else if (roll < 0.85) await tolerant(() => engram.restore(any()));
              else if (roll < 0.92) await tolerant(() => engram.supersede(any(), any()));
              else if (roll < 0.95) await tolerant(() => engram.purge(any()));
              else await tolerant(() => engram.unrelate(any(), any()));
            }
          }),
        );
        const graph = clients[0]!.storeForTransfer.graph!;
        const incremental = consistent(await graph.dump('default'));
        expect(incremental.entities.length).toBe(names.length + more.length);
        expect(incremental.edges.length).toBeGreaterThan(20);
        expect((await clients[1]!.graphStats()).items_stale).toBe(0);
        await clients[2]!.graphRebuild();
        expect(consistent(await graph.dump('default'))).toEqual(incremental);
      } finally {
        await dropSchema(schema);
      }
    }, 120_000);
  });

  describe('the graph under racing writes to related items', () => {
    it('keeps relation links and entities exact when both ends and their entities change at once', async () => {
      const schema = randomSchema();
      try {
        const [x, y, z] = Array.from({ length: 3 }, () => onPostgres(schema));
        const a = (await x!.remember({ body: 'Alice Johnson leads Project Phoenix.' })).memory.id;
        const b = (await x!.remember({ body: 'Bob Stone runs Kubernetes in Berlin.' })).memory.id;
        const c = (await x!.remember({ body: 'Carol Diaz owns the Grafana boards.' })).memory.id;
        await x!.relate(a, b);
        await x!.relate(c, b, { type: 'derived_from' });
        const bodies = [
          'Bob Stone runs Kubernetes in Berlin.',
          'Dana Wu runs Nomad in Lisbon with Bob Stone.',
          'Erin Cole moved Kubernetes to Oslo.',
        ];
        const rounds = 25;
        await Promise.all([
          // Re-extraction of B replaces the entities every relation link of B pairs with.
          (async () => {
            for (let i = 0; i < rounds; i++) await x!.revise(b, { body: bodies[i % 3]! });
          })(),
          // Forget and restore of A remove and recompute A's relation links from B's mentions.
          (async () => {
            for (let i = 0; i < rounds; i++) {
              await y!.forget(a);
              await y!.restore(a);
            }
          })(),
          // Relations of C come and go; new items keep naming (and purges dropping) B's entities.
          (async () => {
            for (let i = 0; i < rounds; i++) {
              await z!.unrelate(c, b);
              await z!.relate(c, b, { type: 'derived_from' });
              const body = `${bodies[(i + 1) % 3]} Note ${i}.`;
              const extra = (await z!.remember({ body })).memory.id;
              if (i % 2 === 0) await z!.purge(extra);
            }
          })(),
        ]);
        const graph = x!.storeForTransfer.graph!;
        const incremental = consistent(await graph.dump('default'));
        await y!.graphRebuild();
        expect(consistent(await graph.dump('default'))).toEqual(incremental);
      } finally {
        await dropSchema(schema);
      }
    }, 120_000);
  });

  describe('graph writes on PostgreSQL', () => {
    it('leave the graph as it was when a batch fails part-way', async () => {
      const { store, cleanup } = schemaStore();
      try {
        const [a, b] = (
          await store.createItems([draft({ body: 'first' }), draft({ body: 'second' })])
        ).map((o) => o.item);
        const entity = (key: string) => ({
          key,
          surface: key,
          type: 'name' as const,
          count: 1,
          weak: false,
        });
        const doc = (id: string, keys: string[]) => ({
          item_id: id,
          version: 1,
          extraction: { entities: keys.map(entity), statements: [], truncated: false },
        });
        expect(await store.graph.writeExtractions('default', [doc(a!.id, ['x', 'y'])], 7)).toBe(1);
        const before = consistent(await store.graph.dump('default'));
        // The second doc names one entity twice: its mentions collide, and the batch rolls back.
        const failing = store.graph.writeExtractions(
          'default',
          [doc(a!.id, ['x', 'z']), doc(b!.id, ['y', 'y'])],
          7,
        );
        await expect(failing).rejects.toBeInstanceOf(Error);
        expect(consistent(await store.graph.dump('default'))).toEqual(before);
        expect(await store.graph.extractionStates('default', [a!.id, b!.id])).toEqual(
          new Map([[a!.id, { version: 1, extractor: 7 }]]),
        );
        expect(await store.graph.itemCount('default')).toBe(1);
      } finally {
        await cleanup();
      }
    });
  });

  describe('session context on PostgreSQL', () => {
    it('finds neighbouring turns through the session-turn index', async () => {
      const { store, cleanup } = schemaStore();
      try {
        const drafts = Array.from({ length: 3000 }, (_, i) =>
          draft({
            body: `turn ${i}`,
            source: { session: `s${i % 300}`, turn: Math.floor(i / 300) },
          }),
        );
        const items = (await store.createItems(drafts)).map((o) => o.item);
        await store.query('ANALYZE items');
        let plan = '';
        const explaining: Queryable = {
          query: async <R>(sql: string, params: unknown[] = []): Promise<R[]> => {
            plan = JSON.stringify(await store.query(`EXPLAIN (FORMAT JSON) ${sql}`, params));
            return (await store.query(sql, params)) as R[];
          },
        };
        const filter = { space: 'default', statuses: ['active'] } as const;
        const turns = await sessionNeighbors(explaining, filter, [items[1500]!.id], 2);
        expect(turns.map((t) => t.turn)).toEqual([3, 4, 5, 6, 7]);
        expect(turns.every((t) => t.session === 's0')).toBe(true);
        expect(plan).toContain('items_session_turn');
      } finally {
        await cleanup();
      }
    });
  });
} else {
  it('runs the PostgreSQL graph tests only when ENGRAM_TEST_PG_URL names a server', () => {
    expect(process.env.ENGRAM_TEST_PG_URL ?? '').toBe('');
  });
}
