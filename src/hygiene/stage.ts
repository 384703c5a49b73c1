/**
 * The shape of one consolidation stage (§10): it proposes changes from the store as it is (read
 * only), and applies one proposal at a time, reporting what it changed (for the diary and for undo)
 * or why it skipped it. The runner (dream.ts) logs each outcome as it goes.
 */
import type { Config } from '../config/schema.js';
import type { DiaryDetail, DreamAction, DreamStage } from '../domain/dreams.js';
import type { Logger } from '../domain/log.js';
import type { WordVectorLookup } from '../embed/embedder.js';
import type { Mutate } from '../memories/mutator.js';
import type { ChangeMeta } from '../memories/plans.js';
import type { DreamStore } from '../store/dream-store.js';
import type { LifecycleStore } from '../store/lifecycle-store.js';
import type { Store } from '../store/store.js';

/** What consolidation acts through. */
export interface DreamDeps {
  config: Config;
  store: Store;
  dreams: DreamStore;
  lifecycle: LifecycleStore;
  mutate: Mutate;
  log: Logger;
  now: () => number;
  /** The decision adapter's conflict judgement (§10: automatic conflicts only through it). */
  conflicts?: (earlier: string, later: string, signal: AbortSignal) => Promise<number>;
  /** Word vectors for synonym matching (the embedder's, or the built-in ones), when available. */
  words: () => Promise<WordVectorLookup | undefined>;
  /** Told when a change left vectors pending (a keeper's revised body), to fill them. */
  vectorsPending: () => void;
}

/** A proposed change: what, to which items, why, with its scores. */
export interface Proposal {
  action: DreamAction;
  items: string[];
  reason: string;
  detail: DiaryDetail;
  /** A proposal the stage already decided to leave alone (uncertain, both pinned...). */
  skip?: boolean;
}

/** What applying one proposal did. */
export type Applied =
  | { outcome: 'applied'; detail: DiaryDetail; items?: string[] }
  | { outcome: 'skipped'; reason: string };

/** The proposals of a stage, and whether it looked at everything before a stop. */
export interface Proposals {
  proposals: Proposal[];
  complete: boolean;
  /** A note for the stage log (e.g. items without a vector left out). */
  note?: string;
}

/** The context of one stage of one run or preview. */
export interface StageContext {
  deps: DreamDeps;
  space: string;
  /** True once the run must stop (deadline, cancel, shutdown). */
  shouldStop: () => boolean;
  /** Who and why, for the changes' history (actor `dream:<run id>`). */
  meta: (reason: string) => ChangeMeta;
}

/** One stage of a dream run. */
export interface StageRunner {
  readonly stage: DreamStage;
  /** Why the stage does not run with this configuration (a preview still shows its proposals). */
  off(deps: DreamDeps): string | null;
  propose(context: StageContext): Promise<Proposals>;
  /** Applies proposals (none of them `skip`), an outcome per proposal in order. */
  apply(context: StageContext, proposals: readonly Proposal[]): Promise<Applied[]>;
}

/** The UTC day of a time, the unit of the daily caps. */
export function capDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}
