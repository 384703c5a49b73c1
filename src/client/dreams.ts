/**
 * Consolidation and areas over HTTP (`/dream`, `/areas`), with the library's method names and
 * answers: preview, run, diary, runs, undo, calibrate; the areas and folding one into another.
 */
import { type Calls, fields, seg } from './calls.js';
import { EngramClientError } from './errors.js';
import type { ChangeOptions, Schemas, SpaceOptions } from './types.js';

/** A consolidation stage. */
export type DreamStage = NonNullable<Schemas['DreamRunBody']['stages']>[number];
/** Options of a dream preview: the stages to look at (default: all). */
export type DreamPreviewRequest = { stages?: DreamStage[] } & SpaceOptions;
/** Options of a dream run: the stages, and `dry_run` (log proposals, change nothing). */
export type DreamRunRequest = Schemas['DreamRunBody'] & SpaceOptions;
/** Options of a run listing. */
export type DreamListRequest = { limit?: number; cursor?: string } & SpaceOptions;

/** The consolidation and area methods of EngramClient. */
export interface DreamMethods {
  /** What a dream run would do now, stage by stage; changes nothing. */
  dreamPreview(options?: DreamPreviewRequest): Promise<Schemas['DreamPreview']>;
  /** Runs the stages now and answers the run with its diary (admin role). */
  dreamRun(options?: DreamRunRequest): Promise<Schemas['DreamDiary']>;
  /** A run with its diary; the latest run of the space without an id. */
  dreamDiary(runId?: string, options?: SpaceOptions): Promise<Schemas['DreamDiary']>;
  /** Dream runs of a space, newest first. */
  dreamRuns(options?: DreamListRequest): Promise<Schemas['DreamRunPage']>;
  /** Restores what a run changed and nothing has changed since (admin role). */
  dreamUndo(runId: string, options?: SpaceOptions): Promise<Schemas['DreamUndoReport']>;
  /** Near-duplicate scores and merges per threshold, to tune `dream.duplicates`. */
  dreamCalibrate(options?: SpaceOptions): Promise<Schemas['DreamCalibration']>;
  /** The areas of a space that hold live memories, with their counts. */
  areas(options?: SpaceOptions): Promise<Schemas['AreaCount'][]>;
  /** Moves every memory of area FROM into TO (`dry_run`: lists what would move). */
  foldArea(
    from: string,
    to: string,
    options?: ChangeOptions & { dry_run?: boolean },
  ): Promise<Schemas['AreaFoldResult']>;
}

/** The consolidation and area methods over the given calls. */
export function dreamMethods(calls: Calls): DreamMethods {
  const diary = (runId: string, options: SpaceOptions | undefined) =>
    calls.inSpace<Schemas['DreamDiary']>(options, {
      method: 'GET',
      path: `/dream/runs/${seg(runId)}`,
    });
  const runs = (options: DreamListRequest | undefined) =>
    calls.inSpace<Schemas['DreamRunPage']>(options, {
      method: 'GET',
      path: '/dream/runs',
      query: fields(options),
    });
  return {
    dreamPreview: (options) =>
      calls.inSpace(options, { method: 'GET', path: '/dream/preview', query: fields(options) }),
    dreamRun: (options) =>
      calls.inSpace(options, { method: 'POST', path: '/dream/runs', body: fields(options) }),
    async dreamDiary(runId, options) {
      if (runId !== undefined) return diary(runId, options);
      const latest = (await runs({ ...options, limit: 1 })).runs[0];
      if (latest === undefined)
        throw new EngramClientError({
          code: 'NOT_FOUND',
          message: 'dream run (latest) not found',
          status: 404,
          details: { id: '(latest)' },
        });
      return diary(latest.id, options);
    },
    dreamRuns: runs,
    dreamUndo: (runId, options) =>
      calls.inSpace(options, { method: 'POST', path: `/dream/runs/${seg(runId)}/undo` }),
    dreamCalibrate: (options) =>
      calls.inSpace(options, { method: 'GET', path: '/dream/calibrate' }),
    areas: async (options) =>
      (await calls.inSpace<Schemas['AreaList']>(options, { method: 'GET', path: '/areas' })).areas,
    foldArea: (from, to, options) =>
      calls.inSpace(options, {
        method: 'POST',
        path: '/areas/fold',
        body: { ...fields(options), from, to },
      }),
  };
}
