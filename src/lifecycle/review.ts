/**
 * Review (§7.4): live items whose current strength sits in the review window and that matter
 * (importance or use) get a priority, so a person or agent can reinforce, revise or let them go
 * before decay archives them. The priority, on 0..1, is
 *
 *   priority = 0.5 * importance + 0.3 * use + 0.2 * urgency
 *   use      = min(1, ln(1 + use_count) / ln(11))            (10 uses saturate)
 *   urgency  = (window_high - strength) / (window_high - window_low)   (1 at the low edge)
 */
import { EngramError, notFound } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { Kind, Status } from '../domain/types.js';
import type { DecayFacts } from '../store/lifecycle-store.js';
import type { MutationPlan } from '../store/store.js';
import { decayRate, lastReinforced, type LifecycleConfig, strengthAt } from './decay.js';

/** Review actions. */
export const REVIEW_ACTIONS = ['reinforce', 'revise', 'let_go'] as const;
/** One review action. */
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

/** An item waiting for review. */
export interface ReviewEntry {
  id: string;
  space: string;
  kind: Kind;
  area: string;
  status: Status;
  strength: number;
  importance: number;
  use_count: number;
  last_used_at: string | null;
  last_reinforced_at: string;
  /** Days until decay takes it below the archive threshold (null if it never will). */
  days_to_archive: number | null;
  priority: number;
}

const REVIEWABLE: readonly Status[] = ['active', 'candidate', 'challenged'];

/** The review priority of an item at a strength (see the file header). */
export function reviewPriority(
  f: Pick<DecayFacts, 'importance' | 'use_count'>,
  strength: number,
  config: LifecycleConfig,
): number {
  const { window_low: low, window_high: high } = config.review;
  const use = Math.min(1, Math.log1p(Math.max(0, f.use_count)) / Math.log(11));
  const urgency = Math.min(1, Math.max(0, (high - strength) / (high - low)));
  return round(0.5 * f.importance + 0.3 * use + 0.2 * urgency);
}

/** True when the item is live, unpinned, in the window, and matters. */
export function inReview(f: DecayFacts, strength: number, config: LifecycleConfig): boolean {
  const { window_low: low, window_high: high, min_importance } = config.review;
  return (
    REVIEWABLE.includes(f.status) &&
    !f.pinned &&
    strength >= low &&
    strength <= high &&
    (f.importance >= min_importance || f.use_count > 0)
  );
}

function daysToArchive(f: DecayFacts, strength: number, config: LifecycleConfig): number | null {
  const lambda = decayRate(f.kind, config);
  if (f.pinned || lambda <= 0 || strength < config.archive_threshold) return null;
  return round(Math.log(strength / config.archive_threshold) / lambda);
}

/** The review list at `now`, highest priority first (ties: weaker first, then id). */
export function reviewList(
  facts: readonly DecayFacts[],
  now: number,
  config: LifecycleConfig,
  limit: number,
): { entries: ReviewEntry[]; total: number } {
  const entries: ReviewEntry[] = [];
  for (const f of facts) {
    const strength = strengthAt(f, now, config);
    if (!inReview(f, strength, config)) continue;
    entries.push({
      id: f.id,
      space: f.space,
      kind: f.kind,
      area: f.area,
      status: f.status,
      strength: round(strength),
      importance: f.importance,
      use_count: f.use_count,
      last_used_at: f.last_used_at === null ? null : new Date(f.last_used_at).toISOString(),
      last_reinforced_at: new Date(lastReinforced(f)).toISOString(),
      days_to_archive: daysToArchive(f, strength, config),
      priority: reviewPriority(f, strength, config),
    });
  }
  entries.sort(
    (a, b) =>
      b.priority - a.priority ||
      a.strength - b.strength ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return { entries: entries.slice(0, limit), total: entries.length };
}

/** Let go: a live item is archived now with reason `let_go` (reversible with restore). */
export function letGoPlan(
  id: string,
  meta: { actor: string | null; reason: string | null; now: number },
): MutationPlan {
  return (ctx) => {
    const item = ctx.items.get(id);
    if (!item) throw notFound('memory', id);
    if (item.status === 'archived') return { changes: [] };
    if (!REVIEWABLE.includes(item.status))
      throw new EngramError(
        'CONFLICT',
        `memory ${id} is ${item.status}; only active, candidate or challenged memories can be let go`,
        { id, rule: 'live status' },
      );
    const at = new Date(meta.now).toISOString();
    return {
      changes: [
        {
          id,
          patch: {
            status: 'archived',
            updated_at: meta.now,
            prior: { status: item.status, at, reason: 'let_go' },
          },
          statusEvent: {
            id: newId(meta.now),
            from_status: item.status,
            to_status: 'archived',
            reason: meta.reason ?? 'let_go',
            actor: meta.actor,
            at: meta.now,
          },
        },
      ],
    };
  };
}

function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
