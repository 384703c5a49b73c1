/**
 * The recall pipeline (§3): channels in parallel -> session context on the keyword list ->
 * reciprocal-rank fusion -> bounded boosts -> legacy rerank (§5.2, when asked) -> cut to k ->
 * access accounting for returned hits only. Always answers; a channel that cannot
 * contribute is reported in `degraded`, never hidden.
 */
import type { Config } from '../config/schema.js';
import { toEngramError } from '../domain/errors.js';
import type { ItemRecord } from '../domain/records.js';
import type { Degradation, RecallHit, RecallResponse } from '../domain/types.js';
import type { ItemFilter, Store } from '../store/store.js';
import { boostFactor, maxBoost, speakerNamedIn } from './boosts.js';
import type { Channel, ChannelResult } from './channels/channel.js';
import { sessionContextOn } from './context.js';
import { type Fused, type RankedList, reciprocalRankFusion } from './fuse.js';
import type { RelevanceScorer } from './rerank/relevance.js';
import { rerankCandidates, SessionLookup, withSessionContext } from './stages.js';

/** A validated recall request, as the pipeline runs it. */
export interface RecallPlan {
  query: string;
  k: number;
  filter: ItemFilter;
  weights: Partial<Record<Channel['name'], number>>;
  /** Legacy reranking of the best candidates with the relevance scorer (§5.2). */
  rerank?: boolean;
}

/** What the pipeline is wired with. */
export interface RecallDeps {
  store: Store;
  config: Config;
  channels: readonly Channel[];
  now: () => number;
  onAccessError?: (err: unknown) => void;
  /** The configured relevance scorer (§8), when one is available. */
  scorer?: RelevanceScorer | null;
  /** Told when an optional stage (session context, rerank) could not run; recall goes on without it. */
  onStageError?: (stage: 'context' | 'rerank', err: unknown) => void;
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
  const details = new Map<string, Partial<RecallHit['channels']>>();
  settled.forEach((outcome, i) => {
    const channel = active[i]!;
    if (outcome.status === 'rejected')
      degraded.push({
        channel: channel.name,
        reason: `error:${toEngramError(outcome.reason).code}`,
      });
    else {
      if (outcome.value.degraded !== undefined)
        degraded.push({ channel: channel.name, reason: outcome.value.degraded });
      for (const [id, d] of outcome.value.details ?? [])
        details.set(id, { ...details.get(id), ...d });
      if (outcome.value.ids !== undefined)
        lists.push({
          channel: channel.name,
          weight: plan.weights[channel.name] ?? 1,
          ids: outcome.value.ids.map((h) => h.id),
          scores: outcome.value.ids.map((h) => h.score),
        });
    }
  });
  const failure = settled.find((s) => s.status === 'rejected');
  if (lists.length === 0 && failure?.status === 'rejected') throw toEngramError(failure.reason);
  return { lists, degraded, details };
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
  const channels = await runChannels(deps, plan, pool, started, timings);
  const { degraded, details } = channels;
  const sessions = new SessionLookup(deps.store, plan.filter);
  const lists = await sessionContext(deps, plan, sessions, channels.lists, pool, timings);
  const t = performance.now();
  const fused = contenders(
    reciprocalRankFusion(lists, deps.config.recall.rrf_k),
    plan.rerank ? Math.max(pool, deps.config.recall.rerank.top_n) : pool,
    maxBoost(deps.config.recall.boosts),
  );
  const items = new Map(
    (
      await deps.store.getItems(
        plan.filter.space,
        fused.map((f) => f.id),
      )
    ).map((i) => [i.id, i]),
  );
  const now = deps.now();
  const named = speakerNamedIn(plan.query);
  const boosts = deps.config.recall.boosts;
  const scored = fused.flatMap((f) => {
    const item = items.get(f.id);
    if (!item) return [];
    const b = boostFactor(item, now, boosts, named(item.source?.speaker));
    return [{ item, f, score: f.rrf * (1 + b) }];
  });
  scored.sort((a, b) => b.score - a.score || b.f.rrf - a.f.rrf || (a.item.id < b.item.id ? -1 : 1));
  timings.fuse = round(performance.now() - t);
  const ordered = plan.rerank ? await rerankStage(deps, plan, sessions, scored, timings) : scored;
  const hits = ordered
    .slice(0, plan.k)
    .map((s) => toHit(s.item, s.score, { ...s.f.channels, ...details.get(s.item.id) }));
  await recordAccess(deps, plan.filter.space, hits, now);
  timings.total = round(performance.now() - started);
  return { hits, degraded, decision: { state: 'off' }, timings_ms: timings };
}

/**
 * The fused candidates that can still reach the best `n` after boosts: boosts multiply by at most
 * 1 + B_max, so anything fused below (n-th best) / (1 + B_max) never can, and is not read.
 */
function contenders(fused: readonly Fused[], n: number, boostCap: number): Fused[] {
  if (fused.length <= n) return [...fused];
  const floor = fused[n - 1]!.rrf / (1 + boostCap);
  return fused.filter((f) => f.rrf >= floor);
}

/** Session context on the keyword list (context.ts); without it when the store cannot say. */
async function sessionContext(
  deps: RecallDeps,
  plan: RecallPlan,
  sessions: SessionLookup,
  lists: RankedList[],
  pool: number,
  timings: Record<string, number>,
): Promise<RankedList[]> {
  const t = performance.now();
  const { context, rerank } = deps.config.recall;
  try {
    // One lookup for every channel's candidates serves session context and the reranker alike.
    const window = Math.max(
      sessionContextOn(context) ? context.window : 0,
      plan.rerank ? rerank.context_window : 0,
    );
    await sessions.around([...new Set(lists.flatMap((l) => l.ids))], window);
    return await withSessionContext(sessions, lists, context, pool);
  } catch (err) {
    deps.onStageError?.('context', err);
    return lists;
  } finally {
    timings.context = round(performance.now() - t);
  }
}

/** Legacy rerank (§5.2); the first-stage order stands when no scorer is available or it fails. */
async function rerankStage<T extends { item: ItemRecord; score: number }>(
  deps: RecallDeps,
  plan: RecallPlan,
  sessions: SessionLookup,
  scored: T[],
  timings: Record<string, number>,
): Promise<T[]> {
  if (!deps.scorer) {
    deps.onStageError?.('rerank', new Error('no relevance scorer is available'));
    return scored;
  }
  const t = performance.now();
  try {
    const reranked = await rerankCandidates(
      {
        sessions,
        scorer: deps.scorer,
        query: plan.query,
        settings: deps.config.recall.rerank,
      },
      scored,
    );
    // Reported only when the stage applied, so a caller can tell a reranked answer from a plain one.
    timings.rerank = round(performance.now() - t);
    return reranked;
  } catch (err) {
    deps.onStageError?.('rerank', err);
    return scored;
  }
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
