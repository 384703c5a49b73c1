/**
 * The persistence contract of dormant recall (§9.5), a capability a backend may offer beside the
 * Store. Two additive tables hold it — `dormant_recall_events` (the bounded review log) and
 * `dormant_recall_state` (at most one row per existing eligible memory: exposure times and
 * cooldown) — created lazily on the first evaluation or review, never by a migration. Neither
 * holds memory text, the query, a query hash, matching words, embeddings or explanations: only
 * ids, times, counts, scores and labels. Every method that writes runs in its own transaction,
 * apart from ordinary recall's writes.
 */
import type { ItemFilter } from '../domain/filter.js';
import type { Kind } from '../domain/types.js';

/** Feedback categories of §9.4. */
export const DORMANT_FEEDBACK = ['useful', 'irrelevant', 'dismissed'] as const;
/** One feedback category. */
export type DormantFeedback = (typeof DORMANT_FEEDBACK)[number];

/** How an evaluation ended: one candidate selected, none, or failed open (nothing selected). */
export type DormantOutcome = 'selected' | 'none' | 'failed';

/** One evaluation in the review log (timestamps in epoch milliseconds). */
export interface DormantEventRecord {
  id: string;
  space: string;
  /** When the evaluation ran. */
  at: number;
  /** Label of the selection algorithm and its scorer, e.g. `dormant-v1/exact-cosine/alignment`. */
  algorithm: string;
  /** Embedding model whose vectors were scanned, or null when none could be used. */
  model: string | null;
  outcome: DormantOutcome;
  /** Only the type of a failure (e.g. `relevance_check_failed`), never a message. */
  error_type: string | null;
  candidate_id: string | null;
  /** Version of the candidate that was scored (its content at selection). */
  candidate_version: number | null;
  /** Eligible candidates that entered the bounded heap (at most `candidate_limit`). */
  candidate_count: number;
  /** Of those, how many reached `min_relevance` raw cosine. */
  above_floor: number;
  /** How many got the separate relevance check. */
  checked: number;
  /** How many reached `min_rerank_score`. */
  passed: number;
  /** Raw cosine of the selected candidate. */
  raw_relevance: number | null;
  /** Relevance-check score of the selected candidate (null when no check score exists). */
  relevance_score: number | null;
  /** The bounded dormancy bonus added in ranking. */
  bonus: number | null;
  dormant_days: number | null;
  /** Distinct query words that also occur in the candidate (a count, never the words). */
  overlap_terms: number | null;
  /** Distinct content words of the query (a count). */
  query_terms: number | null;
  retrieved_at: number | null;
  shown_at: number | null;
  feedback: DormantFeedback | null;
  feedback_at: number | null;
  duration_ms: number;
}

/** Dormant-recall state of one memory. */
export interface DormantStateRecord {
  space: string;
  item_id: string;
  retrieved_at: number | null;
  shown_at: number | null;
  /** Last *useful* feedback: dormancy restarts from here. */
  used_at: number | null;
  /** The memory is not a candidate before this time. */
  cooldown_until: number | null;
  updated_at: number;
}

/** Which memories are eligible, beyond the search's own filter (the store adds the rest). */
export interface DormantEligibility {
  /** Kinds of the retrieval profile (already intersected with the search's kinds). */
  kinds: readonly Kind[];
  /** Dormancy must have started at or before this time; null skips the dormancy rule (calibrate). */
  dormantBefore: number | null;
  /** Time for the cooldown rule; null skips it (calibrate). */
  now: number | null;
}

/** An exact dense scan over current eligible stored vectors (§9.2). */
export interface DormantScanRequest {
  /** The search's filter; the store forces active (or legacy null) status itself. */
  filter: ItemFilter;
  eligibility: DormantEligibility;
  model: string;
  /** Unit-length query vector. */
  vector: Float32Array;
  /** Ids left out (those ordinary recall returned). */
  exclude: readonly string[];
  /** Heap size (`candidate_limit`). */
  limit: number;
  /**
   * Awaited between pages of the scan: resolves when the scan may go on (the service holds it
   * while an ordinary recall runs). Default: one turn of the event loop.
   */
  pause?: () => Promise<void>;
}

/** One scanned candidate. */
export interface DormantScanHit {
  id: string;
  /** Raw cosine with the query (stored vectors are normalised before the product). */
  cosine: number;
  version: number;
  /** Start of dormancy: latest of creation, last ordinary access and last useful feedback. */
  dormant_since: number;
}

/** A scored survivor, in ranked order, with the content version that was scored. */
export interface DormantRankedCandidate {
  id: string;
  version: number;
  body_hash: string;
  raw_relevance: number;
  relevance_score: number;
  bonus: number;
  dormant_days: number;
  overlap_terms: number;
}

/** Retention of the review log, applied on evaluation and review. */
export interface DormantRetention {
  maxEvents: number;
  /** Events older than this are deleted. */
  before: number;
}

/** What one evaluation asks the store to record, atomically and serialised across evaluators. */
export interface DormantRecordRequest {
  /** The event without the per-candidate fields; the store fills them for the one it selects. */
  event: Omit<
    DormantEventRecord,
    | 'candidate_id'
    | 'candidate_version'
    | 'raw_relevance'
    | 'relevance_score'
    | 'bonus'
    | 'dormant_days'
    | 'overlap_terms'
    | 'retrieved_at'
    | 'shown_at'
    | 'feedback'
    | 'feedback_at'
  >;
  /**
   * Survivors best first. The store selects the first whose content is unchanged (same version
   * and body hash) and that is still eligible, dormant and out of cooldown; none when none is.
   */
  ranked: readonly DormantRankedCandidate[];
  eligibility: DormantEligibility & { dormantBefore: number; now: number };
  /** Cooldown end for the selected memory. */
  cooldownUntil: number;
  retention: DormantRetention;
}

/** The dormant-recall persistence capability. */
export interface DormantStore {
  /** Exact top-`limit` cosine scan over eligible stored vectors; never an approximate index. */
  scan(request: DormantScanRequest): Promise<{ hits: DormantScanHit[]; scanned: number }>;
  /** Records one evaluation (selecting at most one candidate) and prunes; null when the lock wait ran out. */
  record(request: DormantRecordRequest): Promise<DormantEventRecord | null>;
  /** Newest events of a space first, after pruning history and stale state. */
  review(
    space: string,
    limit: number,
    retention: DormantRetention,
    kinds: readonly Kind[],
  ): Promise<DormantEventRecord[]>;
  /**
   * Prunes the log (age, count) and the state of memories that are gone or no longer eligible;
   * false when another writer held the lock (pruning waits for the next operation).
   */
  prune(space: string, retention: DormantRetention, kinds: readonly Kind[]): Promise<boolean>;
  /** One event, or undefined. */
  event(space: string, id: string): Promise<DormantEventRecord | undefined>;
  /** The state of one memory, or undefined. */
  state(space: string, itemId: string): Promise<DormantStateRecord | undefined>;
  /**
   * Marks an event shown (first time only) and the memory's `shown_at` and cooldown (when the
   * memory is still eligible). Returns the updated event.
   */
  markShown(
    space: string,
    eventId: string,
    at: number,
    cooldownUntil: number,
    kinds: readonly Kind[],
  ): Promise<DormantEventRecord | undefined>;
  /**
   * Records feedback: the first category sticks (the same again changes nothing; another is a
   * CONFLICT). Sets the memory's cooldown, and `used_at` for *useful*, when it is still eligible.
   */
  feedback(
    space: string,
    eventId: string,
    category: DormantFeedback,
    at: number,
    cooldownUntil: number,
    kinds: readonly Kind[],
  ): Promise<{ event: DormantEventRecord; changed: boolean } | undefined>;
  /** Streams events and state rows for export (a space, or all with null). */
  exportEvents(space: string | null): AsyncIterable<DormantEventRecord>;
  exportStates(space: string | null): AsyncIterable<DormantStateRecord>;
  /** Imports events (an existing id is left alone) and state rows (an existing row is kept). */
  importEvents(records: readonly DormantEventRecord[]): Promise<('imported' | 'exists')[]>;
  importStates(records: readonly DormantStateRecord[]): Promise<('imported' | 'exists')[]>;
}
