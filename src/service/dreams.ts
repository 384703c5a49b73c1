/**
 * Facade for consolidation (§10): previews (read-only), dream runs, diaries, undo, calibration and
 * the nightly schedule, which queues a `dream.run` job for a worker. Rules live in src/hygiene.
 */
import {
  type DreamListInput,
  dreamListSchema,
  type DreamRequestInput,
  dreamRequestSchema,
} from '../domain/dream-input.js';
import type { DreamDiary, DreamPreview, DreamRun, UndoReport } from '../domain/dreams.js';
import { EngramError } from '../domain/errors.js';
import { parseWith } from '../domain/zod.js';
import type { WordVectorLookup } from '../embed/embedder.js';
import type { AreaCount } from '../hygiene/areas.js';
import { Consolidation, type FoldResult } from '../hygiene/consolidation.js';
import type { CalibrationReport } from '../hygiene/duplicates.js';
import type { DreamDeps } from '../hygiene/stage.js';
import { type MaintenanceSchedule, startSchedule } from '../lifecycle/scheduler.js';
import { optionalStringArg, optionsArg, stringArg } from './args.js';
import type { ChangeOptions, ServiceContext } from './context.js';
import type { DreamJobRun } from './job-handlers.js';

export type { AreaCount } from '../hygiene/areas.js';
export type { FoldResult } from '../hygiene/consolidation.js';
export type { CalibrationReport } from '../hygiene/duplicates.js';

/** The consolidation facade. */
export interface DreamsFacade {
  /** What a dream run would do now, stage by stage; changes nothing (§10). */
  dreamPreview(options?: DreamRequestInput): Promise<DreamPreview>;
  /** Runs the stages now (`dry_run`: logs proposals, changes nothing) and returns the diary. */
  dreamRun(options?: DreamRequestInput): Promise<DreamDiary>;
  /** A run with its diary; the latest run of the space without an id. */
  dreamDiary(runId?: string, options?: { space?: string }): Promise<DreamDiary>;
  /** Dream runs of a space, newest first. */
  dreamRuns(options?: DreamListInput): Promise<{ runs: DreamRun[]; next_cursor: string | null }>;
  /** Restores everything a run changed that has not changed since; says what it could not. */
  dreamUndo(runId: string, options?: ChangeOptions): Promise<UndoReport>;
  /** The closest pairs' similarity and overlap, and merges per threshold (tuning `dream.duplicates`). */
  dreamCalibrate(options?: { space?: string }): Promise<CalibrationReport>;
  /** The areas of a space that hold live memories, with their counts. */
  areas(options?: { space?: string }): Promise<AreaCount[]>;
  /**
   * Moves every memory of area FROM into area TO, content unchanged, each keeping its prior area
   * for `restore`; `dry_run` lists what would move. System areas, equal names and an empty source
   * are refused.
   */
  foldArea(
    from: string,
    to: string,
    options?: ChangeOptions & { dry_run?: boolean },
  ): Promise<FoldResult>;
  /** Starts the nightly dream run (when `dream.schedule.enabled`) of a long-running process. */
  startDreamSchedule(): MaintenanceSchedule;
}

/** What the facade is built from. */
export interface DreamsParts {
  words: () => Promise<WordVectorLookup | undefined>;
  /** The decision adapter's conflict judgement, when it has one (§10). */
  conflicts?: (earlier: string, later: string, signal: AbortSignal) => Promise<number>;
  /** Queues a `dream.run` job of the space and wakes a worker, where the store keeps jobs. */
  queueRun?: (space: string) => Promise<unknown>;
}

function unavailable(backend: string): EngramError {
  return new EngramError(
    'STORE_UNAVAILABLE',
    `the ${backend} store does not support consolidation (dream runs)`,
    { rule: 'store capability: dreams' },
  );
}

/** The facade, and the run a `dream.run` job makes (with its job id and stop). */
export type DreamsModule = DreamsFacade & { dreamRunFor: DreamJobRun };

/** The public methods of the module (what an Engram offers). */
export function publicDreams(module: DreamsModule): DreamsFacade {
  const { dreamRunFor: _job, ...facade } = module;
  return facade;
}

/** The facade over the service context. */
export function dreamsFacade(ctx: ServiceContext, parts: DreamsParts): DreamsModule {
  let consolidation: Consolidation | undefined;
  const module = (): Consolidation => {
    const { store } = ctx;
    if (!store.dreams || !store.lifecycle) throw unavailable(store.capabilities.backend);
    const deps: DreamDeps = {
      config: ctx.config,
      store,
      dreams: store.dreams,
      lifecycle: store.lifecycle,
      mutate: ctx.mutate,
      log: ctx.log,
      now: ctx.now,
      words: parts.words,
      conflicts: parts.conflicts,
      vectorsPending: () => ctx.vectors.schedule(),
    };
    return (consolidation ??= new Consolidation(deps));
  };
  const request = (given: DreamRequestInput | undefined) => {
    const parsed = parseWith(dreamRequestSchema, optionsArg(given));
    return { ...parsed, space: ctx.space(parsed.space) };
  };
  return {
    dreamPreview: async (given) => {
      const r = request(given);
      return module().preview(r.space, r.stages);
    },
    dreamRun: async (given) => {
      const r = request(given);
      return module().run({ space: r.space, stages: r.stages, dryRun: r.dry_run });
    },
    dreamDiary: async (runId, given) => {
      optionalStringArg(runId, 'run_id');
      return module().diary(ctx.space(optionsArg(given).space), runId);
    },
    dreamRuns: async (given) => {
      const r = parseWith(dreamListSchema, optionsArg(given));
      return module().runs(ctx.space(r.space), { limit: r.limit ?? 20, cursor: r.cursor });
    },
    dreamUndo: async (runId, given) => {
      stringArg(runId, 'run_id');
      const options = optionsArg(given);
      const actor = optionalStringArg(options.actor, 'actor');
      return module().undo(ctx.space(options.space), runId, actor);
    },
    dreamRunFor: async (space, options) => module().run({ space, ...options }),
    areas: async (given) => module().areas(ctx.space(optionsArg(given).space)),
    foldArea: async (from, to, given) => {
      const options = optionsArg(given);
      const area = (value: string, field: string) => parseWith(ctx.schemas.move, value, field);
      return module().fold(ctx.space(options.space), area(from, 'from'), area(to, 'to'), {
        dryRun: options.dry_run === true,
        actor: optionalStringArg(options.actor, 'actor'),
        reason: optionalStringArg(options.reason, 'reason'),
      });
    },
    dreamCalibrate: async (given) => module().calibrate(ctx.space(optionsArg(given).space)),
    startDreamSchedule: () => {
      const space = ctx.config.space;
      return startSchedule({
        schedule: ctx.config.dream.schedule,
        run: async () => (parts.queueRun ? parts.queueRun(space) : module().run({ space })),
        lastRunAt: async () => ctx.store.dreams?.lastRunAt(space),
        log: ctx.log,
      });
    },
  };
}
