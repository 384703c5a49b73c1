/**
 * Item reads of the SQLite store: rows by key, pages of a filtered list, and one item's versions,
 * status events and relations.
 */
import { notFound } from '../../domain/errors.js';
import type {
  ItemRecord,
  RelationRecord,
  StatusEventRecord,
  VersionRecord,
} from '../../domain/records.js';
import { decodeCursor, encodeCursor, ITEM_ROW_COLUMNS } from '../item-rows.js';
import type { ListQuery } from '../store.js';
import type { ReadCache } from './read-cache.js';
import {
  compileFilter,
  eventFromRow,
  itemFromRow,
  itemFromValues,
  type ItemRow,
  relationFromRow,
  versionFromRow,
} from './rows.js';
import type { StoreCore } from './store-core.js';

/** The item row with this primary key (which the caller knows exists). */
export function rowByPk(core: StoreCore, pk: number): ItemRow {
  return core.prepared('SELECT * FROM items WHERE pk = ?').get(pk) as ItemRow;
}

/** The item row with this id in this space, if any. */
export function rowById(core: StoreCore, space: string, id: string): ItemRow | undefined {
  return core.prepared('SELECT * FROM items WHERE id = ? AND space = ?').get(id, space) as
    | ItemRow
    | undefined;
}

/** The items with these ids in this space, in the order asked; missing ids are skipped. */
export async function getItems(
  core: StoreCore,
  space: string,
  ids: readonly string[],
  cache?: ReadCache,
): Promise<ItemRecord[]> {
  return core.read(() =>
    cache?.usable()
      ? cache.records(space, ids, (missing) => readItems(core, space, missing))
      : readItems(core, space, ids),
  );
}

function readItems(core: StoreCore, space: string, ids: readonly string[]): ItemRecord[] {
  // `+space`: look items up by id; the space index would scan the whole space (O(store)).
  // Rows as arrays (raw mode; this statement is read nowhere else): see itemFromValues.
  const rows = core
    .prepared(
      `SELECT ${ITEM_ROW_COLUMNS} FROM items WHERE +space = ? AND id IN (SELECT value FROM json_each(?))`,
    )
    .raw(true)
    .all(space, JSON.stringify(ids)) as unknown[][];
  const byId = new Map(rows.map((values) => itemFromValues(values)).map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** One page of a filtered list, newest first, with the cursor of the next page. */
export async function listItems(
  core: StoreCore,
  query: ListQuery,
): Promise<{ items: ItemRecord[]; next_cursor: string | null }> {
  return core.read(() => {
    const where = compileFilter(query.filter);
    const column = query.order === 'created' ? 'i.created_at' : 'i.updated_at';
    let cursorSql = '';
    const params: Record<string, unknown> = { ...where.params, limit: query.limit + 1 };
    if (query.cursor) {
      const [at, id] = decodeCursor(query.cursor);
      cursorSql = ` AND (${column} < @c_at OR (${column} = @c_at AND i.id < @c_id))`;
      params.c_at = at;
      params.c_id = id;
    }
    const rows = core.db
      .prepare(
        `SELECT i.* FROM items i WHERE ${where.sql}${cursorSql} ORDER BY ${column} DESC, i.id DESC LIMIT @limit`,
      )
      .all(params) as ItemRow[];
    const page = rows.slice(0, query.limit).map(itemFromRow);
    const last = page[page.length - 1];
    const next =
      rows.length > query.limit && last
        ? encodeCursor(query.order === 'created' ? last.created_at : last.updated_at, last.id)
        : null;
    return { items: page, next_cursor: next };
  });
}

function ensureExists(core: StoreCore, space: string, id: string): void {
  if (!rowById(core, space, id)) throw notFound('memory', id);
}

/** Every version of one item, oldest first. */
export async function versions(
  core: StoreCore,
  space: string,
  id: string,
): Promise<VersionRecord[]> {
  return core.read(() => {
    ensureExists(core, space, id);
    const rows = core
      .prepared('SELECT * FROM versions WHERE item_id = ? ORDER BY version')
      .all(id) as (Omit<VersionRecord, 'tags'> & { tags: string })[];
    return rows.map(versionFromRow);
  });
}

/** Every status change of one item, oldest first. */
export async function statusEvents(
  core: StoreCore,
  space: string,
  id: string,
): Promise<StatusEventRecord[]> {
  return core.read(() => {
    ensureExists(core, space, id);
    return (
      core
        .prepared('SELECT * FROM status_events WHERE item_id = ? ORDER BY at, id')
        .all(id) as StatusEventRecord[]
    ).map(eventFromRow);
  });
}

/** Every relation from or to one item, live or invalidated, oldest first. */
export async function relations(
  core: StoreCore,
  space: string,
  id: string,
): Promise<RelationRecord[]> {
  return core.read(() => {
    ensureExists(core, space, id);
    const rows = core
      .prepared(
        'SELECT * FROM relations WHERE space = ? AND (from_id = ? OR to_id = ?) ORDER BY created_at, id',
      )
      .all(space, id, id) as RelationRecord[];
    return rows.map(relationFromRow);
  });
}
