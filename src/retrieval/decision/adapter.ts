/**
 * Decision adapters (§5.1): what judges, for the second stage, how directly each pooled candidate
 * answers the query, on an absolute 0..1 scale. The stage (decision-stage.ts) runs one adapter
 * under one deadline, all or nothing; an adapter only judges.
 */
import type { RelevanceDocument } from '../rerank/relevance.js';

/** Why the stage fell back to the ordinary hits (§5.1). */
export const FALLBACK_REASONS = [
  'adapter_unregistered',
  'unsupported_capabilities',
  'adapter_error',
  'deadline_expired',
  'missing_credentials',
] as const;
/** A fallback reason. */
export type FallbackReason = (typeof FALLBACK_REASONS)[number];

/** An error an adapter throws to name its fallback reason (others count as `adapter_error`). */
export class DecisionError extends Error {
  constructor(
    readonly reason: FallbackReason,
    message: string,
  ) {
    super(message);
    this.name = 'DecisionError';
  }
}

/** A candidate as a judge reads it: its text, its context, and where the ordinary order put it. */
export interface JudgedDocument extends RelevanceDocument {
  /** 0-based place in the ordinary (first-stage) order; absent for a candidate a source added. */
  position?: number;
}

/** Judges candidates independently: one relevance in 0..1 per document, in the order given. */
export interface DecisionAdapter {
  /** The adapter's name as configured (`alignment`, `cross-encoder`, `openai-compatible`). */
  readonly name: string;
  /**
   * Why it cannot judge at all right now, without trying (e.g. `missing_credentials`), or null.
   * Cheap: called on every search that would apply the stage.
   */
  unavailable(): { reason: FallbackReason; message: string } | null;
  /** Judges every document; rejects (or honours `signal`) rather than returning a partial list. */
  judge(
    query: string,
    documents: readonly JudgedDocument[],
    signal: AbortSignal,
  ): Promise<number[]>;
  /**
   * Capability: the probability (0..1) that `later` contradicts `earlier`, for automatic conflict
   * judgement in consolidation (§10); adapters without it never judge conflicts.
   */
  contradicts?(earlier: string, later: string, signal: AbortSignal): Promise<number>;
}
