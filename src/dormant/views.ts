/** The shapes dormant recall returns to callers (ISO timestamps), and the inspect evidence text. */
import type { Memory } from '../domain/types.js';
import type { DormantEventRecord } from '../store/dormant-store.js';

/** Event fields that are times: epoch milliseconds in the store, ISO 8601 for callers. */
type EventTime = 'at' | 'retrieved_at' | 'shown_at' | 'feedback_at';

/** One review-log event as callers see it: metadata only, never text (nor the space). */
export interface DormantEvent extends Omit<DormantEventRecord, 'space' | EventTime> {
  at: string;
  retrieved_at: string | null;
  shown_at: string | null;
  feedback_at: string | null;
}

/** What `dormant review` returns. */
export interface DormantReview {
  space: string;
  mode: 'shadow' | 'off';
  events: DormantEvent[];
}

/** What `dormant inspect` returns. */
export interface DormantInspection {
  event: DormantEvent;
  /** The memory's current content when it is still eligible, else null. */
  memory: Memory | null;
  eligible: boolean;
  /** Why no memory is shown: `no_candidate`, `not_found`, `status:<status>`, `kind:<kind>`. */
  reason: string | null;
  /** True when the memory was revised after it was scored (the scores describe the old version). */
  changed_since_selection: boolean;
  evidence: {
    literal_overlap: boolean | null;
    summary: string;
  };
}

/** What `dormant feedback` returns. */
export interface DormantFeedbackResult {
  event: DormantEvent;
  /** False when the same category was given before (idempotent repeat). */
  changed: boolean;
  /** End of the memory's pause, when it is still eligible. */
  cooldown_until: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A stored event as callers see it. */
export function toEvent(r: DormantEventRecord): DormantEvent {
  return {
    id: r.id,
    at: iso(r.at)!,
    algorithm: r.algorithm,
    model: r.model,
    outcome: r.outcome,
    error_type: r.error_type,
    candidate_id: r.candidate_id,
    candidate_version: r.candidate_version,
    candidate_count: r.candidate_count,
    above_floor: r.above_floor,
    checked: r.checked,
    passed: r.passed,
    raw_relevance: r.raw_relevance,
    relevance_score: r.relevance_score,
    bonus: r.bonus,
    dormant_days: r.dormant_days,
    overlap_terms: r.overlap_terms,
    query_terms: r.query_terms,
    retrieved_at: iso(r.retrieved_at),
    shown_at: iso(r.shown_at),
    feedback: r.feedback,
    feedback_at: iso(r.feedback_at),
    duration_ms: r.duration_ms,
  };
}

const f3 = (x: number) => x.toFixed(3);

/**
 * Describes why a memory was selected, from the stored numbers only (the query is not kept). It
 * says what the scores mean and explicitly not whether what the memory describes still holds.
 */
export function evidenceSummary(
  e: DormantEventRecord,
  thresholds: { min_relevance: number; min_rerank_score: number },
): string {
  if (e.candidate_id === null)
    return e.outcome === 'failed'
      ? `The evaluation failed open (${e.error_type ?? 'unknown'}); nothing was selected.`
      : `No memory qualified: ${e.candidate_count} eligible dormant candidates, ${e.above_floor} reached the raw-cosine floor, ${e.passed} of ${e.checked} checked passed the relevance check.`;
  const overlap =
    e.overlap_terms === null
      ? 'Literal word overlap was not recorded.'
      : e.overlap_terms > 0
        ? `Literal overlap: ${e.overlap_terms} of the search's ${e.query_terms ?? '?'} content words also occur in the memory.`
        : "No literal overlap: none of the search's content words occur in the memory, so the connection is semantic only.";
  const scorer = e.algorithm.split('/').pop() ?? 'relevance';
  return [
    `Selected as a possibly relevant memory that had not been used for ${Math.floor(e.dormant_days ?? 0)} days.`,
    `Raw embedding cosine ${f3(e.raw_relevance ?? 0)} (floor ${thresholds.min_relevance}); ${scorer} relevance check ${f3(e.relevance_score ?? 0)} (floor ${thresholds.min_rerank_score}); dormancy bonus ${f3(e.bonus ?? 0)}.`,
    overlap,
    'These scores measure similarity to the search, not truth: they do not say whether what the memory describes still applies or was resolved since.',
  ].join(' ');
}
