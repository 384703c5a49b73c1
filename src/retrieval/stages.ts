/**
 * The stage interfaces of the recall pipeline (§3, §5), in the order pipeline.ts runs them:
 * channels (channels/channel.ts) -> list stages (session context) -> fuser -> booster -> recall
 * stages (rerank) -> cut to k -> decision stage -> access accounting, with observers told when a
 * recall starts and ends. A pipeline is assembled from a `RecallStages` value, so any stage can be
 * swapped for another or for its no-op default.
 */
import type { ItemFilter } from '../domain/filter.js';
import type { ItemRecord } from '../domain/records.js';
import type { Decision, RecallHit, RecallResponse } from '../domain/types.js';
import type { Channel } from './channels/channel.js';
import type { Fused, RankedList } from './fuse.js';
import type { SessionLookup } from './sessions.js';

/** A validated recall request, as the pipeline runs it. */
export interface RecallPlan {
  query: string;
  k: number;
  filter: ItemFilter;
  weights: Partial<Record<Channel['name'], number>>;
  /** Legacy reranking of the best candidates with the relevance scorer (§5.2). */
  rerank?: boolean;
  /** The caller's explicit choice of decision recall for this search (§5.1). */
  decision?: 'on' | 'off';
}

/** What the stages of one recall share. */
export interface RecallRun {
  readonly plan: RecallPlan;
  /** The candidate pool (§3.3): how many ids each channel is asked for. */
  readonly pool: number;
  /** Conversation positions, looked up once per recall for every stage that reads them. */
  readonly sessions: SessionLookup;
  /** Milliseconds per stage, returned as `timings_ms`; a stage adds its own key. */
  readonly timings: Record<string, number>;
  /** When the recall started (`performance.now()`): the decision deadline counts from it. */
  readonly started?: number;
}

/** A fused candidate with its item, on its way to becoming a hit. */
export interface Candidate {
  item: ItemRecord;
  fused: Fused;
  /** The score it is ordered by (fused, then boosted, then perhaps reranked). */
  score: number;
}

/** A stage on the channels' ranked lists before fusion (session context). */
export interface ListStage {
  /** The lists to fuse; the lists as they were when the stage cannot run. */
  apply(lists: RankedList[], run: RecallRun): Promise<RankedList[]>;
}

/** Merges the channels' ranked lists into one order of candidates. */
export interface Fuser {
  /** The fused candidates, best first. */
  fuse(lists: readonly RankedList[]): Fused[];
}

/** Scores the fused candidates with bounded boosts (§3.2) and orders them. */
export interface Booster {
  /**
   * The largest boost factor B it gives (a score grows by at most 1 + B): fused candidates that
   * cannot reach the best ones even so are never read.
   */
  readonly maxBoost: number;
  /** The candidates, read in fused order and scored at time `now`, best first. */
  boost(candidates: readonly Candidate[], run: RecallRun, now: number): Candidate[];
}

/** A stage after fusion and boosts (legacy rerank): reorders the candidates. */
export interface RecallStage {
  /** How many of the best candidates it reads in this run (the pool is widened to that). */
  depth?(run: RecallRun): number;
  /** The candidates in their new order; as they were when the stage cannot run. */
  apply(candidates: Candidate[], run: RecallRun): Promise<Candidate[]>;
}

/**
 * The second stage's slot (§5.1): judges the best hits of the ordinary order, and reports what it
 * did. It gets `depth(run)` hits (at least k) and returns at most k: on fallback exactly the first
 * k, as ordinary recall would.
 */
export interface DecisionStage {
  /** How many of the ordinary order's best hits it judges in this run (k when it does not apply). */
  depth?(run: RecallRun): number;
  /** Whether it replaces legacy reranking in this run (decision recall selected). */
  selected?(run: RecallRun): boolean;
  /** The hits to return (reordered at most, cut to k) and the envelope's `decision`. */
  decide(hits: RecallHit[], run: RecallRun): Promise<{ hits: RecallHit[]; decision: Decision }>;
}

/**
 * Told when a recall starts and ends (the dormant experiment, §9). Called synchronously; an
 * observer must not change the response or make it wait, and its failures never fail recall.
 */
export interface RecallObserver {
  /** A recall starts (its request is valid; no channel has run yet). */
  onRecallStart(): void;
  /** A recall ended, with its response; `null` when it failed. */
  onRecallEnd(plan: RecallPlan, response: RecallResponse | null): void;
}

/** What a recall pipeline is assembled from, in the order it runs. */
export interface RecallStages {
  channels: readonly Channel[];
  beforeFusion: readonly ListStage[];
  fuser: Fuser;
  booster: Booster;
  afterFusion: readonly RecallStage[];
  decision: DecisionStage;
  observers: readonly RecallObserver[];
}

/** The no-op booster: keeps the fused order and scores. */
export const NO_BOOSTS: Booster = Object.freeze({
  maxBoost: 0,
  boost: (candidates: readonly Candidate[]) => [...candidates],
});

/**
 * The decision stage while none is connected: the hits as they are, `decision.state` "off"
 * (§5.1: without an adapter the response is identical to ordinary recall).
 */
export const DECISION_OFF: DecisionStage = Object.freeze({
  decide: async (hits: RecallHit[], run: RecallRun) => ({
    hits: hits.slice(0, run.plan.k),
    decision: { state: 'off' as const },
  }),
});

/** Milliseconds to two decimals, as `timings_ms` reports them. */
export function roundMs(ms: number): number {
  return Math.round(ms * 100) / 100;
}
