/**
 * Export reads of the SQLite store and its snapshot. Export pages through items and relations in
 * id order, over any page reader: the store's connection (one short read per page) or a
 * snapshot's. A snapshot is one read transaction on a second, read-only connection to the file:
 * in WAL mode it sees one moment of the store while writers (this process's included, on the
 * store's own connection) carry on.
 */
import Database from 'better-sqlite3';

import { EngramError } from '../../domain/errors.js';
import type {
  ItemExport,
  RelationRecord,
  StatusEventRecord,
  VersionRecord,
} from '../../domain/records.js';
import {
  DORMANT_TABLES,
  type DormantPages,
  exportDormantEvents,
  exportDormantStates,
} from '../dormant/export.js';
import type { SnapshotView } from '../store.js';
import { type SqliteDatabase, storeError } from './database.js';
import { sqliteDormantRows } from './dormant-rows.js';
import { exportLifecycleRows, type PageReader } from './lifecycle-transfer.js';
import {
  blobToVector,
  eventFromRow,
  itemFromRow,
  type ItemRow,
  relationFromRow,
  versionFromRow,
} from './rows.js';
import { exportSessionRows } from './session-store.js';

/** Rows read per page of an export. */
const PAGE = 500;

/** How long a snapshot's connection waits on a lock (a reader in WAL mode only meets recovery). */
const SNAPSHOT_BUSY_MS = 5_000;

/** Reads one item's full record; its statements are prepared once per page of items. */
function itemExporter(db: SqliteDatabase): (row: ItemRow) => ItemExport {
  const versions = db.prepare('SELECT * FROM versions WHERE item_id = ? ORDER BY version');
  const events = db.prepare('SELECT * FROM status_events WHERE item_id = ? ORDER BY at, id');
  const vectors = db.prepare(
    'SELECT model, dimension, vector FROM vectors WHERE item_pk = ? ORDER BY model',
  );
  return (row) => ({
    item: itemFromRow(row),
    versions: (versions.all(row.id) as (Omit<VersionRecord, 'tags'> & { tags: string })[]).map(
      versionFromRow,
    ),
    status_events: (events.all(row.id) as StatusEventRecord[]).map(eventFromRow),
    vectors: (
      vectors.all(row.pk) as { model: string; dimension: number; vector: Buffer | null }[]
    ).map((v) => ({
      model: v.model,
      dimension: v.dimension,
      vector: v.vector ? blobToVector(v.vector) : null,
    })),
  });
}

/** Streams full item records of a space (or all) in id order, one page per read. */
export async function* exportItems(
  read: PageReader,
  space: string | null,
): AsyncIterable<ItemExport> {
  let after = '';
  for (;;) {
    const page = read((db) => {
      const rows = db
        .prepare(
          `SELECT * FROM items WHERE id > ? ${space === null ? '' : 'AND space = ?'} ORDER BY id LIMIT ${PAGE}`,
        )
        .all(...(space === null ? [after] : [after, space])) as ItemRow[];
      return rows.map(itemExporter(db));
    });
    for (const record of page) yield record;
    if (page.length < PAGE) return;
    after = page[page.length - 1]!.item.id;
  }
}

/** Streams relations of a space (or all) in id order, one page per read. */
export async function* exportRelations(
  read: PageReader,
  space: string | null,
): AsyncIterable<RelationRecord> {
  let after = '';
  for (;;) {
    const rows = read(
      (db) =>
        db
          .prepare(
            `SELECT * FROM relations WHERE id > ? ${space === null ? '' : 'AND space = ?'} ORDER BY id LIMIT ${PAGE}`,
          )
          .all(...(space === null ? [after] : [after, space])) as RelationRecord[],
    );
    for (const row of rows) yield relationFromRow(row);
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** The dormant tables as the reader's connection sees them (created lazily by the capability). */
function dormantPages(read: PageReader): DormantPages {
  const count = `SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN (${DORMANT_TABLES.map(() => '?').join(', ')})`;
  return {
    tablesExist: async () =>
      read((db) => (db.prepare(count).get(...DORMANT_TABLES) as { n: number }).n) ===
      DORMANT_TABLES.length,
    page: async (table, space, after, limit) =>
      read((db) => sqliteDormantRows(db).page(table, space, after, limit)),
  };
}

/** What a snapshot reads through. */
function snapshotView(read: PageReader, at: number): SnapshotView {
  const dormant = dormantPages(read);
  return {
    at,
    items: (space) => exportItems(read, space),
    relations: (space) => exportRelations(read, space),
    lifecycle: (space) => exportLifecycleRows(read, space),
    dormantEvents: (space) => exportDormantEvents(dormant, space),
    dormantStates: (space) => exportDormantStates(dormant, space),
    sessions: (space) => exportSessionRows(read, space),
  };
}

/** What a snapshot borrows from the SQLite store. */
export interface SnapshotSource {
  path: string;
  /** The store's own connection: an in-memory store cannot be opened a second time. */
  db: SqliteDatabase;
  assertOpen(): void;
}

/** A page reader over one connection: open check first, driver failures as EngramErrors. */
function pageReader(source: SnapshotSource, db: SqliteDatabase): PageReader {
  return (fn) => {
    source.assertOpen();
    try {
      return fn(db);
    } catch (err) {
      if (err instanceof EngramError) throw err;
      throw storeError(err, source.path);
    }
  };
}

/**
 * Runs `read` inside one read transaction on a read-only connection of its own, closed after.
 * An in-memory store has only its own connection (and no other process): there each page is a
 * read of its own, as a plain export is.
 */
export async function snapshot<T>(
  source: SnapshotSource,
  read: (view: SnapshotView) => Promise<T>,
): Promise<T> {
  source.assertOpen();
  if (source.path === ':memory:')
    return read(snapshotView(pageReader(source, source.db), Date.now()));
  let db: SqliteDatabase;
  try {
    db = new Database(source.path, {
      readonly: true,
      fileMustExist: true,
      timeout: SNAPSHOT_BUSY_MS,
    });
  } catch (err) {
    throw storeError(err, source.path);
  }
  try {
    const reader = pageReader(source, db);
    reader((d) => {
      d.exec('BEGIN');
      // A deferred transaction takes its moment at its first read: take it now.
      d.prepare('SELECT count(*) FROM sqlite_master').get();
    });
    return await read(snapshotView(reader, Date.now()));
  } finally {
    // Closing ends the read transaction (nothing was written to commit).
    db.close();
  }
}
