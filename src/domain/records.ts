/**
 * Records: the domain shapes as the store keeps them (times in epoch milliseconds), and the full
 * record of one item that export and import carry.
 */
import type { Memory, Relation, StatusEvent, VectorState, Version } from './types.js';

/**
 * A caller-facing shape (domain/types.ts) with its ISO 8601 times held as epoch milliseconds, as
 * the store keeps them: the records are declared once, from the domain types.
 */
export type EpochTimes<T, Times extends keyof T> = Omit<T, Times> & {
  [K in Times]: null extends T[K] ? number | null : number;
};

/** A stored item, as the store holds it (timestamps in epoch milliseconds). */
export interface ItemRecord
  extends EpochTimes<
    Omit<Memory, 'vector'>,
    'created_at' | 'updated_at' | 'last_accessed_at' | 'last_used_at'
  > {
  body_hash: string;
  vector_state: VectorState;
}

/** A stored version. */
export type VersionRecord = EpochTimes<Version, 'created_at'>;

/** A stored relation. */
export type RelationRecord = EpochTimes<Relation, 'created_at' | 'invalidated_at'>;

/** A stored status event. */
export type StatusEventRecord = EpochTimes<StatusEvent, 'at'>;

/** Full record of one item for export/import (lossless). */
export interface ItemExport {
  item: ItemRecord;
  versions: VersionRecord[];
  status_events: StatusEventRecord[];
  vectors: { model: string; dimension: number; vector: Float32Array | null }[];
}

/** The published embedding model (§8). */
export interface ModelRecord {
  id: string;
  dimension: number;
  published_at: number;
}
