/**
 * Lifecycle records from the columns a store reads, once for both backends: each backend decodes
 * its own column types (SQLite's JSON text and 0/1 flags, PostgreSQL's arrays and booleans) and
 * hands the values here, where kind, status and source are typed and extra columns (the row key)
 * are left behind.
 */
import type { Kind, Status } from '../domain/types.js';
import type { DecayFacts, UseEventRecord, UseSource } from './lifecycle-store.js';

/** Decay facts as read: kind and status not yet checked, a null status meaning active. */
export type FactsColumns = Omit<DecayFacts, 'kind' | 'status'> & {
  kind: string;
  status: string | null;
};

/** A use event as read: its source not yet checked. */
export type UseColumns = Omit<UseEventRecord, 'source'> & { source: string };

/** The decay facts of one item; a null status reads as active. */
export function factsFromColumns(row: FactsColumns): DecayFacts {
  return {
    id: row.id,
    space: row.space,
    kind: row.kind as Kind,
    area: row.area,
    tags: row.tags,
    status: (row.status ?? 'active') as Status,
    pinned: row.pinned,
    importance: row.importance,
    strength: row.strength,
    base: row.base,
    created_at: row.created_at,
    last_revised_at: row.last_revised_at,
    use_count: row.use_count,
    last_used_at: row.last_used_at,
    last_restored_at: row.last_restored_at,
  };
}

/** One recorded use. */
export function useFromColumns(row: UseColumns): UseEventRecord {
  return {
    id: row.id,
    space: row.space,
    item_id: row.item_id,
    at: row.at,
    source: row.source as UseSource,
    conversation_id: row.conversation_id,
    actor: row.actor,
    context_tags: row.context_tags,
    context_area: row.context_area,
    cross_domain: row.cross_domain,
    base_before: row.base_before,
    base_after: row.base_after,
    strength_before: row.strength_before,
    strength_after: row.strength_after,
  };
}
