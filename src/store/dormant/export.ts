/**
 * The dormant-recall telemetry of an export, read page by page in key order, written once for
 * every backend and every way of reading (the capability's own connection, or a snapshot's
 * transaction). A store without the tables (no evaluation yet) has nothing to export.
 */
import type { DormantEventRecord, DormantStateRecord } from '../dormant-store.js';
import type { DormantTable } from './flows.js';
import { eventFromRow, stateFromRow } from './rows.js';

/** Rows read per page of an export. */
const EXPORT_PAGE = 500;

/** How an export reads the dormant tables: whether they exist, and one page of rows. */
export interface DormantPages {
  /** True when both tables exist (an export never creates them). */
  tablesExist(): Promise<boolean>;
  /** Rows of a table (a space, or all with null) with keys after `after`, in key order. */
  page(table: DormantTable, space: string | null, after: string, limit: number): Promise<object[]>;
}

/** Names of the two dormant tables, for the existence checks of each backend. */
export const DORMANT_TABLES = ['dormant_recall_events', 'dormant_recall_state'] as const;

/** Streams the events of a space (or all) in id order. */
export async function* exportDormantEvents(
  pages: DormantPages,
  space: string | null,
): AsyncIterable<DormantEventRecord> {
  for await (const row of rows(pages, { name: 'dormant_recall_events', key: 'id' }, space))
    yield eventFromRow(row as DormantEventRecord);
}

/** Streams the state rows of a space (or all) in item id order. */
export async function* exportDormantStates(
  pages: DormantPages,
  space: string | null,
): AsyncIterable<DormantStateRecord> {
  for await (const row of rows(pages, { name: 'dormant_recall_state', key: 'item_id' }, space))
    yield stateFromRow(row as DormantStateRecord);
}

/** Keyset paging: stable while others write, and each page a short read. */
async function* rows(
  pages: DormantPages,
  table: DormantTable,
  space: string | null,
): AsyncIterable<object> {
  if (!(await pages.tablesExist())) return;
  let after = '';
  for (;;) {
    const page = await pages.page(table, space, after, EXPORT_PAGE);
    yield* page;
    if (page.length < EXPORT_PAGE) return;
    after = String((page[page.length - 1] as Record<string, unknown>)[table.key]);
  }
}
