// SQLite graph writes in batches: one writeExtractions call for many items stores exactly the graph that
// writing the same extractions one item at a time stores (mentions, statements, links, counts).
import { describe, expect, it } from 'vitest';

import type { Extraction } from '../src/domain/graph.js';
import { newId } from '../src/domain/ids.js';
import { extract } from '../src/graph/extract.js';
import { type GraphDoc, type GraphDump, RELATION_FANOUT } from '../src/store/graph-store.js';
import { consistent } from './graph-invariants.js';
import { testEngram } from './helpers.js';

const BOUNDS = { maxChars: 20_000, maxEntities: 24 };
const SIGNATURE = 7;

const TEXTS = [
  'Alice Johnson leads Project Phoenix with Bob Stone.',
  'Project Phoenix runs on Kubernetes and PostgreSQL.',
  'Bob Stone maintains the Grafana dashboards for Kubernetes.',
  'The auth-service -> PostgreSQL link uses port 5432.',
  'Carol Diaz reviewed Project Phoenix (PX) last week.',
  'nothing with a name in it at all',
  'Dana Wu joined Project Phoenix (PX) from Acme Corp.',
  'Acme Corp hosts its wiki at https://wiki.acme.example.com/home.',
  'Zed Quark visited Atlantis Station with Alice Johnson.',
];

type Engram = ReturnType<typeof testEngram>;

/** A store whose graph only this test writes (upkeep off), with the same items and relations. */
async function setUp(): Promise<{ engram: Engram; ids: string[] }> {
  const engram = testEngram({
    config: { embedder: { provider: 'none' }, graph: { enabled: false } },
  });
  const results = await engram.rememberMany(TEXTS.map((body) => ({ body })));
  const ids = results.map((r) => (r.ok ? r.memory.id : ''));
  // Relations between items of one batch, and to an item extracted before the batch.
  await engram.relate(ids[0]!, ids[1]!);
  await engram.relate(ids[2]!, ids[6]!, { type: 'derived_from' });
  await engram.relate(ids[8]!, ids[7]!);
  // An item forgotten before its extraction: its mentions are stored but do not count.
  await engram.forget(ids[4]!);
  return { engram, ids };
}

function graphOf(engram: Engram) {
  return engram.storeForTransfer.graph!;
}

/** The dump with item ids replaced by their position, so two stores compare. */
async function canonical(engram: Engram, ids: readonly string[]): Promise<GraphDump> {
  const dump = consistent(await graphOf(engram).dump('default'));
  const at = (id: string) => String(ids.indexOf(id));
  return {
    ...dump,
    mentions: dump.mentions.map((m) => ({ ...m, item_id: at(m.item_id) })),
    statements: dump.statements.map((s) => ({ ...s, item_id: at(s.item_id) })),
  };
}

const EXTRACTIONS: Extraction[] = TEXTS.map((t) => extract(t, BOUNDS));

/**
 * The docs of one batch: first extractions of most items, a repeated item, a stale version, an
 * unknown item, and a re-extraction of an item written before the batch with new content.
 */
function batch(ids: readonly string[]): GraphDoc[] {
  const doc = (i: number, extraction = EXTRACTIONS[i]!): GraphDoc => ({
    item_id: ids[i]!,
    version: 1,
    extraction,
  });
  return [
    doc(1),
    doc(2),
    doc(3),
    doc(4),
    doc(2),
    doc(5),
    { ...doc(6), version: 9 },
    doc(6),
    { item_id: '01JZZZZZZZZZZZZZZZZZZZZZZZ', version: 1, extraction: EXTRACTIONS[0]! },
    doc(0, extract('Alice Johnson now leads Project Orion with Erin Hale.', BOUNDS)),
    doc(7),
    doc(8),
  ];
}

describe('SQLite graph writes in batches', () => {
  it('stores exactly the graph item-by-item writes store, counts and edges included', async () => {
    const one = await setUp();
    const many = await setUp();
    for (const { engram, ids } of [one, many])
      await graphOf(engram).writeExtractions(
        'default',
        [{ item_id: ids[0]!, version: 1, extraction: EXTRACTIONS[0]! }],
        SIGNATURE,
      );

    let itemByItem = 0;
    for (const doc of batch(one.ids))
      itemByItem += await graphOf(one.engram).writeExtractions('default', [doc], SIGNATURE);
    const batched = await graphOf(many.engram).writeExtractions(
      'default',
      batch(many.ids),
      SIGNATURE,
    );

    expect(batched).toBe(itemByItem);
    expect(batched).toBe(10);
    const expected = await canonical(one.engram, one.ids);
    expect(await canonical(many.engram, many.ids)).toEqual(expected);
    expect(expected.edges.some((e) => e.type === 'related')).toBe(true);
    expect(expected.edges.some((e) => e.type === 'derived_from')).toBe(true);
    expect(expected.edges.some((e) => e.type === 'arrow')).toBe(true);
    expect(expected.edges.some((e) => e.type === 'alias')).toBe(true);
    expect(expected.mentions.some((m) => !m.counted)).toBe(true);
    expect(await graphOf(many.engram).countStale('default', SIGNATURE)).toBe(0);

    // What follows the batch (restore, purge) keeps the two graphs equal.
    for (const { engram, ids } of [one, many]) {
      await engram.restore(ids[4]!);
      await engram.purge(ids[2]!);
    }
    expect(await canonical(many.engram, many.ids)).toEqual(await canonical(one.engram, one.ids));
  });

  it('rolls a batch back as a whole when a write in it fails', async () => {
    const { engram, ids } = await setUp();
    const docs = batch(ids);
    // A surface the table refuses (NOT NULL), after the batch's entities were created.
    const [first, ...others] = docs[3]!.extraction.entities;
    const broken: GraphDoc = {
      ...docs[3]!,
      extraction: {
        ...docs[3]!.extraction,
        entities: [...others, { ...first!, surface: null as unknown as string }],
      },
    };
    await expect(
      graphOf(engram).writeExtractions('default', [...docs.slice(0, 3), broken], SIGNATURE),
    ).rejects.toThrow();
    const dump = await graphOf(engram).dump('default');
    expect(dump.mentions).toEqual([]);
    expect(dump.entities).toEqual([]);
    expect(await graphOf(engram).itemCount('default')).toBe(0);
    expect(await graphOf(engram).writeExtractions('default', docs.slice(0, 3), SIGNATURE)).toBe(3);
  });

  it('links relations imported in a batch as relations written one at a time link them', async () => {
    const texts = [
      'Alice Johnson, Bob Stone and Carol Diaz plan Project Phoenix on Kubernetes with Grafana.',
      'Dana Wu and Erin Hale move Acme Corp onto PostgreSQL and Kubernetes.',
      'Zed Quark visited Atlantis Station with Alice Johnson.',
      'Bob Stone maintains the Grafana dashboards.',
    ];
    const open = async () => {
      const engram = testEngram({ config: { embedder: { provider: 'none' } } });
      const results = await engram.rememberMany(texts.map((body) => ({ body })));
      await engram.idle();
      return { engram, ids: results.map((r) => (r.ok ? r.memory.id : '')) };
    };
    const pairs: [number, number][] = [
      [0, 1],
      [1, 2],
      [3, 0],
      [2, 3],
    ];
    const one = await open();
    for (const [a, b] of pairs) await one.engram.relate(one.ids[a]!, one.ids[b]!);
    const many = await open();
    const at = Date.now();
    const { relations } = await many.engram.importRecords(
      [],
      pairs.map(([a, b], i) => ({
        id: newId(at + i),
        space: 'default',
        type: 'related' as const,
        from_id: many.ids[a]!,
        to_id: many.ids[b]!,
        actor: 'test',
        reason: '',
        created_at: at,
        invalidated_at: null,
        invalidated_reason: null,
      })),
    );
    expect(relations).toEqual(['imported', 'imported', 'imported', 'imported']);
    const expected = await canonical(one.engram, one.ids);
    expect(await canonical(many.engram, many.ids)).toEqual(expected);
    // A relation links at most RELATION_FANOUT entities of each item: 3 x 3 for the first pair.
    const related = expected.edges.filter((e) => e.type === 'related');
    expect(related.length).toBeGreaterThan(0);
    const graph = await graphOf(one.engram).dump('default');
    expect(graph.mentions.filter((m) => m.item_id === one.ids[0]).length).toBeGreaterThan(3);
    expect(related.reduce((n, e) => n + e.weight, 0)).toBeLessThanOrEqual(
      pairs.length * RELATION_FANOUT * RELATION_FANOUT,
    );

    // Forgetting and restoring an item keeps the two equal.
    for (const { engram, ids } of [one, many]) {
      await engram.forget(ids[1]!);
      await engram.restore(ids[1]!);
      await engram.forget(ids[3]!);
    }
    expect(await canonical(many.engram, many.ids)).toEqual(await canonical(one.engram, one.ids));
  });
});
