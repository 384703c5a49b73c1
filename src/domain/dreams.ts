/**
 * Consolidation ("dreaming", §10): a dream run goes through stages (duplicates, conflicts, folds,
 * stale, skills), logs every proposal, change and skip to its diary as it goes, and can be undone. Run
 * completion and diary finalisation are separate facts: a run cut short by a deadline keeps what it
 * logged, marks its unfinished stages `cut_short` and finalises its diary as `partial` with the
 * reason; a final diary is never overwritten.
 */
/** The stages of a dream run, in the order they run. */
export const DREAM_STAGES = ['duplicates', 'conflicts', 'folds', 'stale', 'skills'] as const;
/** A stage of a dream run. */
export type DreamStage = (typeof DREAM_STAGES)[number];

/** Where one stage of a run is. */
export const STAGE_STATES = [
  'pending',
  'running',
  'done',
  'cut_short',
  'skipped',
  'failed',
] as const;
/** The state of one stage of a run. */
export type StageState = (typeof STAGE_STATES)[number];

/**
 * Where a run is: `running` until it ends; `completed` when every stage ran to its end;
 * `cut_short` when a deadline, a cancel or a stopping process ended it early; `failed` when a
 * stage raised an error; `interrupted` when its process died (found by the next run).
 */
export const DREAM_RUN_STATES = [
  'running',
  'completed',
  'cut_short',
  'failed',
  'interrupted',
] as const;
/** The state of a dream run. */
export type DreamRunState = (typeof DREAM_RUN_STATES)[number];

/** The diary of a run: `open` while the run logs; `final` or `partial` once finalised (never again). */
export const DIARY_STATES = ['open', 'final', 'partial'] as const;
/** The finalisation state of a run's diary. */
export type DiaryState = (typeof DIARY_STATES)[number];

/** What a diary entry is about. */
export const DREAM_ACTIONS = [
  'merge',
  'supersede',
  'fold',
  'archive',
  'skill_dedupe',
  'skill_cap',
] as const;
/** The action of a diary entry. */
export type DreamAction = (typeof DREAM_ACTIONS)[number];

/** What became of a proposal: only proposed (a preview or a dry run), applied, or skipped (why). */
export const DREAM_OUTCOMES = ['proposed', 'applied', 'skipped'] as const;
/** The outcome of a diary entry. */
export type DreamOutcome = (typeof DREAM_OUTCOMES)[number];

/** The daily caps the service enforces across runs and processes (§10). */
export const DREAM_CAPS = ['merge', 'stale'] as const;
/** A daily cap. */
export type DreamCap = (typeof DREAM_CAPS)[number];

/**
 * The state of an item a run changed, before and after, so that undo restores exactly what the
 * run changed and only while nothing has changed it since.
 */
export interface ItemState {
  status?: string;
  kind?: string;
  area?: string;
  /** The body version (a keeper's revision). */
  version?: number;
}

/**
 * One line of a diary. `items` holds the ids it is about: for a merge `[lesser, keeper]`, for a
 * fold the moved items, for an archive the archived item. Entries hold ids, areas, scores and
 * reasons, never memory text (a purge leaves nothing of an item in a diary).
 */
export interface DiaryEntry {
  seq: number;
  stage: DreamStage;
  action: DreamAction;
  outcome: DreamOutcome;
  reason: string;
  items: string[];
  /** Scores, areas and the before/after states of an applied change. */
  detail: DiaryDetail;
  at: string;
}

/** The details of a diary entry. */
export interface DiaryDetail {
  similarity?: number;
  overlap?: number;
  from_area?: string;
  to_area?: string;
  /** Per changed item id, its state before and after the change. */
  before?: Record<string, ItemState>;
  after?: Record<string, ItemState>;
  /** The probability a decision adapter gave that the later memory contradicts the earlier. */
  probability?: number;
  /** The relation an applied merge, supersede or dedupe created. */
  relation_id?: string;
  /** Set when a later undo restored this entry (or why it could not). */
  undone?: boolean;
}

/** Counts of one stage of a run. */
export interface StageSummary {
  stage: DreamStage;
  state: StageState;
  proposed: number;
  applied: number;
  skipped: number;
  started_at: string | null;
  finished_at: string | null;
  /** Why the stage was skipped, cut short or failed. */
  note: string | null;
}

/** A dream run as callers see it (times ISO 8601). */
export interface DreamRun {
  id: string;
  space: string;
  /** A dry run proposes and logs, and changes nothing. */
  dry_run: boolean;
  state: DreamRunState;
  diary: DiaryState;
  /** Why the diary was finalised as partial, or the run failed. */
  reason: string | null;
  stages: StageSummary[];
  started_at: string;
  finished_at: string | null;
  /** When `dream undo` restored this run's changes, or null. */
  undone_at: string | null;
  /** The background job that ran it, when it ran as one. */
  job_id: string | null;
}

/** A run with its diary entries. */
export interface DreamDiary {
  run: DreamRun;
  entries: DiaryEntry[];
}

/** One proposal of a preview: a diary entry that was never written. */
export interface PreviewEntry {
  stage: DreamStage;
  action: DreamAction;
  reason: string;
  items: string[];
  detail: DiaryDetail;
  /** The stage already decided to leave it alone (uncertain, both pinned...). */
  skip: boolean;
}

/** What a run would do now, computed read-only (§10: previews change nothing). */
export interface DreamPreview {
  space: string;
  stages: {
    stage: DreamStage;
    /** Why a run would skip this stage with the current configuration, or null. */
    off: string | null;
    /** False when the preview stopped before looking at everything (its deadline). */
    complete: boolean;
    note: string | null;
    proposals: PreviewEntry[];
  }[];
}

/** What `dream undo` did: the entries it restored and those it could not, with why. */
export interface UndoReport {
  run_id: string;
  restored: { seq: number; action: DreamAction; items: string[] }[];
  not_restored: { seq: number; action: DreamAction; item: string; reason: string }[];
}
