/**
 * Dream-run rows as both backends read them (times in epoch milliseconds), turned into the
 * records the dream store returns: a run with its stages in stage order and its entries counted
 * by stage and outcome, the stages of a new run, which time a stage change sets, and a day's cap
 * usage with zeros filled in. The backends keep only their SQL and what their driver returns.
 */
import {
  type DiaryState,
  DREAM_CAPS,
  DREAM_STAGES,
  type DreamCap,
  type DreamOutcome,
  type DreamRunState,
  type DreamStage,
  type StageState,
} from '../domain/dreams.js';
import { EngramError } from '../domain/errors.js';
import type { DreamRunRecord, DreamStore, StageRecord } from './dream-store.js';

/** What createRun is given. */
export type NewRun = Parameters<DreamStore['createRun']>[0];

/** A dream_runs row with its columns decoded (dry_run as a boolean). */
export interface RunColumns {
  id: string;
  space: string;
  dry_run: boolean;
  state: string;
  diary: string;
  reason: string | null;
  started_at: number;
  finished_at: number | null;
  undone_at: number | null;
  job_id: string | null;
}

/** A dream_stages row. */
export interface StageRow {
  run_id: string;
  stage: string;
  state: string;
  started_at: number | null;
  finished_at: number | null;
  note: string | null;
}

/** How many entries of one run have this stage and outcome. */
export interface CountRow {
  run_id: string;
  stage: string;
  outcome: string;
  n: number;
}

/** The stage states a finished run turns into `cut_short`. */
export const UNFINISHED_STAGES: readonly StageState[] = ['pending', 'running'];

const byStageOrder = (a: { stage: string }, b: { stage: string }) =>
  DREAM_STAGES.indexOf(a.stage as DreamStage) - DREAM_STAGES.indexOf(b.stage as DreamStage);

/** The stages of a new run, in stage order: those asked for `pending`, the others `skipped`. */
export function initialStages(asked: readonly DreamStage[]): StageRecord[] {
  return DREAM_STAGES.map((stage) => ({
    stage,
    state: asked.includes(stage) ? 'pending' : 'skipped',
    started_at: null,
    finished_at: null,
    note: null,
  }));
}

/** The record of a run as createRun stores it: running, its diary open, nothing logged yet. */
export function newRunRecord(run: NewRun): DreamRunRecord {
  return {
    id: run.id,
    space: run.space,
    dry_run: run.dry_run,
    state: 'running',
    diary: 'open',
    reason: null,
    stages: initialStages(run.stages),
    started_at: run.started_at,
    finished_at: null,
    undone_at: null,
    job_id: run.job_id,
    counts: {},
  };
}

/** The CONFLICT of a createRun whose id names a stored run. */
export function runExists(id: string): EngramError {
  return new EngramError('CONFLICT', `dream run ${id} exists already`, {
    field: 'id',
    rule: 'unique run id',
  });
}

/**
 * The time column a stage change sets: a stage starts when it runs and ends in any settled
 * state; going back to `pending` sets neither.
 */
export function stageTimeColumn(state: StageState): 'started_at' | 'finished_at' | null {
  if (state === 'pending') return null;
  return state === 'running' ? 'started_at' : 'finished_at';
}

function stageOf(row: StageRow): StageRecord {
  return {
    stage: row.stage as DreamStage,
    state: row.state as StageState,
    started_at: row.started_at,
    finished_at: row.finished_at,
    note: row.note,
  };
}

function countsOf(rows: readonly CountRow[]): DreamRunRecord['counts'] {
  const counts: DreamRunRecord['counts'] = {};
  for (const row of [...rows].sort(byStageOrder)) {
    const stage = row.stage as DreamStage;
    const byOutcome = (counts[stage] ??= { proposed: 0, applied: 0, skipped: 0 });
    byOutcome[row.outcome as DreamOutcome] = Number(row.n);
  }
  return counts;
}

function groupByRun<T extends { run_id: string }>(rows: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const list = out.get(row.run_id) ?? [];
    list.push(row);
    out.set(row.run_id, list);
  }
  return out;
}

/** Runs with their stages (in stage order) and entry counts, in the order of `runs`. */
export function runRecords(
  runs: readonly RunColumns[],
  stages: readonly StageRow[],
  counts: readonly CountRow[],
): DreamRunRecord[] {
  const stagesOf = groupByRun(stages);
  const countsOfRun = groupByRun(counts);
  return runs.map((run) => ({
    id: run.id,
    space: run.space,
    dry_run: run.dry_run,
    state: run.state as DreamRunState,
    diary: run.diary as DiaryState,
    reason: run.reason,
    stages: [...(stagesOf.get(run.id) ?? [])].sort(byStageOrder).map(stageOf),
    started_at: run.started_at,
    finished_at: run.finished_at,
    undone_at: run.undone_at,
    job_id: run.job_id,
    counts: countsOf(countsOfRun.get(run.id) ?? []),
  }));
}

/** A day's usage of every cap (0 for a cap not taken that day). */
export function capUsageOf(
  rows: readonly { cap: string; used: number }[],
): Record<DreamCap, number> {
  const usage = Object.fromEntries(DREAM_CAPS.map((cap) => [cap, 0])) as Record<DreamCap, number>;
  for (const row of rows)
    if ((DREAM_CAPS as readonly string[]).includes(row.cap))
      usage[row.cap as DreamCap] = Number(row.used);
  return usage;
}

/** The later of two optional times (null when both are missing). */
export function latest(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  return b === null ? a : Math.max(a, b);
}
