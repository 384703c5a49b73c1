/**
 * The kinds of background work engram runs as jobs (§11), each over the capability that does it:
 * the vector backfill, the graph's catch-up and rebuild, the lifecycle's maintenance and the
 * rebuild of a model transition.
 */
import type { DreamDiary, DreamStage } from '../domain/dreams.js';
import { EngramError } from '../domain/errors.js';
import type { JobData } from '../domain/jobs.js';
import type { GraphMaintainer, RebuildCheckpoint } from '../graph/maintainer.js';
import {
  type JobContext,
  type JobHandler,
  type JobResult,
  PermanentJobError,
} from '../jobs/runner.js';
import type { MaintainInput } from '../lifecycle/input.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import { rebuildProgress, runRebuild } from '../models/rebuild.js';
import type { ServiceContext } from './context.js';

/** A dream run made by a job (§10), stopping when the job must. */
export type DreamJobRun = (
  space: string,
  options: {
    stages?: DreamStage[];
    dryRun?: boolean;
    jobId: string;
    stopReason: () => string | null;
  },
) => Promise<DreamDiary>;

/** What the handlers act through. */
export interface HandlerDeps {
  ctx: ServiceContext;
  maintainer: GraphMaintainer | undefined;
  lifecycle: Lifecycle;
  dream?: DreamJobRun;
}

const num = (data: JobData | null, key: string) => {
  const value = data?.[key];
  return typeof value === 'number' ? value : 0;
};

/** The space a job's payload names, validated. */
function spaceOf(deps: HandlerDeps, job: JobContext['job']): string {
  const space = job.space ?? job.payload.space;
  if (typeof space !== 'string') throw new PermanentJobError('the job names no space');
  return deps.ctx.space(space);
}

function graphMaintainer(deps: HandlerDeps): GraphMaintainer {
  if (!deps.maintainer)
    throw new PermanentJobError('the knowledge graph is disabled (graph.enabled: false)');
  return deps.maintainer;
}

/** Stops early with what is done, or reports all done. */
function result(ctx: JobContext, progress: JobData, finished: boolean): JobResult {
  return finished && !ctx.shouldStop() ? { done: true, progress } : { done: false, progress };
}

/** Fills vector-pending items; a failing item is recorded on that item (see VectorSupply). */
const backfill = (deps: HandlerDeps): JobHandler => ({
  kind: 'vectors.backfill',
  async run(job) {
    const before = num(job.job.progress, 'filled');
    let filled = before;
    await deps.ctx.vectors.backfill({
      shouldStop: job.shouldStop,
      onProgress: (done) => (filled = before + done),
    });
    return result(job, { filled }, true);
  },
});

/** Extracts the items whose stored extraction is missing or stale (after a crash, a new extractor). */
const graphCatchUp = (deps: HandlerDeps): JobHandler => ({
  kind: 'graph.catch_up',
  async run(job) {
    const before = num(job.job.progress, 'extracted');
    const done = await graphMaintainer(deps).catchUp(
      spaceOf(deps, job.job),
      undefined,
      job.shouldStop,
    );
    return result(job, { extracted: before + done }, true);
  },
});

/** Extracts every item again, page by page, continuing from its checkpoint after a stop. */
const graphRebuild = (deps: HandlerDeps): JobHandler => ({
  kind: 'graph.rebuild',
  async run(job) {
    const progress = job.job.progress;
    const from: RebuildCheckpoint = {
      done: num(progress, 'done'),
      cursor: typeof progress?.cursor === 'string' ? progress.cursor : null,
    };
    let pending: Promise<void> = Promise.resolve();
    const report = await graphMaintainer(deps).rebuild(
      spaceOf(deps, job.job),
      (p) => {
        // Each page done is a checkpoint: a crash continues after it.
        pending = pending.then(() => job.checkpoint({ done: p.done, cursor: p.cursor ?? null }));
      },
      { from, shouldStop: job.shouldStop },
    );
    await pending;
    const { space, items, entities, edges, done, cursor } = report;
    return result(job, { space, items, entities, edges, done, cursor }, cursor === null);
  },
});

/** Decay and status transitions (§7); one transaction, so it either ran or did not. */
const maintain = (deps: HandlerDeps): JobHandler => ({
  kind: 'lifecycle.maintain',
  async run(job) {
    try {
      const report = await deps.lifecycle.maintain(job.job.payload as MaintainInput);
      return { done: true, progress: { report: report as unknown as JobData } };
    } catch (err) {
      if (err instanceof EngramError && err.code === 'INVALID_INPUT')
        throw new PermanentJobError(err.message);
      throw err;
    }
  },
});

/**
 * Fills the transition target's vectors and publishes it when complete (§8); a job whose model is
 * no longer the target (cancelled, or another chosen) ends at once.
 */
const modelRebuild = (deps: HandlerDeps): JobHandler => ({
  kind: 'models.rebuild',
  async run(job) {
    const { ctx } = deps;
    const models = ctx.store.models;
    if (!models) throw new PermanentJobError('this store keeps no model records');
    const id = job.job.payload.model;
    if (typeof id !== 'string') throw new PermanentJobError('the job names no model');
    const target = (await models.list()).find((m) => m.id === id && m.role === 'target');
    if (!target) return { done: true, progress: { ...job.job.progress, superseded: true } };
    const outcome = await runRebuild(
      {
        store: ctx.store,
        models,
        vectors: ctx.vectors,
        log: job.log,
        batch: ctx.config.embedder.backfill_batch,
        now: ctx.now,
      },
      target,
      rebuildProgress(id, job.job.progress),
      {
        shouldStop: job.shouldStop,
        checkpoint: (p) => job.checkpoint({ ...p }),
      },
    );
    const progress: JobData = { ...outcome.progress, superseded: outcome.state === 'superseded' };
    return outcome.state === 'stopped' ? { done: false, progress } : { done: true, progress };
  },
});

/**
 * A dream run (§10) in the job's space. A run cut short by the job's stop (deadline, cancel,
 * shutdown) has finalised its diary as partial: the job ends, and the next night runs again.
 */
const dreamRun = (deps: HandlerDeps): JobHandler => ({
  kind: 'dream.run',
  async run(job) {
    if (!deps.dream) throw new PermanentJobError('this store keeps no dream runs');
    const { payload } = job.job;
    const stages = Array.isArray(payload.stages) ? (payload.stages as DreamStage[]) : undefined;
    const diary = await deps.dream(spaceOf(deps, job.job), {
      stages,
      dryRun: payload.dry_run === true,
      jobId: job.job.id,
      stopReason: () =>
        job.shouldStop() ? `the job stopped (${String(job.signal.reason)})` : null,
    });
    const { id, state, diary: final, reason } = diary.run;
    return { done: true, progress: { run_id: id, state, diary: final, reason } };
  },
});

/** Every handler, over the given capabilities. */
export function jobHandlers(deps: HandlerDeps): JobHandler[] {
  return [
    backfill(deps),
    graphCatchUp(deps),
    graphRebuild(deps),
    maintain(deps),
    modelRebuild(deps),
    dreamRun(deps),
  ];
}
