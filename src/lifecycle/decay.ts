/**
 * Decay (§7.1) as a pure function of stored facts:
 *
 *   strength(t) = clamp(base * exp(-λ_kind * days_since(last_reinforced)), floor, 1)
 *
 * `last_reinforced` is the latest of creation, last body revision, last use and last explicit
 * restore (a person bringing an item back is a reinforcement; without it a restored item would be
 * archived again by the next run). `base` starts at 1 (a candidate at `candidate_base`, so a
 * candidate is promoted by use rather than by merely existing) and is raised by use within
 * `max_base`. Nothing here reads the previous strength, so running the job once or every day
 * gives the same numbers.
 */
import type { Config } from '../config/schema.js';
import type { Kind } from '../domain/types.js';
import type { DecayFacts } from '../store/lifecycle-store.js';

/** The lifecycle section of the configuration. */
export type LifecycleConfig = Config['lifecycle'];

/** Milliseconds per day. */
export const DAY_MS = 86_400_000;

/** λ per day for a kind. */
export function decayRate(kind: Kind, config: LifecycleConfig): number {
  return config.decay_rates[kind];
}

/** The base strength decays from: the stored one, else the initial base for the item's status. */
export function effectiveBase(facts: DecayFacts, config: LifecycleConfig): number {
  if (facts.base !== null) return facts.base;
  return facts.status === 'candidate' ? config.candidate_base : 1;
}

/** When the item was last reinforced: creation, revision, use or explicit restore. */
export function lastReinforced(facts: DecayFacts): number {
  return Math.max(
    facts.created_at,
    facts.last_revised_at ?? 0,
    facts.last_used_at ?? 0,
    facts.last_restored_at ?? 0,
  );
}

/** clamp(x, floor, 1). */
export function clampStrength(x: number, config: LifecycleConfig): number {
  if (!Number.isFinite(x)) return config.strength_floor;
  return Math.min(1, Math.max(config.strength_floor, x));
}

/** Strength of a base after `days` of decay at rate λ (no pinning). */
export function decayed(base: number, lambda: number, days: number, config: LifecycleConfig) {
  return clampStrength(base * Math.exp(-lambda * Math.max(0, days)), config);
}

/** Strength of an item at `now`; pinned items do not decay. */
export function strengthAt(facts: DecayFacts, now: number, config: LifecycleConfig): number {
  const base = effectiveBase(facts, config);
  if (facts.pinned) return clampStrength(base, config);
  const days = (now - lastReinforced(facts)) / DAY_MS;
  return decayed(base, decayRate(facts.kind, config), days, config);
}

/**
 * The highest strength the item has had since it was last reinforced (decay only lowers it
 * afterwards). Promotion tests this peak, so a daily job and a single late run agree.
 */
export function peakStrength(facts: DecayFacts, config: LifecycleConfig): number {
  return clampStrength(effectiveBase(facts, config), config);
}

/**
 * Strength the item would have without any use (initial base, reinforced only by creation,
 * revision and restore): the counterfactual behind "kept above the archive threshold by use".
 */
export function strengthWithoutUse(
  facts: DecayFacts,
  now: number,
  config: LifecycleConfig,
): number {
  return strengthAt({ ...facts, base: null, last_used_at: null }, now, config);
}
