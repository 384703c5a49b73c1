/**
 * Dream runs (§10): the stages in order, each logged to the run's diary as it goes. A deadline,
 * a cancel or a stopping process ends the run early: the work already logged stays, unfinished
 * stages become `cut_short`, and the diary is finalised as `partial` with the reason. A stage that
 * fails ends the run as `failed` (never reported as success). A final diary is never overwritten.
 */
import {
  DREAM_STAGES,
  type DreamPreview,
  type DreamStage,
  type PreviewEntry,
} from '../domain/dreams.js';
import { EngramError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { DreamRunRecord, NewDiaryEntry } from '../store/dream-store.js';
import { recoverIntent } from './recover.js';
import type { DreamDeps, Proposal, StageContext, StageRunner } from './stage.js';

/** A run to make. */
export interface DreamRequest {
  space: string;
  stages: readonly DreamStage[];
  dryRun: boolean;
  jobId?: string | null;
  /** Why the run must stop now (a cancel, a shutdown), or null; the deadline is added to it. */
  stopReason?: () => string | null;
}

/** Proposals applied and logged together (one transaction each, and one diary append). */
const BATCH = 200;

/** How long past its deadline a run still `running` is taken as orphaned (its process died). */
const ORPHAN_GRACE_MS = 10 * 60_000;

function deadlineMs(deps: DreamDeps): number {
  return Math.round(deps.config.dream.deadline_minutes * 60_000);
}

/** Stage runners in run order, limited to the stages asked for. */
function chosen(runners: readonly StageRunner[], stages: readonly DreamStage[]): StageRunner[] {
  return DREAM_STAGES.flatMap((s) => runners.filter((r) => r.stage === s && stages.includes(s)));
}

function context(deps: DreamDeps, space: string, actor: string, stop: () => boolean): StageContext {
  return {
    deps,
    space,
    shouldStop: stop,
    meta: (reason) => ({ actor, reason, now: deps.now() }),
  };
}

/** What a run would do now, read-only: nothing is written, not even a run record. */
export async function previewDream(
  deps: DreamDeps,
  runners: readonly StageRunner[],
  space: string,
  stages: readonly DreamStage[],
): Promise<DreamPreview> {
  const until = deps.now() + deadlineMs(deps);
  const sc = context(deps, space, 'dream:preview', () => deps.now() >= until);
  const out: DreamPreview = { space, stages: [] };
  for (const runner of chosen(runners, stages)) {
    const { proposals, complete, note } = await runner.propose(sc);
    out.stages.push({
      stage: runner.stage,
      off: runner.off(deps),
      complete,
      note: note ?? null,
      proposals: proposals.map((p) => previewEntry(runner.stage, p)),
    });
  }
  return out;
}

function previewEntry(stage: DreamStage, p: Proposal): PreviewEntry {
  return {
    stage,
    action: p.action,
    reason: p.reason,
    items: p.items,
    detail: p.detail,
    skip: p.skip ?? false,
  };
}

/**
 * Runs still `running` in the space whose process died: those of the same job (a job claimed again
 * after its process stopped) and those past their deadline with a grace. Each is finalised as
 * `interrupted` with a partial diary.
 */
async function closeOrphans(deps: DreamDeps, space: string, jobId: string | null): Promise<void> {
  const { runs } = await deps.dreams.listRuns(space, { limit: 100, states: ['running'] });
  const cutoff = deps.now() - deadlineMs(deps) - ORPHAN_GRACE_MS;
  for (const run of runs)
    if ((jobId !== null && run.job_id === jobId) || run.started_at < cutoff) {
      await settleIntent(deps, space, run.id);
      await deps.dreams.finishRun(run.id, {
        state: 'interrupted',
        diary: 'partial',
        reason: 'the process running it stopped before it finished',
        at: deps.now(),
      });
    }
}

/**
 * Logs the batch a run left between its changes and its diary entries (see recover.ts), before
 * the run is finalised; nothing when the run left none.
 */
async function settleIntent(deps: DreamDeps, space: string, runId: string): Promise<void> {
  const intent = await deps.dreams.intent(runId);
  if (!intent) return;
  const sc = context(deps, space, `dream:${runId}`, () => false);
  await deps.dreams.appendEntries(runId, await recoverIntent(sc, runId, intent));
}

/** The state a run is in as it goes. */
interface RunState {
  id: string;
  space: string;
  dryRun: boolean;
  /** Why the run stopped early, once it has. */
  stopped: string | null;
  failed: string | null;
}

/** Makes a dream run and returns its record as it ended. */
export async function runDream(
  deps: DreamDeps,
  runners: readonly StageRunner[],
  request: DreamRequest,
): Promise<DreamRunRecord> {
  const { dreams } = deps;
  await closeOrphans(deps, request.space, request.jobId ?? null);
  const started = deps.now();
  const run = await dreams.createRun({
    id: newId(started),
    space: request.space,
    dry_run: request.dryRun,
    stages: request.stages,
    started_at: started,
    job_id: request.jobId ?? null,
  });
  const state: RunState = {
    id: run.id,
    space: run.space,
    dryRun: request.dryRun,
    stopped: null,
    failed: null,
  };
  const deadline = started + deadlineMs(deps);
  const stop = () => {
    state.stopped ??=
      request.stopReason?.() ?? (deps.now() >= deadline ? 'deadline reached' : null);
    return state.stopped !== null;
  };
  const sc = context(deps, request.space, `dream:${run.id}`, stop);
  for (const runner of chosen(runners, request.stages)) {
    if (stop() || state.failed) break;
    await runStage(sc, runner, state);
  }
  await finish(deps, state);
  const ended = await dreams.getRun(request.space, run.id);
  if (!ended) throw new EngramError('INTERNAL', `dream run ${run.id} vanished`);
  return ended;
}

async function runStage(sc: StageContext, runner: StageRunner, state: RunState): Promise<void> {
  const { dreams, now } = sc.deps;
  const off = runner.off(sc.deps);
  if (off)
    return dreams.setStage(state.id, runner.stage, { state: 'skipped', at: now(), note: off });
  await dreams.setStage(state.id, runner.stage, { state: 'running', at: now() });
  try {
    const { proposals, complete, note } = await runner.propose(sc);
    let all = complete;
    for (let i = 0; i < proposals.length; i += BATCH) {
      if (sc.shouldStop()) {
        all = false;
        break;
      }
      await logBatch(sc, state, runner, proposals.slice(i, i + BATCH));
    }
    const done = all && !sc.shouldStop();
    await dreams.setStage(state.id, runner.stage, {
      state: done ? 'done' : 'cut_short',
      at: now(),
      note: done ? (note ?? null) : [note, state.stopped].filter(Boolean).join('; ') || null,
    });
  } catch (err) {
    state.failed = `stage ${runner.stage} failed: ${(err as Error).message}`;
    sc.deps.log.warn('dream stage failed', {
      run: state.id,
      stage: runner.stage,
      error: String(err),
    });
    await dreams.setStage(state.id, runner.stage, {
      state: 'failed',
      at: now(),
      note: state.failed,
    });
  }
}

/**
 * Applies (or, in a dry run, only proposes) a batch of proposals and logs each outcome in order,
 * the batch's entries in one append.
 */
async function logBatch(
  sc: StageContext,
  state: RunState,
  runner: StageRunner,
  batch: readonly Proposal[],
): Promise<void> {
  const apply = state.dryRun ? [] : batch.filter((p) => !p.skip);
  if (apply.length > 0 && !(await recordIntent(sc, state, runner, apply))) return;
  const outcomes = apply.length > 0 ? await runner.apply(sc, apply) : [];
  const at = sc.deps.now();
  let next = 0;
  const entries = batch.map((p): NewDiaryEntry => {
    const base = { stage: runner.stage, action: p.action, items: p.items, at };
    if (p.skip || state.dryRun)
      return {
        ...base,
        outcome: p.skip ? 'skipped' : 'proposed',
        reason: p.reason,
        detail: p.detail,
      };
    const done = outcomes[next++]!;
    return done.outcome === 'applied'
      ? {
          ...base,
          items: done.items ?? p.items,
          outcome: 'applied',
          reason: p.reason,
          detail: done.detail,
        }
      : { ...base, outcome: 'skipped', reason: done.reason, detail: p.detail };
  });
  if (!(await sc.deps.dreams.appendEntries(state.id, entries)))
    state.stopped ??= 'the diary was finalised by another process';
}

/** Records a batch before applying it (write-ahead); false when the diary was finalised. */
async function recordIntent(
  sc: StageContext,
  state: RunState,
  runner: StageRunner,
  apply: readonly Proposal[],
): Promise<boolean> {
  const proposals = apply.map(({ action, items, reason, detail }) => ({
    action,
    items,
    reason,
    detail,
  }));
  const at = sc.deps.now();
  if (await sc.deps.dreams.setIntent(state.id, { stage: runner.stage, proposals, at })) return true;
  state.stopped ??= 'the diary was finalised by another process';
  return false;
}

async function finish(deps: DreamDeps, state: RunState): Promise<void> {
  // A stage that failed between a batch's changes and its entries left the batch's intent.
  await settleIntent(deps, state.space, state.id);
  const at = deps.now();
  const end = state.failed
    ? ({ state: 'failed', diary: 'partial', reason: state.failed } as const)
    : state.stopped
      ? ({ state: 'cut_short', diary: 'partial', reason: state.stopped } as const)
      : ({ state: 'completed', diary: 'final', reason: null } as const);
  await deps.dreams.finishRun(state.id, { ...end, at });
}
