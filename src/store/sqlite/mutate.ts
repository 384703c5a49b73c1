/** Applies a mutation plan inside the SQLite store's write transaction. */
import { EngramError } from '../../domain/errors.js';
import type { ItemRecord, RelationRecord } from '../../domain/records.js';
import { type ItemChange, type MutationPlan, PATCHABLE_COLUMNS as PATCHABLE } from '../store.js';
import {
  DERIVED_COLUMNS,
  itemColumns,
  itemFromRow,
  type ItemRow,
  relationFromRow,
} from './rows.js';
import type { SqliteStore } from './sqlite-store.js';

/** Reads the items, runs the plan, writes its changes; runs inside the caller's transaction. */
export function applyMutation(
  store: SqliteStore,
  space: string,
  ids: readonly string[],
  plan: MutationPlan,
): ItemRecord[] {
  const rows = new Map<string, ItemRow>();
  for (const id of ids) {
    const row = store.rowById(space, id);
    if (row) rows.set(id, row);
  }
  const items = new Map([...rows].map(([id, row]) => [id, itemFromRow(row)]));
  const relations = (
    store
      .prepared(
        'SELECT * FROM relations WHERE space = ? AND invalidated_at IS NULL AND (from_id IN (SELECT value FROM json_each(?)) OR to_id IN (SELECT value FROM json_each(?)))',
      )
      .all(space, JSON.stringify(ids), JSON.stringify(ids)) as RelationRecord[]
  ).map(relationFromRow);
  const mutation = plan({ items, relations });
  const model = store.publishedModelId();
  for (const change of mutation.changes) {
    const row = rows.get(change.id);
    if (!row)
      throw new EngramError(
        'INTERNAL',
        `mutation touched ${change.id}, which the plan was not given`,
      );
    applyChange(store, row, change, model);
  }
  for (const relation of mutation.addRelations ?? []) store.insertRelation(relation);
  for (const inv of mutation.invalidateRelations ?? []) {
    store
      .prepared(
        'UPDATE relations SET invalidated_at = ?, invalidated_reason = ? WHERE id = ? AND space = ? AND invalidated_at IS NULL',
      )
      .run(inv.at, inv.reason, inv.id, space);
  }
  return ids.flatMap((id) => {
    const row = rows.get(id);
    return row ? [itemFromRow(store.rowByPk(row.pk))] : [];
  });
}

function applyChange(
  store: SqliteStore,
  row: ItemRow,
  change: ItemChange,
  model: string | undefined,
): void {
  const patch: Record<string, unknown> = { ...(change.patch ?? {}) };
  if (change.version) {
    const version = row.version + 1;
    store.insertVersion(row.id, { ...change.version, version });
    Object.assign(patch, {
      title: change.version.title,
      body: change.version.body,
      tags: change.version.tags,
    });
    patch.version = version;
  }
  const cols = itemColumns(patch as Partial<ItemRecord>);
  const names = Object.keys(cols).filter(
    (n) => PATCHABLE.has(n) || DERIVED_COLUMNS.has(n) || n === 'version',
  );
  if (names.length > 0) {
    store
      .prepared(`UPDATE items SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE pk = @pk`)
      .run({ ...Object.fromEntries(names.map((n) => [n, cols[n]])), pk: row.pk });
  }
  if (change.statusEvent) store.insertEvent({ ...change.statusEvent, item_id: row.id });
  if (change.vector) store.writeVector(row.pk, change.vector, model);
}
