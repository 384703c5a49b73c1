/**
 * Atomic item writes of the PostgreSQL store: new items (an exact duplicate returns the existing
 * one), mutations, imports and access accounting, each in one transaction. Bulk inserts are
 * reported to the statistics refresh so the planner learns of them early.
 */
import type { ItemExport, ItemRecord, RelationRecord } from '../../domain/records.js';
import {
  type AccessCount,
  type CreateOutcome,
  type ImportOutcome,
  type ItemDraft,
  type MutationPlan,
  oneAccessEach,
} from '../store.js';
import { recordAccess as recordAccessRows } from './model.js';
import type { PgStoreContext } from './store-context.js';
import * as transfer from './transfer.js';
import * as writes from './writes.js';

/** Inserts drafts with their first versions; the outcome says which ones already existed. */
export async function createItems(
  ctx: PgStoreContext,
  drafts: readonly ItemDraft[],
): Promise<CreateOutcome[]> {
  if (drafts.length === 0) return [];
  drafts.forEach((d, i) =>
    writes.assertStorableItem(d.item, drafts.length > 1 ? `items[${i}].` : ''),
  );
  const outcomes = await ctx.db.transaction((tx) => writes.createItems(tx, drafts));
  ctx.statistics.grew(outcomes.filter((o) => o.created).length);
  return outcomes;
}

/** Applies the mutation a plan decides from the current items, in one transaction. */
export function mutate(
  ctx: PgStoreContext,
  space: string,
  ids: readonly string[],
  plan: MutationPlan,
): Promise<ItemRecord[]> {
  return ctx.db.transaction((tx) => writes.applyMutation(tx, space, ids, plan));
}

/** Imports exported items (with their history and vectors), in one transaction. */
export async function importItems(
  ctx: PgStoreContext,
  records: readonly ItemExport[],
): Promise<ImportOutcome[]> {
  if (records.length === 0) return [];
  const outcomes = await ctx.db.transaction((tx) => transfer.importItems(tx, records));
  ctx.statistics.grew(outcomes.filter((o) => o === 'imported').length);
  return outcomes;
}

/** Imports exported relations, in one transaction. */
export function importRelations(
  ctx: PgStoreContext,
  records: readonly RelationRecord[],
): Promise<ImportOutcome[]> {
  if (records.length === 0) return Promise.resolve([]);
  return ctx.db.transaction((tx) => transfer.importRelations(tx, records));
}

/** Counts one access to each distinct item. */
export function recordAccess(
  ctx: PgStoreContext,
  space: string,
  ids: readonly string[],
  at: number,
): Promise<void> {
  return recordAccessCounts(ctx, space, oneAccessEach(ids, at));
}

/** Adds each entry's accesses to its item (the latest access time kept). */
export async function recordAccessCounts(
  ctx: PgStoreContext,
  space: string,
  counts: readonly AccessCount[],
): Promise<void> {
  if (counts.length === 0) return;
  // One statement (it locks its rows in key order): autocommit spares recall two round trips.
  await recordAccessRows({ query: (sql, params) => ctx.db.statement(sql, params) }, space, counts);
}
