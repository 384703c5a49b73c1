// Cross-domain use builds the graph (§4, §6): a memory used in a context of another domain is
// related to the context's other memories, once per pair, with history, so the graph channel can
// reach it from that domain; on SQLite, and on PostgreSQL when ENGRAM_TEST_PG_URL is set.
import { describe, expect, it } from 'vitest';

import type { Relation } from '../src/domain/types.js';
import { CROSS_DOMAIN_ACTOR } from '../src/lifecycle/links.js';
import { type Backend, BACKENDS } from './backends.js';
import { testEngram } from './helpers.js';

type Engram = ReturnType<typeof testEngram>;

/** An engram without embedder whose graph upkeep runs inline (the store is current after a write). */
function engramOn(backend: Backend, links?: boolean): Engram {
  return testEngram({
    config: {
      ...backend.fresh(),
      embedder: { provider: 'none' },
      graph: { worker: false },
      lifecycle: { backup: { enabled: false }, cross_domain_links: links },
    },
  });
}

const USED = 'The platform group keeps the Lyra Gateway behind the Vega Proxy.';
const CONTEXT = 'Finance closes the books once the Orion Ledger finishes its nightly run.';

async function pair(engram: Engram): Promise<{ m: string; c: string }> {
  const m = await engram.remember({ body: USED, tags: ['infrastructure'] });
  const c = await engram.remember({ body: CONTEXT, tags: ['finance'] });
  return { m: m.memory.id, c: c.memory.id };
}

function crossDomain(relations: readonly Relation[]): Relation[] {
  return relations.filter((r) => r.actor === CROSS_DOMAIN_ACTOR);
}

describe.each(BACKENDS)('cross-domain links ($name)', (backend) => {
  it('relates a memory used across domains to its context once, with history', async () => {
    const engram = engramOn(backend);
    const { m, c } = await pair(engram);
    const use = { memory_ids: [m, c], context_tags: ['finance'] };
    const first = await engram.observeMemoryUsage(use);
    expect(first.links_created).toBe(1);
    expect(first.results).toMatchObject([
      { id: m, ok: true, cross_domain: true, linked: [c] },
      { id: c, ok: true, cross_domain: false, linked: [] },
    ]);
    const [link] = crossDomain(await engram.relations(m));
    expect(link).toMatchObject({ type: 'related', from_id: m, to_id: c, invalidated_at: null });
    expect(link?.reason).toContain('cross-domain use');
    expect(link?.reason).toContain('finance');

    const second = await engram.observeMemoryUsage(use);
    expect(second.links_created).toBe(0);
    expect(second.results[0]).toMatchObject({ cross_domain: true, linked: [] });
    expect(crossDomain(await engram.relations(c))).toHaveLength(1);

    await engram.unrelate(m, c, { reason: 'not really related' });
    const third = await engram.observeMemoryUsage(use);
    expect(third.links_created).toBe(0);
    const history = crossDomain(await engram.relations(m));
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ id: link?.id, invalidated_reason: 'not really related' });
    expect(history[0]?.invalidated_at).not.toBeNull();
  });

  it('links nothing when a live relation already joins the pair, in either direction', async () => {
    const engram = engramOn(backend);
    const { m, c } = await pair(engram);
    await engram.relate(c, m, { type: 'derived_from' });
    const r = await engram.observeMemoryUsage({ memory_ids: [m, c], context_tags: ['finance'] });
    expect(r.results[0]).toMatchObject({ cross_domain: true, linked: [] });
    expect(crossDomain(await engram.relations(m))).toEqual([]);
  });

  it('links nothing for a same-domain use', async () => {
    const engram = engramOn(backend);
    const { m, c } = await pair(engram);
    const r = await engram.observeMemoryUsage({
      memory_ids: [m, c],
      context_tags: ['infrastructure', 'finance'],
    });
    expect(r.results.map((x) => x.ok && x.cross_domain)).toEqual([false, false]);
    expect(r.links_created).toBe(0);
    expect(await engram.relations(m)).toEqual([]);
  });

  it('links nothing when lifecycle.cross_domain_links is off', async () => {
    const engram = engramOn(backend, false);
    const { m, c } = await pair(engram);
    const r = await engram.observeMemoryUsage({ memory_ids: [m, c], context_tags: ['finance'] });
    expect(r.results[0]).toMatchObject({ cross_domain: true, linked: [] });
    expect(r.links_created).toBe(0);
    expect(await engram.relations(m)).toEqual([]);
  });

  it('lets the graph channel reach the memory from the other domain', async () => {
    const engram = engramOn(backend);
    const { m, c } = await pair(engram);
    const query = 'When does the Orion Ledger finish?';
    const graphHits = async () =>
      new Map(
        (await engram.recall({ query, k: 10 })).hits
          .filter((h) => h.channels.graph !== undefined)
          .map((h) => [h.id, h.channels.graph]),
      );
    const before = await graphHits();
    expect(before.has(c)).toBe(true);
    expect(before.has(m)).toBe(false);
    await engram.observeMemoryUsage({ memory_ids: [m, c], context_tags: ['finance'] });
    const after = await graphHits();
    expect(after.get(m)).toBeGreaterThan(after.get(c)!);
  });
});
