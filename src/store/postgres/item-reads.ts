/**
 * Reads of items and their history on PostgreSQL: items by id, filtered pages ordered by time
 * with an opaque cursor, and an item's versions, status events and relations.
 */
import { notFound } from '../../domain/errors.js';
import type {
  ItemRecord,
  RelationRecord,
  StatusEventRecord,
  VersionRecord,
} from '../../domain/records.js';
import type { ListQuery } from '../store.js';
import type { Queryable } from './database.js';
import {
  compileFilter,
  decodeCursor,
  encodeCursor,
  eventFromRow,
  ITEM_COLUMNS,
  itemFromRow,
  Params,
  type PgItemRow,
  relationFromRow,
  versionFromRow,
} from './rows.js';

/** The items of a space with the given ids, in the order asked; unknown ids are left out. */
export async function getItems(
  db: Queryable,
  space: string,
  ids: readonly string[],
): Promise<ItemRecord[]> {
  // An id with a NUL character names no item (PostgreSQL cannot hold one): it is simply absent.
  const lookup = ids.filter((id) => !id.includes('\u0000'));
  if (lookup.length === 0) return [];
  const rows = await db.query<PgItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM items WHERE space = $1 AND id = ANY($2::text[])`,
    [space, lookup],
  );
  const byId = new Map(rows.map((r) => [r.id, itemFromRow(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** One page of items matching a filter, newest first, and the cursor of the next page. */
export async function listItems(
  db: Queryable,
  query: ListQuery,
): Promise<{ items: ItemRecord[]; next_cursor: string | null }> {
  const params = new Params();
  const where = compileFilter(query.filter, params);
  const column = query.order === 'created' ? 'i.created_at' : 'i.updated_at';
  let cursorSql = '';
  if (query.cursor) {
    const [at, id] = decodeCursor(query.cursor);
    const a = params.add(at);
    cursorSql = ` AND (${column} < ${a} OR (${column} = ${a} AND i.id < ${params.add(id)}))`;
  }
  const rows = await db.query<PgItemRow>(
    `SELECT ${ITEM_COLUMNS} FROM items i WHERE ${where}${cursorSql} ORDER BY ${column} DESC, i.id DESC LIMIT ${params.add(query.limit + 1)}`,
    params.values,
  );
  const page = rows.slice(0, query.limit).map(itemFromRow);
  const last = page[page.length - 1];
  const next =
    rows.length > query.limit && last
      ? encodeCursor(query.order === 'created' ? last.created_at : last.updated_at, last.id)
      : null;
  return { items: page, next_cursor: next };
}

/** An item's body versions, oldest first; NOT_FOUND when the item does not exist. */
export async function versions(db: Queryable, space: string, id: string): Promise<VersionRecord[]> {
  await ensureExists(db, space, id);
  const rows = await db.query<VersionRecord>(
    'SELECT * FROM versions WHERE item_id = $1 ORDER BY version',
    [id],
  );
  return rows.map(versionFromRow);
}

/** An item's status changes in order; NOT_FOUND when the item does not exist. */
export async function statusEvents(
  db: Queryable,
  space: string,
  id: string,
): Promise<StatusEventRecord[]> {
  await ensureExists(db, space, id);
  const rows = await db.query<StatusEventRecord>(
    'SELECT * FROM status_events WHERE item_id = $1 ORDER BY at, id',
    [id],
  );
  return rows.map(eventFromRow);
}

/** Relations from or to an item, live or not; NOT_FOUND when the item does not exist. */
export async function relations(
  db: Queryable,
  space: string,
  id: string,
): Promise<RelationRecord[]> {
  await ensureExists(db, space, id);
  const rows = await db.query<RelationRecord>(
    'SELECT * FROM relations WHERE space = $1 AND (from_id = $2 OR to_id = $2) ORDER BY created_at, id',
    [space, id],
  );
  return rows.map(relationFromRow);
}

async function ensureExists(db: Queryable, space: string, id: string): Promise<void> {
  const rows = await db.query('SELECT 1 FROM items WHERE id = $1 AND space = $2', [id, space]);
  if (rows.length === 0) throw notFound('memory', id);
}
