/**
 * Bounded boosts applied after fusion (§3.2). The final score is `rrf * (1 + B)` with
 *
 *   B = recency    * 2^(-age_days / recency_half_life_days)              (age since updated_at)
 *     + frequency  * min(1, ln(1 + access_count) / ln(1 + frequency_saturation))
 *     + importance * importance
 *     + strength   * strength
 *     + speaker    * [the query names the item's source.speaker]
 *
 * Each term is at most its weight (defaults 0.05, 0.03, 0.05, 0.03, 0.25), so B ≤ 0.41: boosts
 * reorder only hits whose fused scores are close and can never lift an item that no channel
 * found. The speaker term is for conversations: asked about Melanie, what Melanie said herself
 * comes first among equally good turns (on LoCoMo, 82% of the evidence turns of a question naming
 * one speaker are that speaker's own).
 */
import type { Config } from '../config/schema.js';
import type { Booster, Candidate, RecallRun } from './stages.js';

/** The facts of an item that boosts read. */
export interface BoostFacts {
  updated_at: number;
  access_count: number;
  importance: number;
  strength: number;
}

const DAY_MS = 86_400_000;

/** The boost factor B for one item at time `now`; `named`: the query names its speaker. */
export function boostFactor(
  item: BoostFacts,
  now: number,
  boosts: Config['recall']['boosts'],
  named = false,
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
  return recency + frequency + importance + strength + (named ? boosts.speaker : 0);
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, Number.isFinite(x) ? x : 0));
}

/** The largest boost factor B the settings allow (the sum of the weights). */
export function maxBoost(boosts: Config['recall']['boosts']): number {
  return boosts.recency + boosts.frequency + boosts.importance + boosts.strength + boosts.speaker;
}

/** The words of a text, each with whether it is written with a capital ("Melanie"). */
function words(text: string): { word: string; capital: boolean }[] {
  return (text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => ({
    word: w.toLowerCase(),
    capital: /^\p{Lu}/u.test(w),
  }));
}

/**
 * Whether a query names a speaker: the speaker's first name occurs in it written with a capital,
 * as names are ("What did Melanie paint?"), whatever the case of the speaker as stored. A word in
 * lower case is not a name: a speaker called "Will" is not named by "will it rain". Returns a test
 * for each candidate's speaker, memoised per name.
 */
export function speakerNamedIn(query: string): (speaker: string | undefined) => boolean {
  const names = new Set(
    words(query)
      .filter((w) => w.capital)
      .map((w) => w.word),
  );
  const memo = new Map<string, boolean>();
  const test = (speaker: string): boolean => {
    const first = words(speaker)[0]?.word;
    return first !== undefined && names.has(first);
  };
  return (speaker) => {
    if (speaker === undefined || names.size === 0) return false;
    let named = memo.get(speaker);
    if (named === undefined) memo.set(speaker, (named = test(speaker)));
    return named;
  };
}

/** The booster of engram's recall: the bounded boosts above on each candidate's fused score. */
export class BoundedBoosts implements Booster {
  readonly maxBoost: number;

  constructor(private readonly boosts: Config['recall']['boosts']) {
    this.maxBoost = maxBoost(boosts);
  }

  boost(candidates: readonly Candidate[], run: RecallRun, now: number): Candidate[] {
    const named = speakerNamedIn(run.plan.query);
    const scored = candidates.map((c) => {
      const b = boostFactor(c.item, now, this.boosts, named(c.item.source?.speaker));
      return { ...c, score: c.fused.rrf * (1 + b) };
    });
    return scored.sort(
      (a, b) => b.score - a.score || b.fused.rrf - a.fused.rrf || (a.item.id < b.item.id ? -1 : 1),
    );
  }
}
