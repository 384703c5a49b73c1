/**
 * The pure rules of dormant recall (§9.2): which kinds form the retrieval profile, how long a
 * memory has been dormant, the bounded bonus, deterministic ranking, and literal-overlap counting.
 * No I/O here, so every rule is testable on its own.
 */
import type { Config } from '../../config/schema.js';
import { EngramError } from '../../domain/errors.js';
import { STOP_WORDS, wordTokens } from '../../domain/text.js';
import type { Kind } from '../../domain/types.js';
import type { DormantEventRecord, DormantFeedback } from '../dormant-store.js';

/** One day in milliseconds. */
export const DAY_MS = 86_400_000;

/**
 * The fact/procedure/note-like retrieval profile: kinds that state lasting knowledge a later
 * search can still use. `episode` (a record of one past conversation or event) and `working`
 * (scratch state of a task, fast-decaying by design, §7.1) are left out: an old episode or stale
 * working note resurfacing is the noise this experiment must not produce, and both are already
 * reachable through ordinary recall when a search asks for them.
 */
export const DORMANT_KINDS: readonly Kind[] = Object.freeze([
  'fact',
  'preference',
  'rule',
  'skill',
  'procedure',
  'note',
  'identity',
]);

/** The profile kinds a search may consider: all of them, or those the search also asks for. */
export function profileKinds(requested: readonly Kind[] | undefined): Kind[] {
  if (!requested?.length) return [...DORMANT_KINDS];
  const wanted = new Set(requested);
  return DORMANT_KINDS.filter((k) => wanted.has(k));
}

/** Whole and fractional days a memory has been dormant at `now`. */
export function dormantDays(dormantSince: number, now: number): number {
  return Math.max(0, (now - dormantSince) / DAY_MS);
}

/**
 * The bounded dormancy bonus: `max_bonus * clamp(importance, 0, 1) * min(1, days / (4 *
 * dormancy_days))`. It never exceeds `max_bonus`, so it only reorders survivors whose relevance
 * differs by less than that; it is never added to the raw cosine the floor is checked against.
 */
export function dormancyBonus(
  importance: number,
  days: number,
  settings: Pick<Config['dormant_recall'], 'max_bonus' | 'dormancy_days'>,
): number {
  const weight = Math.min(1, Math.max(0, importance));
  const age = Math.min(1, Math.max(0, days) / (4 * settings.dormancy_days));
  return settings.max_bonus * weight * age;
}

/** What ranking compares. */
export interface RankInput {
  id: string;
  /** The relevance-check score (the "relevance" of the ranking formula). */
  relevance_score: number;
  raw_relevance: number;
  bonus: number;
}

/**
 * Ranking among survivors: relevance-check score + bonus, highest first; exact ties go to the
 * higher raw cosine, then the smaller memory id, so the order never depends on scan order.
 */
export function compareRanked(a: RankInput, b: RankInput): number {
  const sa = a.relevance_score + a.bonus;
  const sb = b.relevance_score + b.bonus;
  if (sa !== sb) return sb - sa;
  if (a.raw_relevance !== b.raw_relevance) return b.raw_relevance - a.raw_relevance;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Distinct content words of a text (lowercased, stop-words dropped). */
export function contentWords(text: string): Set<string> {
  return new Set(wordTokens(text).filter((t) => t.length > 1 && !STOP_WORDS.has(t)));
}

/** How many of the query's content words occur in the memory's text: evidence, not a requirement. */
export function overlapCount(queryWords: ReadonlySet<string>, memoryText: string): number {
  const words = contentWords(memoryText);
  let n = 0;
  for (const w of queryWords) if (words.has(w)) n++;
  return n;
}

/** Feedback rule of §9.4: true when it should be written, false when it repeats; else CONFLICT. */
export function checkFeedback(event: DormantEventRecord, category: DormantFeedback): boolean {
  if (event.candidate_id === null)
    throw new EngramError(
      'CONFLICT',
      `dormant event ${event.id} selected no memory; there is nothing to give feedback on`,
      { id: event.id, field: 'event_id', rule: 'event with a candidate' },
    );
  if (event.feedback === null) return true;
  if (event.feedback === category) return false;
  throw new EngramError(
    'CONFLICT',
    `dormant event ${event.id} already has feedback "${event.feedback}"; one category per event`,
    { id: event.id, field: 'category', rule: `already ${event.feedback}` },
  );
}
