/**
 * Export, import and integrity checks of the PostgreSQL store. Export pages through items in id
 * order and fetches each page's versions, events and vectors in one query per table; import
 * writes a whole batch with one statement per table. Both keep every field exactly: json columns
 * keep key order, vectors keep every float32 bit. A snapshot runs those reads inside one
 * REPEATABLE READ READ ONLY transaction, so an export or a backup is one moment of the store.
 */
import type {
  ItemExport,
  ItemRecord,
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
import type { ImportOutcome, SnapshotView } from '../store.js';
import type { PgDatabase, Queryable } from './database.js';
import { pgDormantRows } from './dormant-rows.js';
import { exportLifecycleRows } from './lifecycle-transfer.js';
import { PG_LATEST_SCHEMA_VERSION } from './migrations.js';
import {
  eventFromRow,
  ITEM_COLUMNS,
  itemFromRow,
  parseVector,
  type PgItemRow,
  relationFromRow,
  versionFromRow,
} from './rows.js';
import { exportSessionRows } from './session-store.js';
import {
  assertStorableItem,
  insertEvents,
  insertItems,
  insertRelations,
  insertVersions,
  publishedModelId,
  upsertVectors,
} from './writes.js';

const PAGE = 500;

function group<T>(rows: readonly T[], key: (row: T) => string | number): Map<string | number, T[]> {
  const out = new Map<string | number, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}

async function exportPage(db: Queryable, rows: PgItemRow[]): Promise<ItemExport[]> {
  const ids = rows.map((r) => r.id);
  const pks = rows.map((r) => r.pk);
  const [versions, events, vectors] = await Promise.all([
    db.query<VersionRecord>(
      'SELECT * FROM versions WHERE item_id = ANY($1::text[]) ORDER BY item_id, version',
      [ids],
    ),
    db.query<StatusEventRecord>(
      'SELECT * FROM status_events WHERE item_id = ANY($1::text[]) ORDER BY item_id, at, id',
      [ids],
    ),
    db.query<{ item_pk: number; model: string; dimension: number; vec: string | null }>(
      'SELECT item_pk, model, dimension, embedding::text AS vec FROM vectors WHERE item_pk = ANY($1::int8[]) ORDER BY item_pk, model',
      [pks],
    ),
  ]);
  const versionsOf = group(versions, (v) => v.item_id);
  const eventsOf = group(events, (e) => e.item_id);
  const vectorsOf = group(vectors, (v) => v.item_pk);
  return rows.map((row) => ({
    item: itemFromRow(row),
    versions: (versionsOf.get(row.id) ?? []).map(versionFromRow),
    status_events: (eventsOf.get(row.id) ?? []).map(eventFromRow),
    vectors: (vectorsOf.get(row.pk) ?? []).map((v) => ({
      model: v.model,
      dimension: v.dimension,
      vector: v.vec === null ? null : parseVector(v.vec),
    })),
  }));
}

/** Streams full item records of a space (or all) in id order, one page at a time. */
export async function* exportItems(db: Queryable, space: string | null): AsyncIterable<ItemExport> {
  let after = '';
  for (;;) {
    const rows = await db.query<PgItemRow>(
      `SELECT ${ITEM_COLUMNS} FROM items WHERE id > $1 AND ($2::text IS NULL OR space = $2) ORDER BY id LIMIT ${PAGE}`,
      [after, space],
    );
    for (const record of await exportPage(db, rows)) yield record;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** Streams relations of a space (or all) in id order. */
export async function* exportRelations(
  db: Queryable,
  space: string | null,
): AsyncIterable<RelationRecord> {
  let after = '';
  for (;;) {
    const rows = await db.query<RelationRecord>(
      `SELECT * FROM relations WHERE id > $1 AND ($2::text IS NULL OR space = $2) ORDER BY id LIMIT ${PAGE}`,
      [after, space],
    );
    for (const row of rows) yield relationFromRow(row);
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** The slice of a driver connection a snapshot uses. */
interface SnapshotClient {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** The snapshot's connection as a Queryable; concurrent callers (an export page) take turns. */
function onClient(client: SnapshotClient): Queryable {
  let turn: Promise<unknown> = Promise.resolve();
  return {
    query<R>(sql: string, params: unknown[] = []) {
      const run = turn.then(() => client.query(sql, params));
      turn = run.catch(() => undefined);
      return run.then((result) => result.rows as R[]);
    },
  };
}

/** The dormant tables as the snapshot sees them (the capability creates them lazily). */
function dormantPages(q: Queryable): DormantPages {
  return {
    async tablesExist() {
      const [row] = await q.query<{ n: number }>(
        'SELECT count(*)::int4 AS n FROM pg_tables WHERE schemaname = current_schema() AND tablename = ANY($1::text[])',
        [DORMANT_TABLES],
      );
      return row?.n === DORMANT_TABLES.length;
    },
    page: (table, space, after, limit) => pgDormantRows(q).page(table, space, after, limit),
  };
}

/** What one snapshot transaction reads through. */
function snapshotView(q: Queryable, at: number): SnapshotView {
  const dormant = dormantPages(q);
  return {
    at,
    items: (space) => exportItems(q, space),
    relations: (space) => exportRelations(q, space),
    lifecycle: (space) => exportLifecycleRows(q, space),
    dormantEvents: (space) => exportDormantEvents(dormant, space),
    dormantStates: (space) => exportDormantStates(dormant, space),
    sessions: (space) => exportSessionRows(q, space),
  };
}

/**
 * Runs `read` inside one REPEATABLE READ READ ONLY transaction on a connection of its own (outside
 * the pool and its statement timeout, so a long export holds no pooled connection); writers
 * carry on meanwhile. Its moment is the transaction's clock.
 */
export function snapshot<T>(db: PgDatabase, read: (view: SnapshotView) => Promise<T>): Promise<T> {
  return db.dedicated(async (client) => {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const q = onClient(client);
      const [clock] = await q.query<{ at: number }>(
        'SELECT (extract(epoch FROM transaction_timestamp()) * 1000)::int8 AS at',
      );
      const result = await read(snapshotView(q, clock?.at ?? Date.now()));
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  });
}

/** The vector state an imported item has: ready/empty with a vector of the published model. */
function importedState(record: ItemExport, model: string | undefined): ItemRecord['vector_state'] {
  const own = record.vectors.find((v) => v.model === model);
  if (!own) return 'pending';
  return own.vector ? 'ready' : 'empty';
}

/** Imports full records in one transaction; ids that exist (or repeat in the batch) are left alone. */
export async function importItems(
  tx: Queryable,
  records: readonly ItemExport[],
): Promise<ImportOutcome[]> {
  records.forEach((r, i) => assertStorableItem(r.item, `records[${i}].item.`));
  const model = await publishedModelId(tx);
  const inserted = await insertItems(
    tx,
    records.map((r) => ({ ...r.item, vector_state: importedState(r, model) })),
    'skip',
  );
  const pkOf = new Map(inserted.map((r) => [r.id, r.pk]));
  const taken = new Set<string>();
  const fresh = records.filter((r) => {
    if (!pkOf.has(r.item.id) || taken.has(r.item.id)) return false;
    taken.add(r.item.id);
    return true;
  });
  await insertVersions(
    tx,
    fresh.flatMap((r) => r.versions.map((v) => ({ ...v, item_id: r.item.id }))),
  );
  await insertEvents(
    tx,
    fresh.flatMap((r) => r.status_events.map((e) => ({ ...e, item_id: r.item.id }))),
  );
  await upsertVectors(
    tx,
    fresh.flatMap((r) =>
      r.vectors.map((v) => ({ item_pk: pkOf.get(r.item.id)!, model: v.model, vector: v.vector })),
    ),
  );
  const first = new Set(fresh);
  return records.map((r) => (first.has(r) ? 'imported' : 'exists'));
}

/** Imports relations; ids that exist are left alone. */
export async function importRelations(
  tx: Queryable,
  records: readonly RelationRecord[],
): Promise<ImportOutcome[]> {
  const inserted = await insertRelations(tx, records, 'skip');
  const seen = new Set<string>();
  return records.map((r) => {
    if (!inserted.has(r.id) || seen.has(r.id)) return 'exists';
    seen.add(r.id);
    return 'imported';
  });
}

/** Structural checks: migrations, pgvector, valid indexes, vectors and their dimensions, orphans. */
export async function integrityProblems(db: PgDatabase, schema: string): Promise<string[]> {
  const problems: string[] = [];
  const [version] = await db.query<{ v: number }>(
    'SELECT max(version) AS v FROM schema_migrations',
  );
  if ((version?.v ?? 0) < PG_LATEST_SCHEMA_VERSION)
    problems.push(
      `schema is at version ${version?.v ?? 0}, engram needs ${PG_LATEST_SCHEMA_VERSION}`,
    );
  const [vector] = await db.query("SELECT 1 FROM pg_extension WHERE extname = 'vector'");
  if (!vector) problems.push('the pgvector extension is not enabled');
  const invalid = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND NOT (x.indisvalid AND x.indisready)
  AND NOT EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.index_relid = x.indexrelid)`,
    [schema],
  );
  for (const row of invalid) problems.push(`index ${row.name} is not valid; REINDEX it`);
  const [counts] = await db.query<{ dims: number; orphans: number }>(
    `SELECT
  (SELECT count(*) FROM vectors WHERE embedding IS NOT NULL AND vector_dims(embedding) <> dimension) AS dims,
  (SELECT count(*) FROM versions v WHERE NOT EXISTS (SELECT 1 FROM items i WHERE i.id = v.item_id)) AS orphans`,
  );
  if (counts && counts.dims > 0)
    problems.push(`${counts.dims} vectors disagree with their recorded dimension`);
  if (counts && counts.orphans > 0) problems.push(`${counts.orphans} versions belong to no item`);
  return problems;
}
