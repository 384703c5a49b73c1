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
import { toDiaryEntry, toDreamRun } from './diary.js';
import { previewDream, runDream } from './dream.js';
import { calibrate, type CalibrationReport } from './duplicates.js';
import type { DreamDeps, StageContext, StageRunner } from './stage.js';
import { duplicateItems, duplicatesStage } from './stage-duplicates.js';
import { foldsStage } from './stage-folds.js';
import { skillsStage } from './stage-skills.js';
import { staleStage } from './stage-stale.js';
import { undoRun } from './undo.js';

/** Every stage, in run order. */
export const STAGE_RUNNERS: readonly StageRunner[] = [
  duplicatesStage,
  foldsStage,
  staleStage,
  skillsStage,
];

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
  undo(space: string, runId: string): Promise<UndoReport> {
    return undoRun(this.deps, space, runId);
  }

  /** The similarity and overlap of each item's closest neighbour, and merges per threshold. */
  async calibrate(space: string): Promise<CalibrationReport> {
    const sc: StageContext = {
      deps: this.deps,
      space,
      shouldStop: () => false,
      meta: (reason) => ({ actor: null, reason, now: this.deps.now() }),
    };
    const { items } = await duplicateItems(sc);
    const settings = this.deps.config.dream.duplicates;
    return calibrate(items, {
      similarity: settings.similarity,
      overlap: settings.overlap,
      neighbours: settings.neighbours,
      words: await this.deps.words(),
    });
  }
}
