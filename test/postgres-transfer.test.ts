/**
 * Moving a store between backends (§12): `export` from SQLite, `import` into PostgreSQL, export
 * again and import into a new SQLite file gives byte-identical export lines — items, versions,
 * relations, status events, vectors and the lifecycle state (reinforcement bases, use events,
 * auto-recall settings and conversations, maintenance runs) — and the same recall results and
 * lifecycle state on both backends.
 */
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { requireLifecycle } from '../src/store/lifecycle-store.js';
import { importLines } from '../src/transfer/transfer.js';
import { testEngram } from './helpers.js';
import { dropSchema, PG_URL, pgConfig, randomSchema } from './postgres-helpers.js';
import { exportedLines as lines, lineCounts, populateLifecycle } from './transfer-helpers.js';

/**
 * A store with every kind of record: versions, status changes, relations, vectors, accesses, and
 * lifecycle state. Returns the id of the most used memory.
 */
async function populate(engram: Engram): Promise<string> {
  const remember = async (body: string, extra: Record<string, unknown> = {}) =>
    (await engram.remember({ body, ...extra })).memory.id;
  const kettle = await remember('Descale the kettle every month with citric acid', {
    title: 'Kettle care',
    tags: ['kitchen', 'chores'],
    kind: 'procedure',
    importance: 0.8,
    source: { agent: 'planner', session: 's-1', turn: 3, trust: 'agent' },
  });
  const deploy = await remember('Deploys go out on Tuesdays after the standup', {
    area: 'projects/billing',
    kind: 'rule',
    pinned: true,
  });
  const oldDb = await remember('The billing service stores invoices in MySQL', {
    area: 'projects/billing',
    kind: 'fact',
  });
  const newDb = await remember('The billing service stores invoices in PostgreSQL 15', {
    area: 'projects/billing',
    kind: 'fact',
  });
  const tea = await remember('Green tea brews best at 80 degrees for two minutes', {
    kind: 'preference',
    space: 'alice',
  });
  const secret = await remember('A private diary entry that must disappear', { tags: ['private'] });
  await remember('Weekly sync notes: nothing to report', { status: 'candidate' });
  await engram.revise(kettle, { body: 'Descale the kettle monthly with citric acid or vinegar' });
  await engram.revise(kettle, { tags: ['kitchen', 'chores', 'monthly'], reason: 'tag' });
  await engram.supersede(oldDb, newDb, { reason: 'migrated' });
  await engram.relate(deploy, newDb);
  await engram.relate(kettle, deploy, { type: 'derived_from' });
  await engram.unrelate(kettle, deploy);
  await engram.forget(deploy);
  await engram.restore(deploy);
  await engram.move(tea, 'drinks', { space: 'alice' });
  await engram.setImportance(newDb, 0.9);
  await engram.purge(secret, { reason: 'privacy request' });
  await engram.recall({ query: 'where are invoices stored', k: 2 });
  await populateLifecycle(engram, { used: kettle, reviewed: newDb });
  return kettle;
}

/** The lifecycle state of a store as its reads show it, at one moment. */
async function lifecycleState(engram: Engram, used: string) {
  const store = requireLifecycle(engram.storeForTransfer);
  const state = [];
  for (const space of ['default', 'alice'])
    state.push(
      await store.decayFacts(space),
      await store.useCounts(space),
      await engram.autoRecallSettings({ space }),
      await engram.autoRecallStats({ space }),
    );
  state.push(
    await store.useEvents('default', used),
    await store.conversation('default', 'chat-1'),
    await store.conversation('default', 'chat-2'),
    await store.lastMaintenance(null),
  );
  return state;
}

function recallIds(engram: Engram, query: string) {
  return engram
    .recall({ query, k: 5 })
    .then((r) => r.hits.map((h) => [h.id, h.channels.keyword ?? null, h.channels.vector ?? null]));
}

if (PG_URL) {
  describe('moving a store between SQLite and PostgreSQL', () => {
    it('exports from SQLite, imports into PostgreSQL and back, with identical records', async () => {
      const source = testEngram();
      const used = await populate(source);
      const first = await lines(source);
      const counts = lineCounts(first);
      expect(counts).toMatchObject({
        item: 6,
        // The seed's relations (with history), and the cross-domain link its first use makes.
        relation: 4,
        strength_base: 2,
        setting: 2,
        autorecall_conversation: 2,
        maintenance_run: 1,
      });
      expect(counts.use_event).toBeGreaterThanOrEqual(4);
      expect(first.join('\n')).toContain('"vector":"'); // real vectors travel
      const state = await lifecycleState(source, used);
      const all = first.length;

      const schema = randomSchema();
      const pg = testEngram({ config: pgConfig(schema) });
      try {
        await pg.status(); // publishes the embedder's model, as a running service does
        const report = await importLines(pg, first);
        expect(report).toMatchObject({ error: 0, imported: all });
        const second = await lines(pg);
        expect(second).toEqual(first);
        expect(await lifecycleState(pg, used)).toEqual(state);
        expect(await importLines(pg, second)).toMatchObject({ exists: all, imported: 0 });
        expect(await lines(pg)).toEqual(first);

        const back = testEngram();
        await back.status();
        expect(await importLines(back, second)).toMatchObject({ error: 0, imported: all });
        expect(await lines(back)).toEqual(first);
        expect(await lifecycleState(back, used)).toEqual(state);

        for (const query of ['kettle vinegar', 'invoices database', 'when do deploys happen']) {
          const expected = await recallIds(source, query);
          expect(expected.length).toBeGreaterThan(0);
          expect(await recallIds(pg, query)).toEqual(expected);
        }
        expect((await pg.status()).store).toMatchObject({ backend: 'postgres', items_total: 5 });
      } finally {
        await pg.storeForTransfer.close();
        await dropSchema(schema);
      }
    });
  });
} else {
  it('moves stores to PostgreSQL only when ENGRAM_TEST_PG_URL names a server (scripts/ci/postgres.sh)', () => {
    expect(process.env.ENGRAM_TEST_PG_URL ?? '').toBe('');
  });
}
