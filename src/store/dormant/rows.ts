/**
 * Backend-neutral row mapping of dormant recall: the event columns, records from the rows a
 * driver returns (PostgreSQL hands 64-bit integers back as decimal strings, SQLite as numbers),
 * and the pure rules a backend's transaction applies to them.
 */
import type { Kind } from '../../domain/types.js';
import type {
  DormantEventRecord,
  DormantRankedCandidate,
  DormantRecordRequest,
  DormantStateRecord,
} from '../dormant-store.js';

/** An integer column as a driver returns it: a number, or a decimal string for a 64-bit one. */
export type DriverInt = number | string;

/** Columns of an event row, in table and insert order. */
export const DORMANT_EVENT_COLUMNS = [
  'id',
  'space',
  'at',
  'algorithm',
  'model',
  'outcome',
  'error_type',
  'candidate_id',
  'candidate_version',
  'candidate_count',
  'above_floor',
  'checked',
  'passed',
  'raw_relevance',
  'relevance_score',
  'bonus',
  'dormant_days',
  'overlap_terms',
  'query_terms',
  'retrieved_at',
  'shown_at',
  'feedback',
  'feedback_at',
  'duration_ms',
] as const satisfies readonly (keyof DormantEventRecord)[];

/** Columns of a state row, in table and insert order. */
export const DORMANT_STATE_COLUMNS = [
  'space',
  'item_id',
  'retrieved_at',
  'shown_at',
  'used_at',
  'cooldown_until',
  'updated_at',
] as const satisfies readonly (keyof DormantStateRecord)[];

/** Event columns that hold epoch-millisecond times (64-bit integers). */
const EVENT_TIMES = ['at', 'retrieved_at', 'shown_at', 'feedback_at'] as const;

const toInt = (v: DriverInt | null) => (v === null ? null : Number(v));

/** An event row as a record. */
export function eventFromRow(row: DormantEventRecord): DormantEventRecord {
  const out = { ...row };
  for (const key of EVENT_TIMES)
    if (out[key] !== null) (out as Record<string, unknown>)[key] = Number(out[key]);
  return out;
}

/** A state row as a record. */
export function stateFromRow(row: DormantStateRecord): DormantStateRecord {
  return {
    space: row.space,
    item_id: row.item_id,
    retrieved_at: toInt(row.retrieved_at),
    shown_at: toInt(row.shown_at),
    used_at: toInt(row.used_at),
    cooldown_until: toInt(row.cooldown_until),
    updated_at: Number(row.updated_at),
  };
}

/** A scored candidate's memory as it is now, read inside the recording transaction. */
export interface DormantCandidateRow {
  version: number;
  body_hash: string;
  status: string | null;
  kind: string;
  /** Start of dormancy (latest of creation, last ordinary access, last useful feedback). */
  since: DriverInt;
  cooldown_until: DriverInt | null;
}

/**
 * True when a scored candidate may still be chosen: unchanged content (version and body hash),
 * still active and of a profile kind, still dormant and out of cooldown.
 */
export function stillSelectable(
  row: DormantCandidateRow | undefined,
  request: DormantRecordRequest,
  candidate: DormantRankedCandidate,
): boolean {
  const e = request.eligibility;
  return (
    row !== undefined &&
    row.version === candidate.version &&
    row.body_hash === candidate.body_hash &&
    (row.status === null || row.status === 'active') &&
    e.kinds.includes(row.kind as Kind) &&
    Number(row.since) <= e.dormantBefore &&
    (row.cooldown_until === null || Number(row.cooldown_until) <= e.now)
  );
}

/** The event an evaluation records, with the per-candidate fields of the chosen one (if any). */
export function recordedEvent(
  request: DormantRecordRequest,
  chosen: DormantRankedCandidate | undefined,
): DormantEventRecord {
  return {
    ...request.event,
    outcome: chosen ? 'selected' : request.event.outcome === 'failed' ? 'failed' : 'none',
    candidate_id: chosen?.id ?? null,
    candidate_version: chosen?.version ?? null,
    raw_relevance: chosen?.raw_relevance ?? null,
    relevance_score: chosen?.relevance_score ?? null,
    bonus: chosen?.bonus ?? null,
    dormant_days: chosen?.dormant_days ?? null,
    overlap_terms: chosen?.overlap_terms ?? null,
    retrieved_at: chosen ? request.eligibility.now : null,
    shown_at: null,
    feedback: null,
    feedback_at: null,
  };
}
