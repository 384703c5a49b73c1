/**
 * Recall on PostgreSQL against SQLite on the same data (§3.1): the vector channel ranks exactly
 * alike (exact scan, and HNSW with exact re-scoring), the keyword channel agrees within the
 * documented BM25 differences, the graph channel and session context give exactly the same
 * answers, and hybrid recall (with session context, the graph channel and reranking) returns the
 * same memories. Also: the ANN query really uses the model's HNSW index, and a selective filter
 * never hides results.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import type { ItemFilter } from '../src/domain/filter.js';
import { StaticEmbedder } from '../src/embed/static/static-embedder.js';
import type { Queryable } from '../src/store/postgres/database.js';
import { annSearch, vectorIndexName } from '../src/store/postgres/vector-index.js';
import { exportLines, importLines } from '../src/transfer/transfer.js';
import { testCacheDir } from './cache-dir.js';
import {
  dot,
  draft,
  MODEL,
  randomUnit,
  rankByCosine,
  seeded,
  T0,
} from './fixtures/store-records.js';
import { testEngram } from './helpers.js';
import {
  dropSchema,
  PG_URL,
  pgConfig,
  randomSchema,
  schemaStore,
  waitFor,
} from './postgres-helpers.js';

const ALL: ItemFilter = { space: 'default', statuses: ['active'] };

const SUBJECTS = [
  'The billing service',
  'Our deploy pipeline',
  'The mobile app',
  'The data warehouse',
  'The search cluster',
  'Alice',
  'Bob from finance',
  'The staging database',
];
const FACTS = [
  'stores invoices in PostgreSQL and archives them monthly',
  'runs nightly at two in the morning and pages on failure',
  'caches user sessions in Redis for thirty minutes',
  'prefers TypeScript over Python for backend work',
  'needs a VPN connection before any SSH access',
  'sends weekly reports every Friday afternoon',
  'is rebuilt from snapshots when the disk fills up',
  'uses feature flags to roll out risky changes slowly',
];
const QUERIES = [
  'where are invoices stored',
  'what happens when the nightly job fails',
  'how long do sessions stay cached',
  'which language for backend services',
  'how do I get SSH access',
  'when are the weekly reports sent',
  'what to do when the disk is full',
  'how are risky changes rolled out',
  'Alice TypeScript',
  'staging database snapshots',
];

async function corpus(engram: Engram): Promise<void> {
  const inputs = SUBJECTS.flatMap((subject, s) =>
    FACTS.filter((_, f) => (s + f) % 3 !== 0).map((fact, f) => ({
      body: `${subject} ${fact}.`,
      area: s % 2 ? 'projects' : 'people',
      tags: [`s${s}`, `f${f}`],
    })),
  );
  const results = await engram.rememberMany(inputs);
  expect(results.every((r) => r.ok)).toBe(true);
}

async function copy(from: Engram, to: Engram): Promise<void> {
  const lines: string[] = [];
  for await (const line of exportLines(from, null)) lines.push(line);
  await to.status();
  expect(await importLines(to, lines)).toMatchObject({ error: 0 });
}

function overlap(a: readonly string[], b: readonly string[]): number {
  const set = new Set(b);
  return a.length === 0 ? 1 : a.filter((x) => set.has(x)).length / a.length;
}

/** Conversations and notes full of names: material for session context and the graph channel. */
const TALK: [string, [string, string][]][] = [
  [
    'lisbon',
    [
      ['Ben', 'Did Ann Keller finally book the flight to Lisbon?'],
      ['Ann', 'Yes! We leave on Friday morning, Carla Mendes is coming too.'],
      ['Ben', 'Nice, bring me some pastries.'],
    ],
  ],
  [
    'kayak',
    [
      ['Ben', 'Did you buy the kayak you wanted?'],
      ['Ann', 'Got it on Saturday, it is bright orange.'],
      ['Ben', 'See you at practice on the river.'],
    ],
  ],
  [
    'atlas',
    [
      ['Carla', 'Project Atlas missed the deadline again.'],
      ['Dev', 'Only by two days, the Frankfurt cluster was down.'],
      ['Carla', 'Then tell Northwind Labs before Monday.'],
    ],
  ],
];
const NOTES = [
  'Ann Keller works at Northwind Labs on Project Atlas.',
  'Project Atlas runs on Kubernetes in the Frankfurt region.',
  'Carla Mendes manages the Northwind Labs budget.',
  'Kubernetes upgrades happen every quarter.',
  'Dev Patel maintains the Grafana dashboards for Project Atlas.',
  'The Lisbon office opens at nine.',
];
const TALK_QUERIES = [
  'When does Ann leave for Lisbon?',
  'What colour is the kayak?',
  'Who is Ann Keller?',
  'Why was Project Atlas late?',
  'Who manages the budget at Northwind?',
  'Which dashboards does Dev look after?',
];

if (PG_URL) {
  describe('recall on PostgreSQL beside SQLite', () => {
    it('ranks vectors exactly, agrees on keywords and returns the same hybrid hits', async () => {
      // No boosts: access counts (recall records them) must not reorder what is compared.
      const recall = { boosts: { recency: 0, frequency: 0, importance: 0, strength: 0 } };
      const sqlite = testEngram({ config: { recall } });
      await corpus(sqlite);
      const schemas = [randomSchema(), randomSchema()];
      const embedder = new StaticEmbedder({ cacheDir: testCacheDir() });
      try {
        // One exact-scan store, one that sends every vector search through HNSW.
        const exact = testEngram({ config: { ...pgConfig(schemas[0]!), recall } });
        const hnsw = testEngram({
          config: { store: { ...pgConfig(schemas[1]!).store, ann: { min_items: 1 } }, recall },
        });
        await copy(sqlite, exact);
        await copy(sqlite, hnsw);
        const points: { id: string; vector: Float32Array }[] = [];
        for await (const record of sqlite.storeForTransfer.exportItems(null)) {
          const own = record.vectors.find((v) => v.model === embedder.modelId);
          if (own?.vector) points.push({ id: record.item.id, vector: own.vector });
        }
        expect(points.length).toBeGreaterThan(40);
        let keywordAgreement = 0;
        let vectorAgreement = 0;
        let hybridAgreement = 0;
        for (const query of QUERIES) {
          const [vector] = await embedder.embed([query]);
          const truth = rankByCosine(points, vector!).slice(0, 10);
          for (const engram of [exact, hnsw]) {
            const hits = await engram.storeForTransfer.vectorSearch(
              ALL,
              embedder.modelId,
              vector!,
              10,
            );
            expect(hits.map((h) => h.id)).toEqual(truth);
            const top = points.find((p) => p.id === truth[0])!;
            expect(hits[0]!.score).toBeCloseTo(dot(top.vector, vector!), 6);
          }
          const lite = await sqlite.storeForTransfer.vectorSearch(
            ALL,
            embedder.modelId,
            vector!,
            10,
          );
          vectorAgreement += overlap(
            truth,
            lite.map((h) => h.id),
          );

          const terms = query.toLowerCase().split(/\W+/).filter(Boolean);
          const sqliteKeyword = await sqlite.storeForTransfer.keywordSearch(ALL, terms, 5);
          const pgKeyword = await exact.storeForTransfer.keywordSearch(ALL, terms, 5);
          keywordAgreement += overlap(
            sqliteKeyword.slice(0, 3).map((h) => h.id),
            pgKeyword.map((h) => h.id),
          );

          const ids = (r: Awaited<ReturnType<Engram['recall']>>) => r.hits.map((h) => h.id);
          const hybrid = ids(await sqlite.recall({ query, k: 5 }));
          hybridAgreement += overlap(hybrid, ids(await exact.recall({ query, k: 5 })));
        }
        expect(vectorAgreement / QUERIES.length).toBeGreaterThanOrEqual(0.9);
        expect(keywordAgreement / QUERIES.length).toBeGreaterThanOrEqual(0.8);
        expect(hybridAgreement / QUERIES.length).toBeGreaterThanOrEqual(0.8);
      } finally {
        await embedder.close();
        for (const schema of schemas) await dropSchema(schema);
      }
    });
  });

  describe('session context and the graph channel on PostgreSQL beside SQLite', () => {
    it('finds the same turns and graph hits, and the same hybrid hits with every stage on', async () => {
      const sqlite = testEngram({ config: { graph: { worker: false } } });
      const inputs = [
        ...TALK.flatMap(([session, lines]) =>
          lines.map(([speaker, text], i) => ({
            body: `${speaker} said, "${text}"`,
            kind: 'episode' as const,
            source: { session, turn: i + 1 },
          })),
        ),
        ...NOTES.map((body) => ({ body })),
      ];
      expect((await sqlite.rememberMany(inputs)).every((r) => r.ok)).toBe(true);
      const schema = randomSchema();
      try {
        const pg = testEngram({ config: { ...pgConfig(schema), graph: { worker: false } } });
        await copy(sqlite, pg);
        const [lite, post] = [sqlite.storeForTransfer, pg.storeForTransfer];
        expect(await post.graph!.dump('default')).toEqual(await lite.graph!.dump('default'));

        const turns = async (store: typeof lite, ids: string[]) =>
          (await store.sessionNeighbors!(ALL, ids, 1)).map((t) => JSON.stringify(t)).sort();
        const seeds: string[] = [];
        for await (const record of lite.exportItems('default')) seeds.push(record.item.id);
        for (let i = 0; i < seeds.length; i += 4)
          expect(await turns(post, seeds.slice(i, i + 4))).toEqual(
            await turns(lite, seeds.slice(i, i + 4)),
          );

        let hybrid = 0;
        let sameOrder = 0;
        let graphHits = 0;
        for (const query of TALK_QUERIES) {
          // The graph channel alone: the same items, hops, paths and order.
          const graphOnly = { query, k: 10, weights: { keyword: 0, vector: 0 }, rerank: false };
          const fromLite = (await sqlite.recall(graphOnly)).hits;
          const fromPost = (await pg.recall(graphOnly)).hits;
          expect(fromPost.map((h) => [h.id, h.channels])).toEqual(
            fromLite.map((h) => [h.id, h.channels]),
          );
          graphHits += fromLite.length;
          // Every stage: keyword with session context, vector, graph, reranking with turn context.
          // Without session context on PostgreSQL only one of these queries keeps SQLite's order.
          const all = { query, k: 5 };
          const ids = (hits: { id: string }[]) => hits.map((h) => h.id);
          const [a, b] = [ids((await sqlite.recall(all)).hits), ids((await pg.recall(all)).hits)];
          hybrid += overlap(a, b);
          if (JSON.stringify(a) === JSON.stringify(b)) sameOrder++;
        }
        expect(graphHits).toBeGreaterThan(TALK_QUERIES.length);
        expect(hybrid / TALK_QUERIES.length).toBeGreaterThanOrEqual(0.9);
        // BM25 differences (docs/postgres.md) may reorder one query's keyword evidence.
        expect(sameOrder).toBeGreaterThanOrEqual(TALK_QUERIES.length - 1);
      } finally {
        await dropSchema(schema);
      }
    });
  });

  describe('the exact vector scan', () => {
    it('ranks the nearest passing vectors first, also when most nearest ones belong to another space or fail the filter', async () => {
      const { store, cleanup } = schemaStore();
      try {
        await store.publishModel(MODEL, 8, T0);
        const random = seeded(4321);
        const target = randomUnit(random, 8);
        // The other space's vectors lie right around the query; this space's are spread out.
        const near = (v: Float32Array) => {
          const out = Float32Array.from(target, (x, i) => x + 0.05 * v[i]!);
          const norm = Math.hypot(...out);
          return out.map((x) => x / norm);
        };
        const drafts = [
          ...Array.from({ length: 300 }, (_, n) =>
            draft({ body: `mine ${n}`, tags: n < 3 ? ['rare'] : [] }, randomUnit(random, 8)),
          ),
          ...Array.from({ length: 300 }, (_, n) =>
            draft({ body: `theirs ${n}`, space: 'other' }, near(randomUnit(random, 8))),
          ),
        ];
        const created = await store.createItems(drafts);
        const mine = created
          .slice(0, 300)
          .map((o, i) => ({ id: o.item.id, vector: drafts[i]!.vector!.vector! }));
        const top = async (filter: ItemFilter, limit: number) =>
          (await store.vectorSearch(filter, MODEL, target, limit)).map((h) => h.id);
        expect(await top(ALL, 10)).toEqual(rankByCosine(mine, target).slice(0, 10));
        expect(await top({ ...ALL, tags: ['rare'] }, 10)).toEqual(
          rankByCosine(mine.slice(0, 3), target),
        );
        const other = created.slice(300).map((o, i) => ({
          id: o.item.id,
          vector: drafts[300 + i]!.vector!.vector!,
        }));
        expect(await top({ ...ALL, space: 'other' }, 20)).toEqual(
          rankByCosine(other, target).slice(0, 20),
        );
      } finally {
        await cleanup();
      }
    });
  });

  describe('the HNSW channel', () => {
    async function population(
      count: number,
      dimension: number,
      exactBelow: number,
      efSearch?: number,
    ) {
      const opened = schemaStore({ hnsw: { exactBelow, ...(efSearch ? { efSearch } : {}) } });
      await opened.store.publishModel(MODEL, dimension, T0);
      const random = seeded(1234);
      const items = [];
      for (let start = 0; start < count; start += 500) {
        const drafts = Array.from({ length: Math.min(500, count - start) }, (_, i) =>
          draft(
            { body: `point ${start + i}`, tags: start + i < 5 ? ['rare'] : [] },
            randomUnit(random, dimension),
          ),
        );
        const created = await opened.store.createItems(drafts);
        items.push(
          ...created.map((o, i) => ({ id: o.item.id, vector: drafts[i]!.vector!.vector! })),
        );
      }
      return { ...opened, items };
    }

    it('plans the ANN query on the model index', async () => {
      const { store, cleanup } = await population(600, 16, 0);
      try {
        expect(await store.buildVectorIndex()).toBe(true);
        let plan = '';
        const explaining: Queryable = {
          query: async <R>(sql: string, params: unknown[] = []): Promise<R[]> => {
            if (!sql.trimStart().startsWith('SELECT i.id'))
              return (await store.query(sql, params)) as R[];
            plan = JSON.stringify(await store.query(`EXPLAIN (FORMAT JSON) ${sql}`, params));
            return [];
          },
        };
        const query = randomUnit(seeded(1), 16);
        await annSearch(explaining, ALL, MODEL, query, 10);
        expect(plan).toContain(vectorIndexName(MODEL, 16));
      } finally {
        await cleanup();
      }
    });

    it('starts connections with the walk size; a search needing a larger one sets it in a transaction', async () => {
      const { store, items, cleanup } = await population(1_000, 8, 0, 60);
      const statements: string[] = [];
      const query = pg.Client.prototype.query;
      try {
        expect(await store.buildVectorIndex()).toBe(true);
        const [settings] = await store.query<{ ef: string; scan: string }>(
          "SELECT current_setting('hnsw.ef_search') AS ef, current_setting('hnsw.iterative_scan') AS scan",
        );
        expect(settings).toEqual({ ef: '60', scan: 'relaxed_order' });
        pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
          if (typeof args[0] === 'string') statements.push(args[0]);
          return (query as (...a: unknown[]) => unknown).apply(this, args);
        } as typeof query;
        const probe = randomUnit(seeded(77), 8);
        // 10 hits read 40 candidates: the connection's walk size (60) serves, in one statement.
        const few = await store.vectorSearch(ALL, MODEL, probe, 10);
        expect(statements.filter((s) => /BEGIN|set_config/.test(s))).toEqual([]);
        expect(few.map((h) => h.id)).toEqual(rankByCosine(items, probe).slice(0, 10));
        // 100 hits read 200 candidates: the walk is widened to 200 for that search only.
        const many = await store.vectorSearch(ALL, MODEL, probe, 100);
        expect(statements.filter((s) => /BEGIN|set_config/.test(s))).toEqual([
          'BEGIN',
          "SELECT set_config('hnsw.ef_search', $1, true)",
        ]);
        expect(many).toHaveLength(100);
      } finally {
        pg.Client.prototype.query = query;
        await cleanup();
      }
    });

    it('builds the index in the background once a space is large, scanning exactly meanwhile', async () => {
      const { store, items, cleanup } = await population(6_000, 8, 1_000);
      try {
        const queries = Array.from({ length: 10 }, (_, q) => randomUnit(seeded(900 + q), 8));
        const first = await store.vectorSearch(ALL, MODEL, queries[0]!, 10);
        expect(first.map((h) => h.id)).toEqual(rankByCosine(items, queries[0]!).slice(0, 10));
        const name = vectorIndexName(MODEL, 8);
        await waitFor(async () => {
          const [row] = await store.query<{ valid: boolean }>(
            'SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass($1)',
            [name],
          );
          return row?.valid === true;
        }, 120_000);
        let found = 0;
        for (const query of queries) {
          const truth = rankByCosine(items, query).slice(0, 10);
          const hits = await store.vectorSearch(ALL, MODEL, query, 10);
          found += overlap(
            truth,
            hits.map((h) => h.id),
          );
        }
        expect(found / queries.length).toBeGreaterThanOrEqual(0.98);
        expect(await store.integrityCheck()).toEqual({ ok: true, problems: [] });
      } finally {
        await cleanup();
      }
    }, 180_000);

    it('finds what the exact scan finds, also under a filter that leaves five items', async () => {
      const { store, items, cleanup } = await population(3_000, 24, 0);
      try {
        let found = 0;
        for (let q = 0; q < 20; q++) {
          const query = randomUnit(seeded(500 + q), 24);
          const truth = rankByCosine(items, query).slice(0, 10);
          const hits = await store.vectorSearch(ALL, MODEL, query, 10);
          found +=
            overlap(
              truth,
              hits.map((h) => h.id),
            ) * 10;
        }
        expect(found / 200).toBeGreaterThanOrEqual(0.98);
        const rare = items.slice(0, 5);
        const query = randomUnit(seeded(9), 24);
        const filtered = await store.vectorSearch({ ...ALL, tags: ['rare'] }, MODEL, query, 10);
        expect(filtered.map((h) => h.id)).toEqual(rankByCosine(rare, query));
      } finally {
        await cleanup();
      }
    });
  });
} else {
  it('compares recall with SQLite only when ENGRAM_TEST_PG_URL names a server', () => {
    expect(process.env.ENGRAM_TEST_PG_URL ?? '').toBe('');
  });
}
