/**
 * The recall pipeline (§3). `runRecall` runs the stages it is given (stages.ts) in a fixed order:
 * channels in parallel -> list stages (session context) -> fusion -> boosts -> recall stages
 * (legacy rerank, §5.2, when asked) -> cut to k -> the decision stage (§5.1) -> access accounting
 * for returned hits only; observers are told when a recall starts and ends. `defaultStages` is
 * engram's recall. Always answers; a channel that cannot contribute is reported in `degraded`,
 * never hidden.
 */
import type { AccessRecorder } from '../access/ledger.js';
import type { Config } from '../config/schema.js';
import { toEngramError } from '../domain/errors.js';
import type { Degradation, HitChannels, RecallHit, RecallResponse } from '../domain/types.js';
import type { Store } from '../store/store.js';
import { BoundedBoosts } from './boosts.js';
import type { Channel, ChannelResult } from './channels/channel.js';
import { SessionContextStage } from './context-stage.js';
import { type Fused, type RankedList, rrfFuser } from './fuse.js';
import type { RelevanceScorer } from './rerank/relevance.js';
import { RerankStage } from './rerank/rerank-stage.js';
import { SessionLookup } from './sessions.js';
import {
  type Candidate,
  DECISION_OFF,
  type DecisionStage,
  type RecallObserver,
  type RecallPlan,
  type RecallRun,
  type RecallStages,
  roundMs,
} from './stages.js';

/** What the pipeline is wired with. */
export interface RecallDeps {
  /** The store primitives recall uses: items and session positions. */
  store: Pick<Store, 'getItems' | 'sessionNeighbors' | 'writeNeighbors'>;
  /** Where the returned hits are counted (§3.6): within the recall, or behind it when configured. */
  access: AccessRecorder;
  config: Config;
  stages: RecallStages;
  now: () => number;
  onAccessError?: (err: unknown) => void;
  /** Told when an observer failed; recall goes on. */
  onObserverError?: (err: unknown) => void;
}

/** What engram's own stages are built from. */
export interface DefaultStageDeps {
  config: Config;
  channels: readonly Channel[];
  /** The configured relevance scorer (§8), when one is available. */
  scorer: RelevanceScorer | null;
  observers?: readonly RecallObserver[];
  /** Told when an optional stage (session context, rerank) could not run; recall goes on without it. */
  onStageError?: (stage: 'context' | 'rerank', err: unknown) => void;
  /** The second stage (§5.1); default: off. */
  decision?: DecisionStage;
}

/** engram's recall: session context, RRF, bounded boosts, legacy rerank, the decision stage. */
export function defaultStages(deps: DefaultStageDeps): RecallStages {
  const { recall } = deps.config;
  const report = (stage: 'context' | 'rerank') => (err: unknown) => deps.onStageError?.(stage, err);
  return {
    channels: deps.channels,
    beforeFusion: [new SessionContextStage(recall, report('context'))],
    fuser: rrfFuser(recall.rrf_k),
    booster: new BoundedBoosts(recall.boosts),
    afterFusion: [new RerankStage(deps.scorer, recall.rerank, report('rerank'))],
    decision: deps.decision ?? DECISION_OFF,
    observers: deps.observers ?? [],
  };
}

/** Candidate pool size for a caller's k: the configured pool, widened to k, capped (§3.3). */
export function poolSize(k: number, recall: Config['recall']): number {
  return Math.min(recall.max_pool, Math.max(recall.pool, k));
}

/** Runs one recall and returns the §3.5 envelope; observers hear of its start and end. */
export async function runRecall(deps: RecallDeps, plan: RecallPlan): Promise<RecallResponse> {
  notify(deps, (o) => o.onRecallStart());
  let response: RecallResponse | null = null;
  try {
    response = await recall(deps, plan);
    return response;
  } finally {
    notify(deps, (o) => o.onRecallEnd(plan, response));
  }
}

/** The stages of one recall, in their fixed order (see the file header). */
async function recall(deps: RecallDeps, plan: RecallPlan): Promise<RecallResponse> {
  const started = performance.now();
  const run: RecallRun = {
    plan,
    pool: poolSize(plan.k, deps.config.recall),
    sessions: new SessionLookup(deps.store, plan.filter, deps.config.recall.context.write_gap_ms),
    timings: {},
    started,
  };
  const found = await runChannels(deps, run, started);
  let lists = found.lists;
  for (const stage of deps.stages.beforeFusion) lists = await stage.apply(lists, run);
  const t = performance.now();
  const { boosted, now } = await fuseAndBoost(deps, run, lists);
  run.timings.fuse = roundMs(performance.now() - t);
  let ordered = boosted;
  for (const stage of deps.stages.afterFusion) ordered = await stage.apply(ordered, run);
  const depth = Math.max(plan.k, deps.stages.decision.depth?.(run) ?? plan.k);
  const cut = ordered.slice(0, depth).map((c) => toHit(c, found.details.get(c.item.id)));
  const { hits, decision } = await deps.stages.decision.decide(cut, run);
  await recordAccess(deps, plan.filter.space, hits, now);
  run.timings.total = roundMs(performance.now() - started);
  return { hits, degraded: found.degraded, decision, timings_ms: run.timings };
}

/** Every channel whose weight is not 0, in parallel, each within what is left of the budget. */
async function runChannels(deps: RecallDeps, run: RecallRun, started: number) {
  const { plan, pool, timings } = run;
  const active = deps.stages.channels.filter((c) => (plan.weights[c.name] ?? 1) > 0);
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
      timings[channel.name] = roundMs(performance.now() - t);
      return result;
    }),
  );
  return collect(active, settled, plan);
}

/** The channels' ranked lists, their degradations and per-id evidence; throws when none answered. */
function collect(
  active: readonly Channel[],
  settled: readonly PromiseSettledResult<ChannelResult>[],
  plan: RecallPlan,
) {
  const lists: RankedList[] = [];
  const degraded: Degradation[] = [];
  const details = new Map<string, Partial<HitChannels>>();
  settled.forEach((outcome, i) => {
    const channel = active[i]!;
    if (outcome.status === 'rejected') {
      degraded.push({
        channel: channel.name,
        reason: `error:${toEngramError(outcome.reason).code}`,
      });
      return;
    }
    const result = outcome.value;
    if (result.degraded !== undefined)
      degraded.push({ channel: channel.name, reason: result.degraded });
    for (const [id, d] of result.details ?? []) details.set(id, { ...details.get(id), ...d });
    if (result.ids !== undefined)
      lists.push({
        channel: channel.name,
        weight: plan.weights[channel.name] ?? 1,
        ids: result.ids.map((h) => h.id),
        scores: result.ids.map((h) => h.score),
        additive: channel.additiveScores === true,
      });
  });
  const failure = settled.find((s) => s.status === 'rejected');
  if (lists.length === 0 && failure?.status === 'rejected') throw toEngramError(failure.reason);
  return { lists, degraded, details };
}

/**
 * Fuses the lists, reads the items of the candidates that can still reach the depth the later
 * stages read, and boosts them. Returns them best first, with the time the boosts were taken at.
 */
async function fuseAndBoost(deps: RecallDeps, run: RecallRun, lists: readonly RankedList[]) {
  const { fuser, booster, afterFusion } = deps.stages;
  const depth = Math.max(
    run.pool,
    deps.stages.decision.depth?.(run) ?? 0,
    ...afterFusion.map((s) => s.depth?.(run) ?? 0),
  );
  const fused = contenders(fuser.fuse(lists), depth, booster.maxBoost);
  const ids = fused.map((f) => f.id);
  const items = new Map(
    (await deps.store.getItems(run.plan.filter.space, ids)).map((i) => [i.id, i]),
  );
  const now = deps.now();
  const candidates = fused.flatMap((f): Candidate[] => {
    const item = items.get(f.id);
    return item ? [{ item, fused: f, score: f.rrf }] : [];
  });
  return { boosted: booster.boost(candidates, run, now), now };
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

function toHit({ item, fused, score }: Candidate, details?: Partial<HitChannels>): RecallHit {
  return {
    id: item.id,
    kind: item.kind,
    area: item.area,
    title: item.title,
    body: item.body,
    score,
    channels: { ...fused.channels, ...details },
    status: item.status,
    importance: item.importance,
    updated_at: new Date(item.updated_at).toISOString(),
  };
}

async function recordAccess(
  deps: RecallDeps,
  space: string,
  hits: readonly RecallHit[],
  now: number,
): Promise<void> {
  try {
    // Documentation sections and session excerpts (decision sources) are not memory items.
    const memories = hits.filter((h) => h.source?.type !== 'docs' && h.source?.type !== 'session');
    await deps.access.record(
      space,
      memories.map((h) => h.id),
      now,
    );
  } catch (err) {
    // Accounting must not take recall down: the hits are still correct, so report and go on.
    deps.onAccessError?.(err);
  }
}

/** Tells every observer; an observer's failure is reported and never reaches the caller. */
function notify(deps: RecallDeps, tell: (observer: RecallObserver) => void): void {
  for (const observer of deps.stages.observers) {
    try {
      tell(observer);
    } catch (err) {
      deps.onObserverError?.(err);
    }
  }
}
