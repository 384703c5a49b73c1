import { describe, expect, it } from 'vitest';

import { EngramError } from '../src/domain/errors.js';
import type { RememberInput } from '../src/domain/input.js';
import type { Embedder } from '../src/embed/embedder.js';
import { StaticEmbedder } from '../src/embed/static/static-embedder.js';
import { testCacheDir } from './cache-dir.js';
import { testEngram } from './helpers.js';

const FACTS: RememberInput[] = [
  {
    body: 'Alex prefers TypeScript over Python for backend services.',
    kind: 'preference',
    area: 'people/alex',
    tags: ['lang'],
  },
  {
    body: 'The billing service stores invoices in PostgreSQL.',
    kind: 'fact',
    area: 'projects/billing',
    tags: ['db'],
  },
  {
    body: 'Never deploy billing on Fridays.',
    kind: 'rule',
    area: 'projects/billing',
    pinned: true,
  },
  { body: 'The kitten slept on the rug all afternoon.', kind: 'note', area: 'home' },
  {
    body: 'Quarterly planning happens in the first week of January.',
    kind: 'note',
    area: 'projectsX',
  },
];

async function seeded(options: Parameters<typeof testEngram>[0] = {}) {
  const engram = testEngram(options);
  const ids: string[] = [];
  for (const f of FACTS) ids.push((await engram.remember(f)).memory.id);
  // The graph's upkeep of these writes is done: no recall below sees it catching up.
  await engram.idle();
  return { engram, ids };
}

/** An embedder double that never answers in time: stands in for a model too slow for the budget. */
function neverAnsweringEmbedder(): Embedder {
  const real = new StaticEmbedder({ cacheDir: testCacheDir() });
  return {
    modelId: real.modelId,
    dimension: real.dimension,
    prepare: () => real.prepare(),
    embed: () => new Promise(() => {}),
    state: () => real.state(),
    close: () => real.close(),
  };
}

describe('recall', () => {
  it('returns the §3.5 envelope with per-channel ranks', async () => {
    const { engram, ids } = await seeded();
    const result = await engram.recall({
      query: 'which language does Alex like for backend work?',
    });
    expect(Object.keys(result).sort()).toEqual(['decision', 'degraded', 'hits', 'timings_ms']);
    expect(result.decision).toEqual({ state: 'off' });
    expect(result.degraded).toEqual([]);
    const top = result.hits[0]!;
    expect(top.id).toBe(ids[0]);
    expect(Object.keys(top).sort()).toEqual([
      'area',
      'body',
      'channels',
      'id',
      'importance',
      'kind',
      'score',
      'status',
      'title',
      'updated_at',
    ]);
    expect(top.channels).toMatchObject({ keyword: 1, vector: 1 });
    expect(result.hits.length).toBeLessThanOrEqual(5);
    expect(result.timings_ms.total).toBeGreaterThanOrEqual(0);
  });

  it('finds a semantic match that shares no words with the query through the vector channel', async () => {
    const { engram, ids } = await seeded();
    const result = await engram.recall({ query: 'cat napping on a carpet', k: 1 });
    expect(result.hits[0]?.id).toBe(ids[3]);
    expect(result.hits[0]?.channels.keyword).toBeUndefined();
    expect(result.hits[0]?.channels.vector).toBe(1);
  });

  it.each([
    '"unbalanced',
    'NEAR(billing',
    'billing AND OR NOT',
    'bill*',
    '-deploy',
    'title:billing',
    '^',
    '"',
    '((()',
    'a:b:c "x" * ^ - + ~ NEAR( AND',
  ])('treats FTS syntax as plain text: %s', async (query) => {
    const { engram } = await seeded();
    const result = await engram.recall({ query });
    expect(Array.isArray(result.hits)).toBe(true);
    expect(result.degraded.filter((d) => d.channel === 'keyword')).toEqual([]);
  });

  it('applies filters: kinds, area prefix, tags, pinned, statuses', async () => {
    const { engram, ids } = await seeded();
    const q = 'billing planning Alex kitten';
    const kinds = await engram.recall({ query: q, kinds: ['rule'] });
    expect(kinds.hits.map((h) => h.id)).toEqual([ids[2]]);
    const area = await engram.recall({ query: q, areas: ['projects'], k: 10 });
    expect(area.hits.map((h) => h.id).sort()).toEqual([ids[1], ids[2]].sort());
    const tags = await engram.recall({ query: q, tags: ['db'] });
    expect(tags.hits.map((h) => h.id)).toEqual([ids[1]]);
    const pinned = await engram.recall({ query: q, pinned: true });
    expect(pinned.hits.map((h) => h.id)).toEqual([ids[2]]);
    const candidate = (
      await engram.remember({ body: 'Billing might move to a new region.', status: 'candidate' })
    ).memory;
    expect(
      (await engram.recall({ query: 'billing region', k: 10 })).hits.map((h) => h.id),
    ).not.toContain(candidate.id);
    expect(
      (await engram.recall({ query: 'billing region', statuses: ['candidate'] })).hits.map(
        (h) => h.id,
      ),
    ).toEqual([candidate.id]);
    const future = await engram.recall({ query: q, created_after: '2999-01-01T00:00:00Z' });
    expect(future.hits).toEqual([]);
  });

  it('honours k, widens the pool for a large k, and refuses k above the retrieval cap', async () => {
    const { engram } = await seeded();
    expect(
      (await engram.recall({ query: 'billing Alex kitten planning deploy', k: 2 })).hits,
    ).toHaveLength(2);
    expect(
      (await engram.recall({ query: 'billing Alex kitten planning deploy', k: 50 })).hits.length,
    ).toBeGreaterThanOrEqual(4);
    const err = await engram.recall({ query: 'x', k: 201 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngramError);
    expect((err as EngramError).details.field).toBe('k');
    const empty = await engram.recall({ query: '   ' }).catch((e: unknown) => e);
    expect((empty as EngramError).details.field).toBe('query');
  });

  it('records access for returned hits only, once per item per search', async () => {
    const { engram, ids } = await seeded();
    const result = await engram.recall({ query: 'billing', k: 1 });
    const returned = result.hits[0]!.id;
    await engram.idle(); // accesses are written behind recall (§3.6)
    const after = await Promise.all(ids.map((id) => engram.get(id)));
    for (const m of after) {
      expect(m.access_count).toBe(m.id === returned ? 1 : 0);
      expect(m.last_accessed_at === null).toBe(m.id !== returned);
    }
  });

  it('keyword-only when the vector weight is 0: not reported as degraded', async () => {
    const { engram } = await seeded({ config: { recall: { weights: { vector: 0 } } } });
    const result = await engram.recall({ query: 'kitten' });
    expect(result.degraded).toEqual([]);
    expect(result.hits.every((h) => h.channels.vector === undefined)).toBe(true);
  });

  it('degrades to keyword when the query embedding misses the semantic budget, and stores writes vector-pending', async () => {
    const engram = testEngram({
      embedder: neverAnsweringEmbedder(),
      config: { recall: { semantic_budget_ms: 50 }, embedder: { write_budget_ms: 50 } },
    });
    const { memory } = await engram.remember({ body: 'Redis caches the session tokens.' });
    expect(memory.vector).toBe('pending');
    const result = await engram.recall({ query: 'redis session' });
    expect(result.hits.map((h) => h.id)).toEqual([memory.id]);
    expect(result.degraded).toEqual([{ channel: 'vector', reason: 'semantic_budget_exceeded' }]);
  });

  it('fills vector-pending items with the backfill pass', async () => {
    const engram = testEngram({
      embedder: neverAnsweringEmbedder(),
      config: { embedder: { write_budget_ms: 20 } },
    });
    const dir = (await engram.status()).store.location;
    const { memory } = await engram.remember({ body: 'The cat sat on the mat.' });
    expect(memory.vector).toBe('pending');
    await engram.close();
    const reopened = testEngram({ config: { store: { path: dir } } });
    expect(await reopened.backfill()).toBe(1);
    expect((await reopened.get(memory.id)).vector).toBe('ready');
    expect(
      (await reopened.recall({ query: 'kitten resting on a rug' })).hits[0]?.channels.vector,
    ).toBe(1);
  });
});
