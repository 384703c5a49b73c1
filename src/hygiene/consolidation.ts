/**
 * Consolidation (§10) as one module: previews, runs, diaries, undo and calibration over the
 * stages, for the service facade and the `dream.run` job.
 */
import {
  DREAM_STAGES,
  type DreamDiary,
  type DreamPreview,
  type DreamRun,
  type DreamStage,
  type UndoReport,
} from '../domain/dreams.js';
import { notFound } from '../domain/errors.js';
import { type AreaCount, checkFold } from './areas.js';
import { toDiaryEntry, toDreamRun } from './diary.js';
import { previewDream, runDream } from './dream.js';
import { calibrate, type CalibrationReport } from './duplicates.js';
import type { DreamDeps, StageContext, StageRunner } from './stage.js';
import { conflictsStage } from './stage-conflicts.js';
import { duplicateItems, duplicatesStage } from './stage-duplicates.js';
import { foldsStage, itemsIn, moveArea } from './stage-folds.js';
import { skillsStage } from './stage-skills.js';
import { staleStage } from './stage-stale.js';
import { undoRun } from './undo.js';

/** Every stage, in run order. */
export const STAGE_RUNNERS: readonly StageRunner[] = [
  duplicatesStage,
  conflictsStage,
  foldsStage,
  staleStage,
  skillsStage,
];

/** Options of a fold by hand. */
export interface FoldOptions {
  dryRun: boolean;
  actor?: string;
  reason?: string;
}

/** What a fold by hand moved (or, in a dry run, would move). */
export interface FoldResult {
  from: string;
  to: string;
  dry_run: boolean;
  items: string[];
}

/** A run to make. */
export interface RunOptions {
  space: string;
  stages?: readonly DreamStage[];
  dryRun?: boolean;
  jobId?: string | null;
  stopReason?: () => string | null;
}

/** Consolidation over its dependencies. */
export class Consolidation {
  constructor(private readonly deps: DreamDeps) {}

  /** What a run would do now; writes nothing. */
  preview(space: string, stages: readonly DreamStage[] = DREAM_STAGES): Promise<DreamPreview> {
    return previewDream(this.deps, STAGE_RUNNERS, space, stages);
  }

  /** Makes a run and returns its diary. */
  async run(options: RunOptions): Promise<DreamDiary> {
    const run = await runDream(this.deps, STAGE_RUNNERS, {
      space: options.space,
      stages: options.stages ?? DREAM_STAGES,
      dryRun: options.dryRun ?? false,
      jobId: options.jobId ?? null,
      stopReason: options.stopReason,
    });
    return this.diary(options.space, run.id);
  }

  /** A run with its diary entries; the latest run of the space without an id. */
  async diary(space: string, runId?: string): Promise<DreamDiary> {
    const id = runId ?? (await this.deps.dreams.listRuns(space, { limit: 1 })).runs[0]?.id;
    const run = id === undefined ? undefined : await this.deps.dreams.getRun(space, id);
    if (!run) throw notFound('dream run', runId ?? '(latest)');
    const entries = await this.deps.dreams.entries(run.id);
    return { run: toDreamRun(run), entries: entries.map(toDiaryEntry) };
  }

  /** Runs of a space, newest first. */
  async runs(
    space: string,
    options: { limit: number; cursor?: string },
  ): Promise<{ runs: DreamRun[]; next_cursor: string | null }> {
    const page = await this.deps.dreams.listRuns(space, options);
    return { runs: page.runs.map(toDreamRun), next_cursor: page.next_cursor };
  }

  /** Restores what a run changed that has not changed since. */
  undo(space: string, runId: string, actor?: string): Promise<UndoReport> {
    return undoRun(this.deps, space, runId, actor);
  }

  /** Live areas of a space with their item counts. */
  areas(space: string): Promise<AreaCount[]> {
    return this.deps.dreams.areas(space);
  }

  /**
   * Folds one area into another by hand (§10): every item of `from` moves to `to`, content
   * unchanged, each keeping its prior area for `restore`. System areas, equal names and an empty
   * source are refused; a dry run lists what would move and changes nothing.
   */
  async fold(space: string, from: string, to: string, options: FoldOptions): Promise<FoldResult> {
    const sc = this.context(space, options.actor ?? null, options.reason ?? 'fold');
    const items = (await itemsIn(sc, from)).map((i) => i.id);
    checkFold(from, to, [{ area: from, items: items.length }]);
    const moved = options.dryRun ? items : await moveArea(sc, from, to);
    return { from, to, dry_run: options.dryRun, items: moved };
  }

  private context(space: string, actor: string | null, reason: string): StageContext {
    return {
      deps: this.deps,
      space,
      shouldStop: () => false,
      meta: () => ({ actor, reason, now: this.deps.now() }),
    };
  }

  /** The similarity and overlap of each item's closest neighbour, and merges per threshold. */
  async calibrate(space: string): Promise<CalibrationReport> {
    const { items } = await duplicateItems(this.context(space, null, 'calibrate'));
    const settings = this.deps.config.dream.duplicates;
    return calibrate(items, {
      similarity: settings.similarity,
      overlap: settings.overlap,
      neighbours: settings.neighbours,
      words: await this.deps.words(),
    });
  }
}
