/**
 * The Store contract: one suite every backend runs (test/store.sqlite.test.ts, and the PostgreSQL
 * backend through the very same function). It speaks only the Store interface of
 * src/store/store.ts, never a driver, and uses small hand-made unit vectors instead of an embedder.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { EngramError } from '../src/domain/errors.js';
import type { ItemFilter } from '../src/domain/filter.js';
import { newId } from '../src/domain/ids.js';
import type { ItemExport, ItemRecord, RelationRecord } from '../src/domain/records.js';
import { STATUSES } from '../src/domain/types.js';
import {
  type Mutation,
  type MutationContext,
  type Store,
  WRITE_ORDER,
} from '../src/store/store.js';
import {
  DAY,
  draft,
  MODEL,
  randomUnit,
  rankByCosine,
  relationRecord,
  seeded,
  statusEvent,
  T0,
  unit,
} from './fixtures/store-records.js';

/** A store opened for one test, and how to dispose of it. */
export interface OpenedStore {
  store: Store;
  cleanup(): Promise<void>;
}

/** The per-test state the contract's sections share. */
interface Ctx {
  readonly store: Store;
  /** Opens another fresh, empty store (disposed of after the test). */
  another(): Promise<Store>;
}

/** A filter over one space that admits every status. */
function inSpace(space = 'default', extra: Partial<ItemFilter> = {}): ItemFilter {
  return { space, statuses: STATUSES, ...extra };
}

/** Rejects with an error carrying `code`. */
async function expectCode(promise: Promise<unknown>, code: string): Promise<void> {
  await expect(promise).rejects.toMatchObject({ code });
}

async function create(store: Store, ...drafts: ReturnType<typeof draft>[]): Promise<ItemRecord[]> {
  return (await store.createItems(drafts)).map((o) => o.item);
}

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of source) out.push(value);
  return out;
}

/** A mutation plan that returns a fixed mutation. */
const fixed = (mutation: Mutation) => () => mutation;

/** Forgets an item through a mutation (status patch plus event). */
async function forget(store: Store, item: ItemRecord, at: number): Promise<void> {
  await store.mutate(
    item.space,
    [item.id],
    fixed({
      changes: [
        {
          id: item.id,
          patch: { status: 'forgotten', updated_at: at },
          statusEvent: statusEvent(item.status, 'forgotten', at),
        },
      ],
    }),
  );
}

async function listAll(
  store: Store,
  filter: ItemFilter,
  order: 'created' | 'updated' = 'created',
): Promise<string[]> {
  return (await store.listItems({ filter, limit: 1000, order })).items.map((i) => i.id);
}

/** Defines the contract's describe blocks for one backend. */
export function storeContract(name: string, open: () => Promise<OpenedStore>): void {
  describe(`Store contract: ${name}`, () => {
    let opened: OpenedStore;
    const extra: OpenedStore[] = [];
    const ctx: Ctx = {
      get store() {
        return opened.store;
      },
      async another() {
        const o = await open();
        extra.push(o);
        return o.store;
      },
    };
    beforeEach(async () => {
      opened = await open();
    });
    afterEach(async () => {
      try {
        expect(await opened.store.integrityCheck()).toEqual({ ok: true, problems: [] });
      } finally {
        await opened.cleanup();
        while (extra.length) await extra.pop()!.cleanup();
      }
    });
    createSection(ctx);
    readSection(ctx);
    listSection(ctx);
    mutateSection(ctx);
    purgeSection(ctx);
    historySection(ctx);
    modelSection(ctx);
    keywordSection(ctx);
    writeNeighbourSection(ctx);
    vectorSection(ctx);
    accessAndStatsSection(ctx);
    transferSection(ctx);
  });
}

function createSection(ctx: Ctx): void {
  describe('createItems', () => {
    it('creates items with their ids and writes the first version', async () => {
      const d = draft({ title: 'Tea', body: 'Green tea at 80 degrees', tags: ['tea', 'kitchen'] });
      const [outcome] = await ctx.store.createItems([d]);
      expect(outcome).toEqual({ item: d.item, created: true });
      expect(await ctx.store.getItems('default', [d.item.id])).toEqual([d.item]);
      expect(await ctx.store.versions('default', d.item.id)).toEqual([
        {
          item_id: d.item.id,
          version: 1,
          title: 'Tea',
          body: 'Green tea at 80 degrees',
          tags: ['tea', 'kitchen'],
          actor: 'tester',
          reason: 'contract',
          created_at: d.item.created_at,
        },
      ]);
    });

    it('returns the existing item for an exact duplicate, also within one batch', async () => {
      const first = draft({ body: 'The build server is ci-7' });
      const [original] = await create(ctx.store, first);
      const again = draft({ body: 'The build server is ci-7', importance: 0.9 });
      const otherKind = draft({ body: 'The build server is ci-7', kind: 'fact' });
      const batchA = draft({ body: 'Standup is at 9:30' });
      const batchB = draft({ body: 'Standup is at 9:30' });
      const outcomes = await ctx.store.createItems([again, otherKind, batchA, batchB]);
      expect(outcomes.map((o) => o.created)).toEqual([false, true, true, false]);
      expect(outcomes[0]!.item).toEqual(original);
      expect(outcomes[1]!.item.id).toBe(otherKind.item.id);
      expect(outcomes[3]!.item.id).toBe(batchA.item.id);
      expect(await ctx.store.getItems('default', [again.item.id, batchB.item.id])).toEqual([]);
    });

    it('does not count a forgotten item as a duplicate', async () => {
      const [old] = await create(ctx.store, draft({ body: 'Parking is on level 3' }));
      await forget(ctx.store, old!, T0 + DAY);
      const fresh = draft({ body: 'Parking is on level 3' });
      const [outcome] = await ctx.store.createItems([fresh]);
      expect(outcome).toMatchObject({ created: true, item: { id: fresh.item.id } });
    });

    it('keeps duplicates apart per space', async () => {
      const a = draft({ body: 'Office wifi is "guest"', space: 'alpha' });
      const b = draft({ body: 'Office wifi is "guest"', space: 'beta' });
      const outcomes = await ctx.store.createItems([a, b]);
      expect(outcomes.map((o) => [o.item.id, o.created])).toEqual([
        [a.item.id, true],
        [b.item.id, true],
      ]);
    });

    it('stores a draft vector: ready under the published model, empty when null', async () => {
      await ctx.store.publishModel(MODEL, 4, T0);
      const items = await create(
        ctx.store,
        draft({ body: 'with a vector' }, unit(1, 0, 0, 0)),
        draft({ body: 'nothing to embed' }, null),
        draft({ body: 'not embedded yet' }),
        draft({ body: 'another model' }, unit(0, 1, 0, 0), 'other-model'),
      );
      expect(items.map((i) => i.vector_state)).toEqual(['ready', 'empty', 'pending', 'pending']);
    });
  });
}

function readSection(ctx: Ctx): void {
  describe('getItems', () => {
    it('returns items in the order asked and skips unknown ids', async () => {
      const [a, b, c] = await create(
        ctx.store,
        draft({ body: 'a' }),
        draft({ body: 'b' }),
        draft({ body: 'c' }),
      );
      const got = await ctx.store.getItems('default', [c!.id, 'no-such-id', a!.id, b!.id]);
      expect(got.map((i) => i.id)).toEqual([c!.id, a!.id, b!.id]);
      expect(await ctx.store.getItems('default', [])).toEqual([]);
    });

    it('never shows an item of one space in another', async () => {
      const [a, a2] = await create(
        ctx.store,
        draft({ body: 'alpha secret', space: 'alpha' }),
        draft({ body: 'alpha other', space: 'alpha' }),
      );
      const id = a!.id;
      expect(await ctx.store.getItems('beta', [id])).toEqual([]);
      expect(await listAll(ctx.store, inSpace('beta'))).toEqual([]);
      await expectCode(ctx.store.versions('beta', id), 'NOT_FOUND');
      await expectCode(ctx.store.statusEvents('beta', id), 'NOT_FOUND');
      await expectCode(ctx.store.relations('beta', id), 'NOT_FOUND');
      await expectCode(
        ctx.store.purge('beta', id, { actor: null, reason: null, at: T0 }),
        'NOT_FOUND',
      );
      let seen: MutationContext | undefined;
      await ctx.store.mutate('beta', [id, a2!.id], (c) => {
        seen = c;
        return { changes: [] };
      });
      expect(seen!.items.size).toBe(0);
      await ctx.store.recordAccess('beta', [id], T0 + DAY);
      expect(await ctx.store.getItems('alpha', [id])).toEqual([a]);
      expect(await ctx.store.keywordSearch(inSpace('beta'), ['secret'], 10)).toEqual([]);
    });
  });
}

function listSection(ctx: Ctx): void {
  describe('listItems filters', () => {
    it('filters by status, several at once', async () => {
      const [active, candidate, gone] = await create(
        ctx.store,
        draft({ body: 'active one' }),
        draft({ body: 'candidate one', status: 'candidate' }),
        draft({ body: 'soon forgotten' }),
      );
      await forget(ctx.store, gone!, T0 + DAY);
      const ids = (statuses: ItemFilter['statuses']) =>
        listAll(ctx.store, { space: 'default', statuses });
      expect(await ids(['active'])).toEqual([active!.id]);
      expect(new Set(await ids(['active', 'candidate']))).toEqual(
        new Set([active!.id, candidate!.id]),
      );
      expect(await ids(['forgotten'])).toEqual([gone!.id]);
      expect(await ids(['archived'])).toEqual([]);
    });

    it('filters by kind', async () => {
      const [fact, rule] = await create(
        ctx.store,
        draft({ body: 'k1', kind: 'fact' }),
        draft({ body: 'k2', kind: 'rule' }),
        draft({ body: 'k3', kind: 'note' }),
      );
      expect(await listAll(ctx.store, inSpace('default', { kinds: ['fact'] }))).toEqual([fact!.id]);
      expect(
        new Set(await listAll(ctx.store, inSpace('default', { kinds: ['fact', 'rule'] }))),
      ).toEqual(new Set([fact!.id, rule!.id]));
    });

    it('matches an area prefix on whole path segments only', async () => {
      const areas = [
        'projects',
        'projects/x',
        'projects/x/y',
        'projectsX',
        'other/projects',
        'people',
      ];
      const items = await create(
        ctx.store,
        ...areas.map((area) => draft({ body: `in ${area}`, area })),
      );
      const byArea = (wanted: string[]) =>
        items.filter((i) => wanted.includes(i.area)).map((i) => i.id);
      const ids = async (prefixes: string[]) =>
        new Set(await listAll(ctx.store, inSpace('default', { areas: prefixes })));
      expect(await ids(['projects'])).toEqual(
        new Set(byArea(['projects', 'projects/x', 'projects/x/y'])),
      );
      expect(await ids(['projects/x'])).toEqual(new Set(byArea(['projects/x', 'projects/x/y'])));
      expect(await ids(['projects/x', 'people'])).toEqual(
        new Set(byArea(['projects/x', 'projects/x/y', 'people'])),
      );
      expect(await ids(['proj'])).toEqual(new Set());
    });

    it('requires every tag', async () => {
      const [ab, a] = await create(
        ctx.store,
        draft({ body: 't1', tags: ['a', 'b'] }),
        draft({ body: 't2', tags: ['a'] }),
        draft({ body: 't3', tags: ['b', 'c'] }),
      );
      expect(await listAll(ctx.store, inSpace('default', { tags: ['a', 'b'] }))).toEqual([ab!.id]);
      expect(new Set(await listAll(ctx.store, inSpace('default', { tags: ['a'] })))).toEqual(
        new Set([ab!.id, a!.id]),
      );
      expect(await listAll(ctx.store, inSpace('default', { tags: ['a', 'a', 'b'] }))).toEqual([
        ab!.id,
      ]);
      expect(await listAll(ctx.store, inSpace('default', { tags: ['z'] }))).toEqual([]);
    });

    it('filters pinned', async () => {
      const [pinned, loose] = await create(
        ctx.store,
        draft({ body: 'p1', pinned: true }),
        draft({ body: 'p2' }),
      );
      expect(await listAll(ctx.store, inSpace('default', { pinned: true }))).toEqual([pinned!.id]);
      expect(await listAll(ctx.store, inSpace('default', { pinned: false }))).toEqual([loose!.id]);
    });

    it('filters created and updated ranges: after is inclusive, before exclusive', async () => {
      const items = await create(
        ctx.store,
        ...[0, 1, 2, 3].map((d) =>
          draft({ body: `day ${d}`, created_at: T0 + d * DAY, updated_at: T0 + (10 - d) * DAY }),
        ),
      );
      const ids = (extra: Partial<ItemFilter>) => listAll(ctx.store, inSpace('default', extra));
      const at = (...days: number[]) => days.map((d) => items[d]!.id);
      expect(await ids({ created_after: T0 + DAY, created_before: T0 + 3 * DAY })).toEqual(
        at(2, 1),
      );
      expect(await ids({ created_after: T0 + 3 * DAY })).toEqual(at(3));
      expect(await ids({ created_before: T0 + DAY })).toEqual(at(0));
      expect(await ids({ updated_after: T0 + 9 * DAY })).toEqual(at(1, 0));
      expect(await ids({ updated_before: T0 + 8 * DAY })).toEqual(at(3));
      expect(await ids({ created_after: T0 + DAY, updated_after: T0 + 9 * DAY })).toEqual(at(1));
    });
  });

  describe('listItems order and cursor', () => {
    /** 57 items whose created times repeat (ties) and whose updated times run the other way. */
    async function seed(): Promise<ItemRecord[]> {
      return create(
        ctx.store,
        ...Array.from({ length: 57 }, (_, i) =>
          draft({
            body: `paged ${i}`,
            kind: i % 3 === 0 ? 'fact' : 'note',
            created_at: T0 + Math.floor(i / 5) * 1000,
            updated_at: T0 + DAY - Math.floor(i / 4) * 1000,
          }),
        ),
      );
    }

    async function pages(filter: ItemFilter, order: 'created' | 'updated', limit: number) {
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let n = 0; n < 100; n++) {
        const page = await ctx.store.listItems({ filter, limit, order, cursor });
        expect(page.items.length).toBeLessThanOrEqual(limit);
        seen.push(...page.items.map((i) => i.id));
        if (page.next_cursor === null) return seen;
        cursor = page.next_cursor;
      }
      throw new Error('paging did not end');
    }

    it('orders newest first by created or by updated time', async () => {
      const items = await seed();
      for (const order of ['created', 'updated'] as const) {
        const key = order === 'created' ? 'created_at' : 'updated_at';
        const listed = (await ctx.store.listItems({ filter: inSpace(), limit: 1000, order })).items;
        expect(listed).toHaveLength(items.length);
        const times = listed.map((i) => i[key]);
        expect(times).toEqual([...times].sort((a, b) => b - a));
      }
    });

    it('pages with a cursor without duplicates or gaps, also with filters', async () => {
      const items = await seed();
      for (const order of ['created', 'updated'] as const) {
        const full = await listAll(ctx.store, inSpace(), order);
        expect(await pages(inSpace(), order, 10)).toEqual(full);
        expect(await pages(inSpace(), order, 1)).toEqual(full);
        const facts = await listAll(ctx.store, inSpace('default', { kinds: ['fact'] }), order);
        expect(facts).toHaveLength(items.filter((i) => i.kind === 'fact').length);
        expect(await pages(inSpace('default', { kinds: ['fact'] }), order, 4)).toEqual(facts);
      }
      const exact = await ctx.store.listItems({ filter: inSpace(), limit: 57, order: 'created' });
      expect(exact.items).toHaveLength(57);
      expect(exact.next_cursor).toBeNull();
    });

    it('keeps paging stable when newer items arrive between pages', async () => {
      const items = await seed();
      const first = await ctx.store.listItems({ filter: inSpace(), limit: 20, order: 'created' });
      await create(ctx.store, draft({ body: 'late 1', created_at: T0 + 2 * DAY }));
      const seen = first.items.map((i) => i.id);
      let cursor = first.next_cursor;
      while (cursor !== null) {
        const page = await ctx.store.listItems({
          filter: inSpace(),
          limit: 20,
          order: 'created',
          cursor,
        });
        seen.push(...page.items.map((i) => i.id));
        cursor = page.next_cursor;
      }
      expect(seen).toHaveLength(items.length);
      expect(new Set(seen)).toEqual(new Set(items.map((i) => i.id)));
    });

    it('rejects a cursor it did not issue', async () => {
      await expectCode(
        ctx.store.listItems({
          filter: inSpace(),
          limit: 5,
          order: 'created',
          cursor: 'not-a-cursor',
        }),
        'INVALID_INPUT',
      );
    });
  });
}

function mutateSection(ctx: Ctx): void {
  describe('mutate', () => {
    it('gives the plan the current items of the space and their live relations', async () => {
      const [a, b, c] = await create(
        ctx.store,
        draft({ body: 'ma' }),
        draft({ body: 'mb' }),
        draft({ body: 'mc' }),
      );
      const live = relationRecord(a!.id, b!.id, { created_at: T0 + 1 });
      const dead = relationRecord(a!.id, c!.id, { created_at: T0 + 2 });
      const elsewhere = relationRecord(b!.id, c!.id, { created_at: T0 + 3, space: 'other' });
      await ctx.store.mutate(
        'default',
        [a!.id],
        fixed({ changes: [], addRelations: [live, dead] }),
      );
      await ctx.store.importRelations([elsewhere]);
      await ctx.store.mutate(
        'default',
        [a!.id],
        fixed({ changes: [], invalidateRelations: [{ id: dead.id, at: T0 + 5, reason: 'test' }] }),
      );
      await ctx.store.mutate(
        'default',
        [b!.id],
        fixed({ changes: [{ id: b!.id, patch: { importance: 0.8, updated_at: T0 + 6 } }] }),
      );
      let seen: MutationContext | undefined;
      await ctx.store.mutate('default', [a!.id, b!.id, 'missing'], (context) => {
        seen = context;
        return { changes: [] };
      });
      expect([...seen!.items.keys()].sort()).toEqual([a!.id, b!.id].sort());
      expect(seen!.items.get(b!.id)).toEqual({ ...b, importance: 0.8, updated_at: T0 + 6 });
      expect(seen!.relations).toEqual([live]);
    });

    it('patches fields and returns the changed items', async () => {
      const [item] = await create(ctx.store, draft({ body: 'patch me', tags: ['old'] }));
      const patch = {
        area: 'projects/billing',
        importance: 0.9,
        pinned: true,
        tags: ['new', 'shiny'],
        strength: 0.4,
        source: { agent: 'agent-1', trust: 'agent' as const },
        use_count: 2,
        last_used_at: T0 + 2 * DAY,
        prior: { area: 'general', at: new Date(T0).toISOString(), reason: 'move' },
        updated_at: T0 + 3 * DAY,
      };
      const out = await ctx.store.mutate(
        'default',
        [item!.id],
        fixed({ changes: [{ id: item!.id, patch }] }),
      );
      const expected = { ...item!, ...patch };
      expect(out).toEqual([expected]);
      expect(await ctx.store.getItems('default', [item!.id])).toEqual([expected]);
      expect(await listAll(ctx.store, inSpace('default', { tags: ['shiny'] }))).toEqual([item!.id]);
      expect(await listAll(ctx.store, inSpace('default', { tags: ['old'] }))).toEqual([]);
      expect(await ctx.store.keywordSearch(inSpace(), ['shiny'], 5)).toMatchObject([
        { id: item!.id },
      ]);
    });

    it('numbers new versions itself and keeps every version', async () => {
      const [item] = await create(ctx.store, draft({ body: 'first draft about otters' }));
      for (const [n, body] of [
        [2, 'second draft about beavers'],
        [3, 'third draft about herons'],
      ] as const) {
        const at = T0 + n * DAY;
        const [out] = await ctx.store.mutate(
          'default',
          [item!.id],
          fixed({
            changes: [
              {
                id: item!.id,
                patch: { updated_at: at },
                version: {
                  title: `v${n}`,
                  body,
                  tags: [`t${n}`],
                  actor: 'editor',
                  reason: 'edit',
                  at,
                },
              },
            ],
          }),
        );
        expect(out).toMatchObject({ version: n, body, title: `v${n}`, tags: [`t${n}`] });
      }
      const versions = await ctx.store.versions('default', item!.id);
      expect(versions.map((v) => [v.version, v.body, v.actor, v.created_at])).toEqual([
        [1, 'first draft about otters', 'tester', T0],
        [2, 'second draft about beavers', 'editor', T0 + 2 * DAY],
        [3, 'third draft about herons', 'editor', T0 + 3 * DAY],
      ]);
      expect(await ctx.store.keywordSearch(inSpace(), ['herons'], 5)).toMatchObject([
        { id: item!.id },
      ]);
      expect(await ctx.store.keywordSearch(inSpace(), ['otters'], 5)).toEqual([]);
    });

    it('lists status events in time order, whatever order they were written in', async () => {
      const [item] = await create(ctx.store, draft({ body: 'events' }));
      const id = item!.id;
      const second = statusEvent('challenged', 'active', T0 + 2 * DAY, 'resolved');
      const first = statusEvent('active', 'challenged', T0 + DAY, 'challenge');
      // Written last but dated between the two (e.g. a backdated or imported event).
      const middle = statusEvent('challenged', 'challenged', T0 + 1.5 * DAY, 'note');
      for (const event of [first, second, middle]) {
        await ctx.store.mutate(
          'default',
          [id],
          fixed({ changes: [{ id, patch: { status: event.to_status }, statusEvent: event }] }),
        );
      }
      expect(await ctx.store.statusEvents('default', id)).toEqual(
        [first, middle, second].map((e) => ({ ...e, item_id: id })),
      );
    });

    it('adds and invalidates relations, keeping them in history', async () => {
      const [a, b] = await create(ctx.store, draft({ body: 'ra' }), draft({ body: 'rb' }));
      const r1 = relationRecord(a!.id, b!.id, { type: 'supersedes', created_at: T0 + 2 });
      const r2 = relationRecord(b!.id, a!.id, { type: 'derived_from', created_at: T0 + 1 });
      await ctx.store.mutate(
        'default',
        [a!.id, b!.id],
        fixed({ changes: [], addRelations: [r1, r2] }),
      );
      await ctx.store.mutate(
        'default',
        [a!.id],
        fixed({
          changes: [],
          invalidateRelations: [{ id: r1.id, at: T0 + DAY, reason: 'restore' }],
        }),
      );
      const dead = { ...r1, invalidated_at: T0 + DAY, invalidated_reason: 'restore' };
      expect(await ctx.store.relations('default', a!.id)).toEqual([r2, dead]);
      expect(await ctx.store.relations('default', b!.id)).toEqual([r2, dead]);
    });

    it('writes nothing when the plan throws', async () => {
      const [item] = await create(ctx.store, draft({ body: 'untouched' }));
      const refusal = new EngramError('CONFLICT', 'refused by the plan', { id: item!.id });
      await expect(
        ctx.store.mutate('default', [item!.id], () => {
          throw refusal;
        }),
      ).rejects.toBe(refusal);
      expect(await ctx.store.getItems('default', [item!.id])).toEqual([item]);
      // The refused transaction holds no lock: the next write goes through.
      const [after] = await ctx.store.mutate(
        'default',
        [item!.id],
        fixed({ changes: [{ id: item!.id, patch: { importance: 0.7 } }] }),
      );
      expect(after!.importance).toBe(0.7);
    });

    it('writes nothing when a change fails half way', async () => {
      const [a, b] = await create(ctx.store, draft({ body: 'half a' }), draft({ body: 'half b' }));
      const at = T0 + DAY;
      const link = relationRecord(a!.id, b!.id);
      const bad = ctx.store.mutate(
        'default',
        [a!.id, b!.id],
        fixed({
          changes: [
            {
              id: a!.id,
              patch: { importance: 1, updated_at: at },
              version: {
                title: 'x',
                body: 'half a, revised',
                tags: [],
                actor: null,
                reason: null,
                at,
              },
              statusEvent: statusEvent('active', 'challenged', at),
            },
          ],
          // The same relation id twice: the second insert fails after everything else is written.
          addRelations: [link, link],
        }),
      );
      await expect(bad).rejects.toThrow();
      expect(await ctx.store.getItems('default', [a!.id, b!.id])).toEqual([a, b]);
      expect(await ctx.store.versions('default', a!.id)).toHaveLength(1);
      expect(await ctx.store.statusEvents('default', a!.id)).toEqual([]);
      expect(await ctx.store.relations('default', a!.id)).toEqual([]);
      const later = await ctx.store.mutate(
        'default',
        [b!.id],
        fixed({ changes: [{ id: b!.id, patch: { importance: 0.1 } }] }),
      );
      expect(later[0]!.importance).toBe(0.1);
    });
  });
}

function purgeSection(ctx: Ctx): void {
  describe('purge', () => {
    it('removes text, versions and vectors, and invalidates relations as purged', async () => {
      await ctx.store.publishModel(MODEL, 4, T0);
      const [gone, kept] = await create(
        ctx.store,
        draft({ body: 'private diary entry about lighthouses' }, unit(1, 0, 0, 0)),
        draft({ body: 'public note about lighthouses' }, unit(0.9, 0.1, 0, 0)),
      );
      const link = relationRecord(kept!.id, gone!.id, { created_at: T0 + 1 });
      await ctx.store.mutate('default', [kept!.id], fixed({ changes: [], addRelations: [link] }));
      await ctx.store.purge('default', gone!.id, {
        actor: 'admin',
        reason: 'privacy',
        at: T0 + DAY,
      });

      expect(await ctx.store.getItems('default', [gone!.id])).toEqual([]);
      await expectCode(ctx.store.versions('default', gone!.id), 'NOT_FOUND');
      await expectCode(
        ctx.store.purge('default', gone!.id, { actor: null, reason: null, at: T0 }),
        'NOT_FOUND',
      );
      expect(await ctx.store.relations('default', kept!.id)).toEqual([
        { ...link, invalidated_at: T0 + DAY, invalidated_reason: 'purged' },
      ]);
      const exported = await collect(ctx.store.exportItems(null));
      expect(exported.map((r) => r.item.id)).toEqual([kept!.id]);
      expect(JSON.stringify(exported)).not.toContain('diary');

      // Later writes must not bring it back into either search.
      await create(ctx.store, draft({ body: 'another lighthouse keeper' }, unit(0, 0, 1, 0)));
      const keyword = await ctx.store.keywordSearch(inSpace(), ['lighthouses', 'diary'], 10);
      expect(keyword.map((h) => h.id)).not.toContain(gone!.id);
      expect(await ctx.store.keywordSearch(inSpace(), ['diary'], 10)).toEqual([]);
      const vector = await ctx.store.vectorSearch(inSpace(), MODEL, unit(1, 0, 0, 0), 10);
      expect(vector.map((h) => h.id)).not.toContain(gone!.id);
      expect(vector[0]!.id).toBe(kept!.id);
      expect((await ctx.store.stats('default')).items_total).toBe(2);
    });

    it('lets the same text be remembered again as a new item', async () => {
      const [gone] = await create(ctx.store, draft({ body: 'once and again' }));
      await ctx.store.purge('default', gone!.id, { actor: null, reason: null, at: T0 + 1 });
      const [outcome] = await ctx.store.createItems([draft({ body: 'once and again' })]);
      expect(outcome!.created).toBe(true);
      expect(outcome!.item.id).not.toBe(gone!.id);
    });
  });
}

function historySection(ctx: Ctx): void {
  describe('versions, status events and relations', () => {
    it('answer NOT_FOUND for unknown ids', async () => {
      const id = newId();
      await expectCode(ctx.store.versions('default', id), 'NOT_FOUND');
      await expectCode(ctx.store.statusEvents('default', id), 'NOT_FOUND');
      await expectCode(ctx.store.relations('default', id), 'NOT_FOUND');
      await expectCode(
        ctx.store.purge('default', id, { actor: null, reason: null, at: T0 }),
        'NOT_FOUND',
      );
    });

    it('list an item with no history as empty', async () => {
      const [item] = await create(ctx.store, draft({ body: 'quiet' }));
      expect(await ctx.store.statusEvents('default', item!.id)).toEqual([]);
      expect(await ctx.store.relations('default', item!.id)).toEqual([]);
    });

    it('list relations oldest first, in both directions', async () => {
      const [a, b, c] = await create(
        ctx.store,
        draft({ body: 'ha' }),
        draft({ body: 'hb' }),
        draft({ body: 'hc' }),
      );
      const late = relationRecord(a!.id, b!.id, { created_at: T0 + 30 });
      const early = relationRecord(c!.id, a!.id, { created_at: T0 + 10 });
      const middle = relationRecord(a!.id, c!.id, { created_at: T0 + 20, type: 'derived_from' });
      await ctx.store.mutate(
        'default',
        [a!.id, b!.id, c!.id],
        fixed({ changes: [], addRelations: [late, early, middle] }),
      );
      expect(await ctx.store.relations('default', a!.id)).toEqual([early, middle, late]);
      expect(await ctx.store.relations('default', b!.id)).toEqual([late]);
    });
  });
}

function modelSection(ctx: Ctx): void {
  describe('publishModel / publishedModel', () => {
    it('publishes one model; republishing is a no-op; another model is a CONFLICT', async () => {
      expect(await ctx.store.publishedModel()).toBeUndefined();
      const record = { id: MODEL, dimension: 4, published_at: T0 };
      expect(await ctx.store.publishModel(MODEL, 4, T0)).toEqual(record);
      expect(await ctx.store.publishedModel()).toEqual(record);
      expect(await ctx.store.publishModel(MODEL, 4, T0 + DAY)).toEqual(record);
      await expectCode(ctx.store.publishModel('other-model', 8, T0 + DAY), 'CONFLICT');
      expect(await ctx.store.publishedModel()).toEqual(record);
    });

    it('marks items that already hold a vector of the model ready when it is published', async () => {
      const items = await create(
        ctx.store,
        draft({ body: 'early vector' }, unit(1, 1, 0, 0)),
        draft({ body: 'early empty' }, null),
        draft({ body: 'no vector' }),
      );
      expect(items.map((i) => i.vector_state)).toEqual(['pending', 'pending', 'pending']);
      await ctx.store.publishModel(MODEL, 4, T0);
      const after = await ctx.store.getItems(
        'default',
        items.map((i) => i.id),
      );
      expect(after.map((i) => i.vector_state)).toEqual(['ready', 'empty', 'pending']);
      const hits = await ctx.store.vectorSearch(inSpace(), MODEL, unit(1, 1, 0, 0), 5);
      expect(hits.map((h) => h.id)).toEqual([items[0]!.id]);
    });
  });

  describe('pendingVectors / putVectors', () => {
    it('lists items waiting for a vector and fills them', async () => {
      await ctx.store.publishModel(MODEL, 4, T0);
      const [waiting, ready] = await create(
        ctx.store,
        draft({ title: 'T', body: 'waits', tags: ['x'] }),
        draft({ body: 'has one' }, unit(0, 0, 0, 1)),
      );
      const pending = await ctx.store.pendingVectors(100);
      expect(pending).toEqual([
        { id: waiting!.id, version: 1, space: 'default', title: 'T', body: 'waits', tags: ['x'] },
      ]);
      expect(pending.map((p) => p.id)).not.toContain(ready!.id);
      const stored = await ctx.store.putVectors(MODEL, [
        { id: waiting!.id, version: 1, vector: unit(0, 1, 0, 0) },
        { id: 'no-such-item', version: 1, vector: unit(0, 1, 0, 0) },
      ]);
      expect(stored).toBe(1);
      expect(await ctx.store.pendingVectors(100)).toEqual([]);
      expect((await ctx.store.getItems('default', [waiting!.id]))[0]!.vector_state).toBe('ready');
      const hits = await ctx.store.vectorSearch(inSpace(), MODEL, unit(0, 1, 0, 0), 1);
      expect(hits).toMatchObject([{ id: waiting!.id }]);
    });

    it('skips a vector made for a stale version', async () => {
      await ctx.store.publishModel(MODEL, 4, T0);
      const [item] = await create(ctx.store, draft({ body: 'old text' }));
      const id = item!.id;
      await ctx.store.mutate(
        'default',
        [id],
        fixed({
          changes: [
            {
              id,
              version: {
                title: null,
                body: 'new text',
                tags: [],
                actor: null,
                reason: null,
                at: T0 + 1,
              },
              vector: 'pending',
            },
          ],
        }),
      );
      expect(
        await ctx.store.putVectors(MODEL, [{ id, version: 1, vector: unit(1, 0, 0, 0) }]),
      ).toBe(0);
      expect(await ctx.store.pendingVectors(10)).toMatchObject([
        { id, version: 2, body: 'new text' },
      ]);
      expect(await ctx.store.vectorSearch(inSpace(), MODEL, unit(1, 0, 0, 0), 5)).toEqual([]);
      expect(
        await ctx.store.putVectors(MODEL, [{ id, version: 2, vector: unit(1, 0, 0, 0) }]),
      ).toBe(1);
      expect(await ctx.store.vectorSearch(inSpace(), MODEL, unit(1, 0, 0, 0), 5)).toMatchObject([
        { id },
      ]);
    });

    it('marks an item empty when it has nothing to embed', async () => {
      await ctx.store.publishModel(MODEL, 4, T0);
      const [item] = await create(ctx.store, draft({ body: '!!!' }));
      expect(await ctx.store.putVectors(MODEL, [{ id: item!.id, version: 1, vector: null }])).toBe(
        1,
      );
      const [after] = await ctx.store.getItems('default', [item!.id]);
      expect(after!.vector_state).toBe('empty');
      expect(await ctx.store.pendingVectors(10)).toEqual([]);
      expect((await ctx.store.stats('default')).vectors).toEqual({
        ready: 0,
        pending: 0,
        empty: 1,
      });
    });

    it('honours the limit', async () => {
      await create(
        ctx.store,
        ...Array.from({ length: 7 }, (_, i) => draft({ body: `pending ${i}` })),
      );
      expect(await ctx.store.pendingVectors(3)).toHaveLength(3);
    });
  });
}

function writeNeighbourSection(ctx: Ctx): void {
  describe('writeNeighbors', () => {
    const MINUTE = 60_000;
    const GAP = 30 * MINUTE;
    /** a, b, (a turn of a session), c, d (two hours later), f (forgotten), in this write order. */
    async function written() {
      const [a, b, s, c, d, f] = await create(
        ctx.store,
        draft({ body: 'a', created_at: T0 }),
        draft({ body: 'b', created_at: T0 + MINUTE }),
        draft({ body: 's', created_at: T0 + 2 * MINUTE, source: { session: 'chat', turn: 0 } }),
        draft({ body: 'c', created_at: T0 + 3 * MINUTE }),
        draft({ body: 'd', created_at: T0 + 120 * MINUTE }),
        draft({ body: 'f', created_at: T0 + 4 * MINUTE, status: 'forgotten' }),
      );
      return { a: a!, b: b!, s: s!, c: c!, d: d!, f: f! };
    }
    const near = async (filter: ItemFilter, ids: string[], window: number, gap = GAP) =>
      (await ctx.store.writeNeighbors!(filter, ids, window, gap)).map((t) => {
        expect(t.session).toBe(WRITE_ORDER);
        return t;
      });

    it('gives the session-less items written around an item, close in time, in write order', async () => {
      const { b, c, f } = await written();
      const turns = await near(inSpace(), [c.id], 2);
      expect(turns.map((t) => t.body)).toEqual(['b', 'c', 'f']);
      expect(turns.map((t) => t.id)).toEqual([b.id, c.id, f.id]);
      expect(turns.map((t) => t.at)).toEqual([b.created_at, c.created_at, f.created_at]);
      // The turn is the place in the write order: b is two writes before c (a session's turn between).
      expect(turns[1]!.turn - turns[0]!.turn).toBe(2);
      expect(turns[2]!.turn - turns[1]!.turn).toBe(2);
    });

    it('keeps to the window, the time gap and the filter; a turn of a session has no write neighbours', async () => {
      const { a, s, c } = await written();
      expect((await near(inSpace(), [c.id], 1)).map((t) => t.body)).toEqual(['c']);
      expect((await near(inSpace(), [c.id], 2, 180 * MINUTE)).map((t) => t.body)).toEqual([
        'b',
        'c',
        'd',
        'f',
      ]);
      const active = inSpace('default', { statuses: ['active'] });
      expect((await near(active, [c.id], 2)).map((t) => t.body)).toEqual(['b', 'c']);
      expect((await near(inSpace(), [a.id, c.id], 1)).map((t) => t.body)).toEqual(['a', 'b', 'c']);
      expect(await near(inSpace(), [s.id], 3)).toEqual([]);
      expect(await near(inSpace(), [c.id], 0)).toEqual([]);
      expect(await near(inSpace(), [], 2)).toEqual([]);
    });

    it('leaves out the kinds that stand on their own', async () => {
      const [n1, fact] = await create(
        ctx.store,
        draft({ body: 'n1', created_at: T0 }),
        draft({ body: 'fact', kind: 'fact', created_at: T0 }),
        draft({ body: 'n2', kind: 'episode', created_at: T0 }),
      );
      expect((await near(inSpace(), [n1!.id], 2)).map((t) => t.body)).toEqual(['n1', 'n2']);
      expect(await near(inSpace(), [fact!.id], 2)).toEqual([]);
    });

    it('never crosses spaces', async () => {
      const { c } = await written();
      const [other] = await create(
        ctx.store,
        draft({ body: 'o', space: 'other', created_at: T0 + 3 * MINUTE }),
      );
      expect((await near(inSpace(), [c.id], 5)).map((t) => t.body)).not.toContain('o');
      expect(await near(inSpace('other'), [c.id], 5)).toEqual([]);
      expect((await near(inSpace('other'), [other!.id], 5)).map((t) => t.body)).toEqual(['o']);
    });
  });
}

function keywordSection(ctx: Ctx): void {
  describe('keywordSearch', () => {
    it('ranks by BM25: more query terms, then shorter documents, first', async () => {
      const [both, short, long] = await create(
        ctx.store,
        draft({ body: 'Descale the kettle every month with citric acid' }),
        draft({ body: 'The kettle lives in the cupboard' }),
        draft({
          body: 'A long list of chores for the weekend: groceries, the garage door, the garden hose, bicycle tyres, the electricity bill, the attic boxes and finally the kettle',
        }),
        draft({ body: 'Nothing relevant here at all' }),
      );
      const hits = await ctx.store.keywordSearch(inSpace(), ['kettle', 'descale'], 10);
      expect(hits.map((h) => h.id)).toEqual([both!.id, short!.id, long!.id]);
      const scores = hits.map((h) => h.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      expect(new Set(scores).size).toBe(3);
      expect(await ctx.store.keywordSearch(inSpace(), ['kettle'], 1)).toHaveLength(1);
      expect(await ctx.store.keywordSearch(inSpace(), ['kettle'], 0)).toEqual([]);
      expect(await ctx.store.keywordSearch(inSpace(), [], 10)).toEqual([]);
    });

    it('stems: "running" finds "run" and "runs"', async () => {
      const [run, runs] = await create(
        ctx.store,
        draft({ body: 'I run along the river every morning' }),
        draft({ body: 'She runs the bakery on Main Street' }),
        draft({ body: 'The car is parked outside' }),
      );
      const ids = (await ctx.store.keywordSearch(inSpace(), ['running'], 10)).map((h) => h.id);
      expect(new Set(ids)).toEqual(new Set([run!.id, runs!.id]));
    });

    it('searches titles and tags as well as bodies', async () => {
      const [titled, tagged] = await create(
        ctx.store,
        draft({ title: 'Zeppelin checklist', body: 'inflate, inspect, launch' }),
        draft({ body: 'weekly sync notes', tags: ['zeppelin'] }),
      );
      const ids = (await ctx.store.keywordSearch(inSpace(), ['zeppelin'], 10)).map((h) => h.id);
      expect(new Set(ids)).toEqual(new Set([titled!.id, tagged!.id]));
    });

    it('applies filters and the space', async () => {
      const [note, , , , , inAreaFact] = await create(
        ctx.store,
        draft({ body: 'walrus note', kind: 'note', area: 'zoo' }),
        draft({ body: 'walrus fact elsewhere', kind: 'fact', area: 'sea' }),
        draft({ body: 'walrus candidate', status: 'candidate', area: 'zoo' }),
        draft({ body: 'walrus in another space', space: 'other', area: 'zoo' }),
        draft({ body: 'walrus tagged', tags: ['arctic'], area: 'zoo/arctic', pinned: true }),
        draft({ body: 'walrus zoo fact', kind: 'fact', area: 'zoo' }),
      );
      const ids = async (filter: ItemFilter) =>
        new Set((await ctx.store.keywordSearch(filter, ['walrus'], 10)).map((h) => h.id));
      expect((await ids(inSpace())).size).toBe(5);
      expect(await ids(inSpace('default', { kinds: ['fact'], areas: ['zoo'] }))).toEqual(
        new Set([inAreaFact!.id]),
      );
      expect((await ids({ space: 'default', statuses: ['active'] })).size).toBe(4);
      expect((await ids(inSpace('default', { areas: ['zoo'] }))).size).toBe(4);
      expect((await ids(inSpace('default', { tags: ['arctic'], pinned: true }))).size).toBe(1);
      expect((await ids(inSpace('other'))).size).toBe(1);
      await forget(ctx.store, note!, T0 + DAY);
      expect((await ids({ space: 'default', statuses: ['active'] })).has(note!.id)).toBe(false);
    });

    it('treats full-text query syntax in terms as plain text and never throws', async () => {
      const [mill, berry] = await create(
        ctx.store,
        draft({ body: 'Turn left near the old mill OR the bridge, and NOT before noon' }),
        draft({ body: 'raspberry jam recipe: title and body' }),
      );
      const weird = [
        'NEAR',
        'AND',
        'OR',
        'NOT',
        '"',
        '""',
        'a"b',
        '*',
        'rasp*',
        '^',
        '^near',
        '-',
        '-mill',
        ':',
        'body:mill',
        'title:raspberry',
        '(',
        ')',
        'NEAR(mill bridge)',
        '{body}',
        '+',
        "'",
        '\\',
        '%',
        '_',
        ';',
        '--',
        "'; DROP TABLE items; --",
        '\u0000',
        'mill\u0000',
        'mill"',
        '"mill',
      ];
      for (const term of weird) await ctx.store.keywordSearch(inSpace(), [term], 10);
      await ctx.store.keywordSearch(inSpace(), weird, 10);
      const ids = async (term: string) =>
        (await ctx.store.keywordSearch(inSpace(), [term], 10)).map((h) => h.id);
      expect(await ids('NEAR')).toEqual([mill!.id]);
      expect(await ids('-mill')).toEqual([mill!.id]);
      expect(await ids('mill"')).toEqual([mill!.id]);
      expect(await ids('mill\u0000')).toEqual([mill!.id]);
      expect(await ids('rasp*')).toEqual([]);
      expect(await ids('raspberry')).toEqual([berry!.id]);
      expect((await ctx.store.stats('default')).items_total).toBe(2);
    });
  });
}

function vectorSection(ctx: Ctx): void {
  describe('vectorSearch', () => {
    beforeEach(async () => {
      await ctx.store.publishModel(MODEL, 8, T0);
    });

    async function population(count: number, seed: number) {
      const random = seeded(seed);
      const drafts = Array.from({ length: count }, (_, i) =>
        draft({ body: `vector item ${seed}-${i}` }, randomUnit(random)),
      );
      const items = await create(ctx.store, ...drafts);
      return items.map((item, i) => ({ ...item, vector: drafts[i]!.vector!.vector! }));
    }

    it('ranks by exact cosine with cosine scores', async () => {
      const items = await population(40, 7);
      const query = randomUnit(seeded(99));
      const hits = await ctx.store.vectorSearch(inSpace(), MODEL, query, 10);
      expect(hits.map((h) => h.id)).toEqual(rankByCosine(items, query).slice(0, 10));
      for (const hit of hits) {
        const item = items.find((i) => i.id === hit.id)!;
        expect(hit.score).toBeCloseTo(
          item.vector.reduce((s, v, d) => s + v * query[d]!, 0),
          5,
        );
      }
      expect(await ctx.store.vectorSearch(inSpace(), MODEL, query, 0)).toEqual([]);
    });

    it('applies filters even when they leave only a few of many items', async () => {
      const query = randomUnit(seeded(5));
      const items = await population(300, 11);
      const worst = rankByCosine(items, query).slice(-3);
      await ctx.store.mutate(
        'default',
        worst,
        fixed({
          changes: worst.map((id) => ({ id, patch: { tags: ['rare'], area: 'rare/corner' } })),
        }),
      );
      const expected = worst;
      for (const filter of [
        inSpace('default', { tags: ['rare'] }),
        inSpace('default', { areas: ['rare'] }),
      ]) {
        const hits = await ctx.store.vectorSearch(filter, MODEL, query, 5);
        expect(hits.map((h) => h.id)).toEqual(expected);
      }
      const one = await ctx.store.vectorSearch(
        inSpace('default', { tags: ['rare'] }),
        MODEL,
        query,
        1,
      );
      expect(one.map((h) => h.id)).toEqual(expected.slice(0, 1));
    });

    it('searches the vectors of a model that is not published, filters included', async () => {
      const items = await create(
        ctx.store,
        ...Array.from({ length: 300 }, (_, i) => draft({ body: `next model item ${i}` })),
      );
      const random = seeded(14);
      const next = items.map((i) => ({ id: i.id, vector: randomUnit(random) }));
      const stored = await ctx.store.putVectors(
        'next-model',
        next.map((n) => ({ id: n.id, version: 1, vector: n.vector })),
      );
      expect(stored).toBe(300);
      const query = randomUnit(seeded(15));
      const worst = rankByCosine(next, query).slice(-3);
      await ctx.store.mutate(
        'default',
        worst,
        fixed({ changes: worst.map((id) => ({ id, patch: { tags: ['rare'] } })) }),
      );
      const top = await ctx.store.vectorSearch(inSpace(), 'next-model', query, 5);
      expect(top.map((h) => h.id)).toEqual(rankByCosine(next, query).slice(0, 5));
      const rare = await ctx.store.vectorSearch(
        inSpace('default', { tags: ['rare'] }),
        'next-model',
        query,
        5,
      );
      expect(rare.map((h) => h.id)).toEqual(worst);
    });

    it('excludes statuses the filter does not admit', async () => {
      const items = await population(30, 3);
      const query = items[0]!.vector;
      await forget(ctx.store, items[0]!, T0 + DAY);
      const hits = await ctx.store.vectorSearch(
        { space: 'default', statuses: ['active'] },
        MODEL,
        query,
        5,
      );
      expect(hits.map((h) => h.id)).not.toContain(items[0]!.id);
      const all = await ctx.store.vectorSearch(inSpace(), MODEL, query, 1);
      expect(all[0]!.id).toBe(items[0]!.id);
    });

    it('keeps spaces apart', async () => {
      const here = await population(20, 21);
      const query = randomUnit(seeded(22));
      await create(ctx.store, draft({ body: 'exact match elsewhere', space: 'other' }, query));
      const hits = await ctx.store.vectorSearch(inSpace(), MODEL, query, 20);
      expect(hits.map((h) => h.id)).toEqual(rankByCosine(here, query));
      const other = await ctx.store.vectorSearch(inSpace('other'), MODEL, query, 5);
      expect(other).toHaveLength(1);
      expect(other[0]!.score).toBeCloseTo(1, 5);
    });

    it('follows purges, re-embeddings and cleared vectors', async () => {
      const items = await population(50, 31);
      const query = randomUnit(seeded(32));
      const ranked = rankByCosine(items, query);
      const top = ranked[0]!;
      await ctx.store.purge('default', top, { actor: null, reason: null, at: T0 + 1 });
      let hits = await ctx.store.vectorSearch(inSpace(), MODEL, query, 3);
      expect(hits.map((h) => h.id)).toEqual(ranked.slice(1, 4));

      const last = items.find((i) => i.id === ranked[ranked.length - 1])!;
      expect(await ctx.store.putVectors(MODEL, [{ id: last.id, version: 1, vector: query }])).toBe(
        1,
      );
      hits = await ctx.store.vectorSearch(inSpace(), MODEL, query, 3);
      expect(hits.map((h) => h.id)).toEqual([last.id, ...ranked.slice(1, 3)]);
      expect(hits[0]!.score).toBeCloseTo(1, 5);

      await ctx.store.mutate(
        'default',
        [last.id],
        fixed({ changes: [{ id: last.id, vector: 'pending' }] }),
      );
      hits = await ctx.store.vectorSearch(inSpace(), MODEL, query, 3);
      expect(hits.map((h) => h.id)).toEqual(ranked.slice(1, 4));

      const second = ranked[1]!;
      const away = unit(...Array.from(query, (v) => -v));
      await ctx.store.mutate(
        'default',
        [second],
        fixed({ changes: [{ id: second, vector: { model: MODEL, vector: away } }] }),
      );
      hits = await ctx.store.vectorSearch(inSpace(), MODEL, query, 3);
      expect(hits.map((h) => h.id)).toEqual(ranked.slice(2, 5));
      expect((await ctx.store.getItems('default', [last.id]))[0]!.vector_state).toBe('pending');
    });
  });
}

function accessAndStatsSection(ctx: Ctx): void {
  describe('recordAccess', () => {
    it('counts once per id per call and leaves updated_at alone', async () => {
      const [a, b, c] = await create(
        ctx.store,
        draft({ body: 'acc a' }),
        draft({ body: 'acc b' }),
        draft({ body: 'acc c' }),
      );
      await ctx.store.recordAccess('default', [a!.id, a!.id, b!.id, a!.id], T0 + DAY);
      await ctx.store.recordAccess('default', [a!.id], T0 + 2 * DAY);
      await ctx.store.recordAccess('default', [], T0 + 3 * DAY);
      const [a2, b2, c2] = await ctx.store.getItems('default', [a!.id, b!.id, c!.id]);
      expect(a2).toEqual({ ...a, access_count: 2, last_accessed_at: T0 + 2 * DAY });
      expect(b2).toEqual({ ...b, access_count: 1, last_accessed_at: T0 + DAY });
      expect(c2).toEqual(c);
    });

    it('adds batched counts, keeps the latest access time, and skips ids of other spaces', async () => {
      const [a, b] = await create(
        ctx.store,
        draft({ body: 'batch a' }),
        draft({ body: 'batch b' }),
      );
      const [other] = await create(ctx.store, draft({ body: 'batch o', space: 'other' }));
      await ctx.store.recordAccess('default', [a!.id], T0 + 5 * DAY);
      await ctx.store.recordAccessCounts('default', [
        // An earlier access flushed late (another process's batch) never moves the time back.
        { id: a!.id, count: 3, at: T0 + 2 * DAY },
        { id: b!.id, count: 2, at: T0 + 3 * DAY },
        { id: other!.id, count: 4, at: T0 + 3 * DAY },
        { id: 'no-such-id', count: 1, at: T0 + 3 * DAY },
      ]);
      await ctx.store.recordAccessCounts('default', []);
      const [a2, b2] = await ctx.store.getItems('default', [a!.id, b!.id]);
      expect(a2).toEqual({ ...a, access_count: 4, last_accessed_at: T0 + 5 * DAY });
      expect(b2).toEqual({ ...b, access_count: 2, last_accessed_at: T0 + 3 * DAY });
      expect((await ctx.store.getItems('other', [other!.id]))[0]).toEqual(other);
    });
  });

  describe('stats', () => {
    it('counts items, statuses, kinds, vector states and relations per space and overall', async () => {
      await ctx.store.publishModel(MODEL, 4, T0);
      const [a, b] = await create(
        ctx.store,
        draft({ body: 's1', kind: 'fact' }, unit(1, 0, 0, 0)),
        draft({ body: 's2', kind: 'fact' }, null),
        draft({ body: 's3', kind: 'rule', status: 'candidate' }),
        draft({ body: 's4', space: 'other' }),
      );
      await forget(ctx.store, b!, T0 + 1);
      await ctx.store.mutate(
        'default',
        [a!.id, b!.id],
        fixed({ changes: [], addRelations: [relationRecord(a!.id, b!.id)] }),
      );
      const stats = await ctx.store.stats('default');
      expect(stats).toMatchObject({
        items_total: 3,
        by_status: { active: 1, forgotten: 1, candidate: 1 },
        by_kind: { fact: 2, rule: 1 },
        vectors: { ready: 1, empty: 1, pending: 1 },
        relations: 1,
      });
      expect(Object.keys(stats.by_status).sort()).toEqual(['active', 'candidate', 'forgotten']);
      expect(stats.schema_version).toBeGreaterThanOrEqual(1);
      expect(stats.location).toEqual(expect.any(String));
      const all = await ctx.store.stats(null);
      expect(all).toMatchObject({
        items_total: 4,
        by_kind: { fact: 2, rule: 1, note: 1 },
        relations: 1,
      });
      expect((await ctx.store.stats('nobody')).items_total).toBe(0);
    });
  });
}

/** Builds a store with every kind of record export must carry. */
async function richStore(store: Store): Promise<void> {
  await store.publishModel(MODEL, 4, T0);
  const [a, b, c] = await create(
    store,
    draft(
      { body: 'rich a', title: 'A', tags: ['t'], source: { agent: 'x', trust: 'agent' } },
      unit(1, 2, 3, 4),
    ),
    draft({ body: 'rich b', kind: 'fact', pinned: true, importance: 0.9 }, null),
    draft({ body: 'rich c', area: 'projects/x' }),
    draft({ body: 'rich d', space: 'other' }, unit(4, 3, 2, 1), 'second-model'),
  );
  await store.putVectors('second-model', [{ id: a!.id, version: 1, vector: unit(0, 0, 1, 1) }]);
  const at = T0 + DAY;
  const r1 = relationRecord(a!.id, b!.id, { created_at: at });
  const r2 = relationRecord(c!.id, a!.id, { created_at: at + 1, type: 'supersedes' });
  await store.mutate(
    'default',
    [a!.id, b!.id, c!.id],
    fixed({
      changes: [
        {
          id: a!.id,
          patch: {
            updated_at: at,
            prior: { status: 'active', at: new Date(at).toISOString(), reason: 'x' },
          },
          version: {
            title: 'A2',
            body: 'rich a, revised',
            tags: ['t', 'u'],
            actor: 'me',
            reason: 'why',
            at,
          },
          vector: { model: MODEL, vector: unit(4, 3, 2, 1) },
        },
        {
          id: c!.id,
          patch: { status: 'superseded' },
          statusEvent: statusEvent('active', 'superseded', at),
        },
      ],
      addRelations: [r1, r2],
    }),
  );
  await store.mutate(
    'default',
    [a!.id],
    fixed({ changes: [], invalidateRelations: [{ id: r1.id, at: at + 5, reason: 'unrelate' }] }),
  );
  await store.recordAccess('default', [b!.id], at + 10);
}

function transferSection(ctx: Ctx): void {
  describe('export and import', () => {
    it('moves every record losslessly into a fresh store; re-import reports exists', async () => {
      await richStore(ctx.store);
      const items = await collect(ctx.store.exportItems(null));
      const relations = await collect(ctx.store.exportRelations(null));
      expect(items).toHaveLength(4);
      expect(items.map((r) => r.item.id)).toEqual(items.map((r) => r.item.id).sort());
      expect(relations).toHaveLength(2);
      const revised = items.find((r) => r.item.body === 'rich a, revised')!;
      expect(revised.versions.map((v) => v.version)).toEqual([1, 2]);
      expect(revised.vectors.map((v) => v.model)).toEqual([MODEL, 'second-model']);

      const target = await ctx.another();
      await target.publishModel(MODEL, 4, T0);
      expect(await target.importItems(items)).toEqual([
        'imported',
        'imported',
        'imported',
        'imported',
      ]);
      expect(await target.importRelations(relations)).toEqual(['imported', 'imported']);
      expect(await collect(target.exportItems(null))).toEqual(items);
      expect(await collect(target.exportRelations(null))).toEqual(relations);
      expect(await target.importItems(items)).toEqual(['exists', 'exists', 'exists', 'exists']);
      expect(await target.importRelations(relations)).toEqual(['exists', 'exists']);

      const hits = await target.vectorSearch(inSpace(), MODEL, unit(4, 3, 2, 1), 5);
      expect(hits[0]!.id).toBe(revised.item.id);
      const words = await target.keywordSearch(inSpace(), ['revised'], 5);
      expect(words.map((h) => h.id)).toEqual([revised.item.id]);
      expect(await target.integrityCheck()).toEqual({ ok: true, problems: [] });
    });

    it('streams large stores completely, in id order, without repeats', async () => {
      const items = await create(
        ctx.store,
        ...Array.from({ length: 1234 }, (_, i) => draft({ body: `bulk ${i}`, created_at: T0 + i })),
      );
      const links = items
        .slice(0, 777)
        .map((item, i) => relationRecord(item.id, items[i + 1]!.id, { created_at: T0 + i }));
      await ctx.store.importRelations(links);
      const exported = (await collect(ctx.store.exportItems('default'))).map((r) => r.item.id);
      expect(exported).toEqual(items.map((i) => i.id).sort());
      const relations = (await collect(ctx.store.exportRelations(null))).map((r) => r.id);
      expect(relations).toEqual(links.map((r) => r.id).sort());
    });

    it('exports one space alone', async () => {
      await richStore(ctx.store);
      const items = await collect(ctx.store.exportItems('other'));
      expect(items.map((r) => r.item.body)).toEqual(['rich d']);
      expect(await collect(ctx.store.exportRelations('other'))).toEqual([]);
      expect(await collect(ctx.store.exportRelations('default'))).toHaveLength(2);
    });

    it('leaves an existing id untouched on import', async () => {
      const [item] = await create(ctx.store, draft({ body: 'local version' }));
      const foreign: ItemExport = {
        item: { ...item!, body: 'imported version', version: 1 },
        versions: [],
        status_events: [],
        vectors: [],
      };
      expect(await ctx.store.importItems([foreign])).toEqual(['exists']);
      expect(await ctx.store.getItems('default', [item!.id])).toEqual([item]);
      const relation: RelationRecord = relationRecord(item!.id, item!.id);
      expect(await ctx.store.importRelations([relation, relation])).toEqual(['imported', 'exists']);
    });
  });

  describe('integrityCheck', () => {
    it('passes on a fresh store', async () => {
      expect(await ctx.store.integrityCheck()).toEqual({ ok: true, problems: [] });
    });
  });
}
