/**
 * Reinforcement (§6 step 4, §7.1): a use moves `last_reinforced` to now and raises `base` by a
 * bounded step, larger when the use is cross-domain (the item helped in a context whose tags or
 * area differ from its own). Uses are recorded as use events, never as access (§3.6).
 */
import { newId } from '../domain/ids.js';
import type { DecayFacts, UseEventRecord, UseSource } from '../store/lifecycle-store.js';
import { clampStrength, effectiveBase, type LifecycleConfig, strengthAt } from './decay.js';
import { labelTerms } from './terms.js';

/** The context an item was used in. */
export interface UseContext {
  tags: readonly string[];
  area?: string;
  source: UseSource;
  conversation_id?: string;
  actor?: string;
}

const NEUTRAL_AREAS = new Set(['general']);

function areaTerms(area: string): string[] {
  if (NEUTRAL_AREAS.has(area)) return [];
  const leaf = area.split('/').pop() ?? area;
  return [area.toLowerCase(), ...labelTerms(leaf)];
}

/** The labels an item or a context belongs to: tags and area (the neutral `general` excluded). */
export function domainOf(tags: readonly string[], area: string | undefined): Set<string> {
  return new Set([...tags.flatMap(labelTerms), ...(area ? areaTerms(area) : [])]);
}

/**
 * Cross-domain use: both sides have a domain (tags or a non-neutral area) and they share none of
 * it. Without a domain on either side there is no evidence of crossing, so it is not counted.
 */
export function isCrossDomain(
  item: { tags: readonly string[]; area: string },
  context: { tags: readonly string[]; area?: string },
): boolean {
  const own = domainOf(item.tags, item.area);
  const used = domainOf(context.tags, context.area);
  if (own.size === 0 || used.size === 0) return false;
  for (const label of used) if (own.has(label)) return false;
  return true;
}

/** The base after one use: raised by the step, never above `max_base`, never lowered. */
export function raisedBase(base: number, crossDomain: boolean, config: LifecycleConfig): number {
  const step = crossDomain ? config.cross_domain_boost : config.use_boost;
  return Math.max(base, Math.min(config.max_base, base + step));
}

/** The use event for one item used at `now` (pure). */
export function planUse(
  facts: DecayFacts,
  context: UseContext,
  now: number,
  config: LifecycleConfig,
): UseEventRecord {
  const crossDomain = isCrossDomain(facts, context);
  const baseBefore = effectiveBase(facts, config);
  const baseAfter = raisedBase(baseBefore, crossDomain, config);
  return {
    id: newId(now),
    space: facts.space,
    item_id: facts.id,
    at: now,
    source: context.source,
    conversation_id: context.conversation_id ?? null,
    actor: context.actor ?? null,
    context_tags: [...context.tags],
    context_area: context.area ?? null,
    cross_domain: crossDomain,
    base_before: baseBefore,
    base_after: baseAfter,
    strength_before: strengthAt(facts, now, config),
    strength_after: clampStrength(baseAfter, config),
  };
}
