/**
 * The persistence of consolidation (§10), one implementation per backend: dream runs with their
 * stages and append-only diary entries, the daily caps counted across runs and processes, and the
 * read queries the stages need (areas, stale candidates).
 */
import type {
  DiaryDetail,
  DiaryState,
  DreamAction,
  DreamCap,
  DreamOutcome,
  DreamRunState,
  DreamStage,
  StageState,
} from '../domain/dreams.js';
import type { ItemRecord } from '../domain/records.js';

/** One stage of a stored run (times epoch ms). */
export interface StageRecord {
  stage: DreamStage;
  state: StageState;
  started_at: number | null;
  finished_at: number | null;
  note: string | null;
}

/** A stored dream run (times epoch ms); stage counts are computed from its entries. */
export interface DreamRunRecord {
  id: string;
  space: string;
  dry_run: boolean;
  state: DreamRunState;
  diary: DiaryState;
  reason: string | null;
  stages: StageRecord[];
  started_at: number;
  finished_at: number | null;
  undone_at: number | null;
  job_id: string | null;
  /** Per stage: entries by outcome. */
  counts: Partial<Record<DreamStage, Record<DreamOutcome, number>>>;
}

/** A diary entry to append (the store numbers it). */
export interface NewDiaryEntry {
  stage: DreamStage;
  action: DreamAction;
  outcome: DreamOutcome;
  reason: string;
  items: string[];
  detail: DiaryDetail;
  at: number;
}

/** A stored diary entry. */
export interface DiaryEntryRecord extends NewDiaryEntry {
  run_id: string;
  seq: number;
}

/**
 * The batch a run is about to apply, recorded before its changes (write-ahead): a run stopped
 * between a batch's changes and its diary entries (a killed process, a failed transaction) leaves
 * it behind, and whoever finalises the run turns it into entries from what the store shows the run
 * did (see hygiene/recover.ts), so that the diary and its undo miss nothing.
 */
export interface DreamIntent {
  stage: DreamStage;
  /** The proposals of the batch, as proposed (before their changes). */
  proposals: { action: DreamAction; items: string[]; reason: string; detail: DiaryDetail }[];
  /** When the batch started (epoch ms). */
  at: number;
}

/** How a run ends. */
export interface RunEnd {
  state: Exclude<DreamRunState, 'running'>;
  diary: Exclude<DiaryState, 'open'>;
  reason: string | null;
  at: number;
}

/** A live item with the last time anything touched it, for the stale stage (§10). */
export interface StaleCandidate {
  item: ItemRecord;
  /** Latest of: update, access, use, version, status event, relation created or invalidated. */
  last_touched_at: number;
  /**
   * Latest access, use or update of an active item related to it (either direction, live
   * relation), or null when it has none.
   */
  neighbour_touched_at: number | null;
}

/** Dream runs, diaries and caps of one store. */
export interface DreamStore {
  /** Starts a run with its stages `pending` (stages not asked for are `skipped`). */
  createRun(run: {
    id: string;
    space: string;
    dry_run: boolean;
    stages: readonly DreamStage[];
    started_at: number;
    job_id: string | null;
  }): Promise<DreamRunRecord>;
  /** Sets one stage's state (and its start or end time, and a note). */
  setStage(
    runId: string,
    stage: DreamStage,
    change: { state: StageState; at: number; note?: string | null },
  ): Promise<void>;
  /**
   * Appends entries to a run's open diary in one transaction, clearing the run's intent in the
   * same transaction; refused (false) once finalised.
   */
  appendEntries(runId: string, entries: readonly NewDiaryEntry[]): Promise<boolean>;
  /** Records the batch about to be applied; refused (false) once the diary is finalised. */
  setIntent(runId: string, intent: DreamIntent): Promise<boolean>;
  /** The batch recorded by setIntent and not yet followed by its entries, or null. */
  intent(runId: string): Promise<DreamIntent | null>;
  /**
   * Ends a run: its state, and its diary finalised with the reason. Stages still `pending` or
   * `running` become `cut_short`. Refused (false) when the diary is already finalised: a final
   * diary is never overwritten.
   */
  finishRun(runId: string, end: RunEnd): Promise<boolean>;
  /** Records that the run's changes were undone (once: false when it was already). */
  markUndone(runId: string, at: number): Promise<boolean>;
  /** Marks entries as undone (their `detail.undone`). */
  markEntriesUndone(runId: string, seqs: readonly number[]): Promise<void>;
  getRun(space: string, id: string): Promise<DreamRunRecord | undefined>;
  /** Runs of a space, newest first. */
  listRuns(
    space: string,
    options: { limit: number; cursor?: string; states?: readonly DreamRunState[] },
  ): Promise<{ runs: DreamRunRecord[]; next_cursor: string | null }>;
  /** The entries of a run in order (after `afterSeq` when given). */
  entries(
    runId: string,
    options?: { afterSeq?: number; limit?: number },
  ): Promise<DiaryEntryRecord[]>;
  /**
   * Takes up to `units` (default 1) of a daily cap: as many as remain below `limit` on `day`
   * (YYYY-MM-DD, UTC) in this space, atomically across processes; returns how many were taken
   * (0 when the cap is reached).
   */
  claimCap(
    space: string,
    cap: DreamCap,
    day: string,
    limit: number,
    units?: number,
  ): Promise<number>;
  /** Gives back units (claimed changes that did not apply; default 1). */
  releaseCap(space: string, cap: DreamCap, day: string, units?: number): Promise<void>;
  /** Units taken on `day` per cap. */
  capUsage(space: string, day: string): Promise<Record<DreamCap, number>>;
  /** Live areas (items not forgotten, merged or superseded) with their item counts. */
  areas(space: string): Promise<{ area: string; items: number }[]>;
  /**
   * Items of the space in a live status (`active`, `candidate`, `challenged`) created before
   * `createdBefore`, not pinned, of none of `excludeKinds`, with importance below `maxImportance`,
   * with their last touch; ordered by id, paged after `afterId`.
   */
  staleCandidates(
    space: string,
    options: {
      createdBefore: number;
      maxImportance: number;
      excludeKinds: readonly string[];
      limit: number;
      afterId?: string;
    },
  ): Promise<StaleCandidate[]>;
  /** When the last run of the space (or of any space, with null) started, or undefined. */
  lastRunAt(space: string | null): Promise<number | undefined>;
}
