/**
 * Bounded boosts applied after fusion (§3.2). The final score is `rrf * (1 + B)` with
 *
 *   B = recency    * 2^(-age_days / recency_half_life_days)              (age since updated_at)
 *     + frequency  * min(1, ln(1 + access_count) / ln(1 + frequency_saturation))
 *     + importance * importance
 *     + strength   * strength
 *
 * Each term is at most its weight (defaults 0.05, 0.03, 0.05, 0.03), so B ≤ 0.16: boosts reorder
 * only hits whose fused scores are within 16% of each other and can never lift an item that no
 * channel found.
 */
import type { Config } from '../config/schema.js';

/** The facts of an item that boosts read. */
export interface BoostFacts {
  updated_at: number;
  access_count: number;
  importance: number;
  strength: number;
}

const DAY_MS = 86_400_000;

/** The boost factor B for one item at time `now`. */
export function boostFactor(
  item: BoostFacts,
  now: number,
  boosts: Config['recall']['boosts'],
): number {
  const ageDays = Math.max(0, (now - item.updated_at) / DAY_MS);
  const recency = boosts.recency * Math.pow(2, -ageDays / boosts.recency_half_life_days);
  const frequency =
    boosts.frequency *
    Math.min(
      1,
      Math.log1p(Math.max(0, item.access_count)) / Math.log1p(boosts.frequency_saturation),
    );
  const importance = boosts.importance * clamp01(item.importance);
  const strength = boosts.strength * clamp01(item.strength);
  return recency + frequency + importance + strength;
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, Number.isFinite(x) ? x : 0));
}

/** The largest boost factor B the settings allow (the sum of the weights). */
export function maxBoost(boosts: Config['recall']['boosts']): number {
  return boosts.recency + boosts.frequency + boosts.importance + boosts.strength;
}
