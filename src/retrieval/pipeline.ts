/**
 * The recall pipeline (§3): channels in parallel -> reciprocal-rank fusion -> bounded boosts ->
 * cut to k -> access accounting for returned hits only. Always answers; a channel that cannot
 * contribute is reported in `degraded`, never hidden.
 */
import type { Config } from '../config/schema.js';
import type { Degradation, RecallHit, RecallResponse } from '../core/types.js';
import { toEngramError } from '../errors/errors.js';
import type { ItemFilter, ItemRecord, Store } from '../store/store.js';
import { boostFactor } from './boosts.js';
import type { Channel, ChannelResult } from './channels/channel.js';
import { type RankedList, reciprocalRankFusion } from './fuse.js';

/** A validated recall request, as the pipeline runs it. */
export interface RecallPlan {
  query: string;
  k: number;
  filter: ItemFilter;
  weights: Partial<Record<Channel['name'], number>>;
}

/** What the pipeline is wired with. */
export interface RecallDeps {
  store: Store;
  config: Config;
  channels: readonly Channel[];
  now: () => number;
  onAccessError?: (err: unknown) => void;
}

/** Candidate pool size for a caller's k: the configured pool, widened to k, capped (§3.3). */
export function poolSize(k: number, recall: Config['recall']): number {
  return Math.min(recall.max_pool, Math.max(recall.pool, k));
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

async function runChannels(
  deps: RecallDeps,
  plan: RecallPlan,
  pool: number,
  started: number,
  timings: Record<string, number>,
) {
  const active = deps.channels.filter((c) => (plan.weights[c.name] ?? 1) > 0);
  const budget = deps.config.recall.semantic_budget_ms;
  const settled = await Promise.allSettled(
    active.map(async (channel) => {
      const t = performance.now();
      const result: ChannelResult = await channel.search({
        query: plan.query,
        filter: plan.filter,
        limit: pool,
        deadline: budget - (performance.now() - started),
      });
      timings[channel.name] = round(performance.now() - t);
      return result;
    }),
  );
  const lists: RankedList[] = [];
  const degraded: Degradation[] = [];
  settled.forEach((outcome, i) => {
    const channel = active[i]!;
    if (outcome.status === 'rejected')
      degraded.push({
        channel: channel.name,
        reason: `error:${toEngramError(outcome.reason).code}`,
      });
    else if (outcome.value.degraded !== undefined)
      degraded.push({ channel: channel.name, reason: outcome.value.degraded });
    else
      lists.push({
        channel: channel.name,
        weight: plan.weights[channel.name] ?? 1,
        ids: outcome.value.ids.map((h) => h.id),
      });
  });
  const failure = settled.find((s) => s.status === 'rejected');
  if (lists.length === 0 && failure?.status === 'rejected') throw toEngramError(failure.reason);
  return { lists, degraded };
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

function toHit(item: ItemRecord, score: number, channels: RecallHit['channels']): RecallHit {
  return {
    id: item.id,
    kind: item.kind,
    area: item.area,
    title: item.title,
    body: item.body,
    score,
    channels,
    status: item.status,
    importance: item.importance,
    updated_at: iso(item.updated_at),
  };
}

/** Runs one recall and returns the §3.5 envelope. */
export async function runRecall(deps: RecallDeps, plan: RecallPlan): Promise<RecallResponse> {
  const started = performance.now();
  const timings: Record<string, number> = {};
  const pool = poolSize(plan.k, deps.config.recall);
  const { lists, degraded } = await runChannels(deps, plan, pool, started, timings);
  const t = performance.now();
  const fused = reciprocalRankFusion(lists, deps.config.recall.rrf_k);
  const items = new Map(
    (
      await deps.store.getItems(
        plan.filter.space,
        fused.map((f) => f.id),
      )
    ).map((i) => [i.id, i]),
  );
  const now = deps.now();
  const scored = fused.flatMap((f) => {
    const item = items.get(f.id);
    return item
      ? [{ item, f, score: f.rrf * (1 + boostFactor(item, now, deps.config.recall.boosts)) }]
      : [];
  });
  scored.sort((a, b) => b.score - a.score || b.f.rrf - a.f.rrf || (a.item.id < b.item.id ? -1 : 1));
  const hits = scored.slice(0, plan.k).map((s) => toHit(s.item, s.score, s.f.channels));
  timings.fuse = round(performance.now() - t);
  await recordAccess(deps, plan.filter.space, hits, now);
  timings.total = round(performance.now() - started);
  return { hits, degraded, decision: { state: 'off' }, timings_ms: timings };
}

async function recordAccess(
  deps: RecallDeps,
  space: string,
  hits: readonly RecallHit[],
  now: number,
): Promise<void> {
  try {
    await deps.store.recordAccess(
      space,
      hits.map((h) => h.id),
      now,
    );
  } catch (err) {
    // Accounting must not take recall down: the hits are still correct, so report and go on.
    deps.onAccessError?.(err);
  }
}
