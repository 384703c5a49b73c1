/**
 * Recall reads its candidates' rows from SQLite as arrays of values (a statement in raw mode) and
 * maps them with `itemFromValues`: the records are the ones the object rows give, whatever the
 * columns hold (JSON text, 0/1 flags, nulls, a legacy null status).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { ITEM_ROW_COLUMNS } from '../src/store/item-rows.js';
import { itemFromRow, itemFromValues, type ItemRow } from '../src/store/sqlite/rows.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { draft } from './fixtures/store-records.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

describe('items read as arrays of values', () => {
  it('map to the records the object rows give, and getItems answers them in the order asked', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'engram-item-values-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const store = openSqliteStore({ path: join(dir, 'engram.db') });
    cleanups.push(() => store.close());
    const created = await store.createItems([
      draft({ body: 'plain note' }),
      draft({
        body: 'a pinned rule with everything set',
        kind: 'rule',
        area: 'work/billing',
        title: 'Invoices',
        tags: ['billing', 'monthly'],
        importance: 0.9,
        pinned: true,
        source: { session: 's1', turn: 4, speaker: 'Ana', url: 'file:///notes.md' },
        prior: { kind: 'note', at: '2026-01-02T00:00:00.000Z', reason: 'promoted' },
        last_accessed_at: 1_700_000_000_000,
        access_count: 3,
      }),
      draft({ body: 'written before statuses existed' }),
    ]);
    const ids = created.map((o) => o.item.id);
    const db = store['db'];
    // A row from before the status column was filled reads as active.
    db.prepare('UPDATE items SET status = NULL WHERE id = ?').run(ids[2]);

    const select = `SELECT ${ITEM_ROW_COLUMNS} FROM items ORDER BY pk`;
    const objects = (db.prepare(select).all() as ItemRow[]).map(itemFromRow);
    const values = (db.prepare(select).raw(true).all() as unknown[][]).map(itemFromValues);
    expect(values).toEqual(objects);
    expect(values[1]).toMatchObject({
      pinned: true,
      tags: ['billing', 'monthly'],
      source: { session: 's1', turn: 4 },
      prior: { kind: 'note', reason: 'promoted' },
      title: 'Invoices',
    });
    expect(values[2]!.status).toBe('active');

    const asked = [ids[2]!, 'missing', ids[0]!, ids[1]!];
    const got = await store.getItems('default', asked);
    expect(got.map((i) => i.id)).toEqual([ids[2], ids[0], ids[1]]);
    expect(got).toEqual([objects[2], objects[0], objects[1]]);
  });
});
