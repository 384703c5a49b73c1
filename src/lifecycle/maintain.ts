/**
 * The decay job (§7.2, §7.3): recompute every strength from stored facts, promote candidates,
 * archive faded active items, and report a histogram and the edge cases worth a look. The plan is
 * pure; `runMaintenance` takes the backup first and applies the plan in one transaction.
 */
import { EngramError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { Kind, Status } from '../domain/types.js';
import type {
  DecayFacts,
  LifecycleStore,
  LifecycleTransition,
  MaintenanceWrite,
  StrengthUpdate,
} from '../store/lifecycle-store.js';
import { type BackupResult, backupWriter, type ExportBackup, takeBackup } from './backup.js';
import { effectiveBase, type LifecycleConfig, peakStrength, strengthAt } from './decay.js';

/** One planned status change, as reported. */
export interface TransitionReport {
  id: string;
  space: string;
  kind: Kind;
  area: string;
  from: Status;
  to: Status;
  reason: string;
  strength: number;
  importance: number;
}

/** Items worth a look before (or after) a run, each list capped with its full count. */
export interface EdgeCases {
  /** Active items within 0.05 above the archive threshold: they go at the next runs. */
  near_archive: EdgeList;
  /** Candidates within 0.05 below the promotion threshold. */
  near_promotion: EdgeList;
  /** Important items (importance >= important_threshold) archived by this run. */
  important_archived: EdgeList;
  /** Pinned items that would be below the archive threshold if they were not pinned. */
  pinned_held: EdgeList;
}

/** A capped list of ids with its total. */
export interface EdgeList {
  total: number;
  ids: string[];
}

/** One bucket of the strength histogram. */
export interface HistogramBucket {
  from: number;
  to: number;
  count: number;
}

/** What a maintenance run did (or, dry, would do). */
export interface MaintenanceReport {
  dry_run: boolean;
  space: string | null;
  at: string;
  items_scanned: number;
  strength_updates: number;
  promoted: number;
  archived: number;
  transitions: TransitionReport[];
  transitions_total: number;
  histogram: HistogramBucket[];
  edge_cases: EdgeCases;
  backup: BackupResult | null;
  run_id: string | null;
  timings_ms: Record<string, number>;
}

/** Options of one run. */
export interface MaintainOptions {
  /** A space, or null/undefined for every space (backups always cover the whole store). */
  space?: string | null;
  dryRun?: boolean;
  /** How many transitions the report lists (the totals count all). */
  listLimit?: number;
  /** Called while writing; a throw rolls the whole run back. */
  onProgress?: (done: number, total: number) => void;
}

/** The plan of one run, before it is written. */
export interface MaintenancePlan {
  updates: StrengthUpdate[];
  transitions: { transition: LifecycleTransition; report: TransitionReport }[];
  histogram: HistogramBucket[];
  edge_cases: EdgeCases;
  scanned: number;
}

const EDGE_LIMIT = 20;
const EDGE_MARGIN = 0.05;
const EPSILON = 1e-12;

function edge(): EdgeList {
  return { total: 0, ids: [] };
}

function note(list: EdgeList, id: string): void {
  list.total++;
  if (list.ids.length < EDGE_LIMIT) list.ids.push(id);
}

function emptyHistogram(): HistogramBucket[] {
  return Array.from({ length: 10 }, (_, i) => ({ from: i / 10, to: (i + 1) / 10, count: 0 }));
}

function bucketOf(strength: number): number {
  return Math.min(9, Math.max(0, Math.floor(strength * 10)));
}

function transition(
  f: DecayFacts,
  to: Status,
  from: Status,
  reason: string,
  strength: number,
  now: number,
) {
  return {
    transition: {
      id: f.id,
      from,
      to,
      reason,
      event_id: newId(now),
      prior: { status: from, at: new Date(now).toISOString(), reason },
    },
    report: {
      id: f.id,
      space: f.space,
      kind: f.kind,
      area: f.area,
      from,
      to,
      reason,
      strength,
      importance: f.importance,
    },
  };
}

/** Decides the run for the given facts at `now` (pure: no I/O). */
export function planMaintenance(
  facts: readonly DecayFacts[],
  now: number,
  config: LifecycleConfig,
): MaintenancePlan {
  const plan: MaintenancePlan = {
    updates: [],
    transitions: [],
    histogram: emptyHistogram(),
    edge_cases: {
      near_archive: edge(),
      near_promotion: edge(),
      important_archived: edge(),
      pinned_held: edge(),
    },
    scanned: facts.length,
  };
  for (const f of facts) planOne(plan, f, now, config);
  return plan;
}

function planOne(plan: MaintenancePlan, f: DecayFacts, now: number, config: LifecycleConfig) {
  const strength = strengthAt(f, now, config);
  const update: StrengthUpdate | undefined =
    Math.abs(strength - f.strength) > EPSILON ? { id: f.id, strength } : undefined;
  plan.histogram[bucketOf(strength)]!.count++;
  let status = f.status;
  if (status === 'candidate' && peakStrength(f, config) >= config.promote_threshold) {
    plan.transitions.push(transition(f, 'active', status, 'promotion', strength, now));
    // The base a candidate decayed from stays its base once it is active.
    if (f.base === null) {
      const base = effectiveBase(f, config);
      if (update) update.base = base;
      else plan.updates.push({ id: f.id, strength, base });
    }
    status = 'active';
  } else if (
    status === 'candidate' &&
    peakStrength(f, config) >= config.promote_threshold - EDGE_MARGIN
  )
    note(plan.edge_cases.near_promotion, f.id);
  if (update) plan.updates.push(update);
  if (status === 'active' && !f.pinned) {
    if (strength < config.archive_threshold) {
      plan.transitions.push(transition(f, 'archived', status, 'decay', strength, now));
      if (f.importance >= config.important_threshold)
        note(plan.edge_cases.important_archived, f.id);
    } else if (strength < config.archive_threshold + EDGE_MARGIN)
      note(plan.edge_cases.near_archive, f.id);
  }
  if (f.pinned && strengthAt({ ...f, pinned: false }, now, config) < config.archive_threshold)
    note(plan.edge_cases.pinned_held, f.id);
}

/** What a run needs. */
export interface MaintainDeps {
  lifecycle: LifecycleStore;
  config: LifecycleConfig;
  /** The store file, for the default backup folder; null when the store has no file. */
  storePath: string | null;
  /** Whether the backend can take a consistent online backup. */
  onlineBackup: boolean;
  /** The backup of a backend without a database file to copy: a JSONL export (src/transfer). */
  exportBackup: ExportBackup;
  now: () => number;
}

/** Conversation cooldown rows untouched for this long are dropped by maintenance. */
const CONVERSATION_TTL_MS = 30 * 86_400_000;

function counts(plan: MaintenancePlan) {
  return {
    promoted: plan.transitions.filter((t) => t.transition.to === 'active').length,
    archived: plan.transitions.filter((t) => t.transition.to === 'archived').length,
  };
}

function report(
  plan: MaintenancePlan,
  options: MaintainOptions,
  at: number,
  extra: Pick<MaintenanceReport, 'backup' | 'run_id' | 'timings_ms'>,
): MaintenanceReport {
  const listLimit = options.listLimit ?? 1000;
  return {
    dry_run: options.dryRun ?? false,
    space: options.space ?? null,
    at: new Date(at).toISOString(),
    items_scanned: plan.scanned,
    strength_updates: plan.updates.length,
    ...counts(plan),
    transitions: plan.transitions.slice(0, listLimit).map((t) => t.report),
    transitions_total: plan.transitions.length,
    histogram: plan.histogram,
    edge_cases: plan.edge_cases,
    ...extra,
  };
}

/** A run's report, and every item whose status it changed (for write observers). */
export interface MaintenanceOutcome {
  report: MaintenanceReport;
  changed: { space: string; id: string; operation: string }[];
}

/** Runs maintenance: dry (read only) or real (backup, then everything in one transaction). */
export async function runMaintenance(
  deps: MaintainDeps,
  options: MaintainOptions = {},
): Promise<MaintenanceOutcome> {
  const started = performance.now();
  const space = options.space ?? null;
  const now = deps.now();
  if (options.dryRun) {
    const plan = planMaintenance(await deps.lifecycle.decayFacts(space), now, deps.config);
    const dry = report(plan, options, now, {
      backup: null,
      run_id: null,
      timings_ms: { total: elapsed(started) },
    });
    return { report: dry, changed: [] };
  }
  const backup = await backupFirst(deps, now);
  const backedUp = performance.now();
  let plan: MaintenancePlan | undefined;
  const runId = newId(now);
  await deps.lifecycle.applyMaintenance(
    space,
    (facts): MaintenanceWrite => {
      plan = planMaintenance(facts, now, deps.config);
      return {
        updates: plan.updates,
        transitions: plan.transitions.map((t) => t.transition),
        run: {
          id: runId,
          space,
          started_at: now,
          finished_at: now,
          backup_path: backup?.path ?? null,
          summary: { items_scanned: plan.scanned, updates: plan.updates.length, ...counts(plan) },
        },
        prune_conversations_before: now - CONVERSATION_TTL_MS,
      };
    },
    options.onProgress,
  );
  if (!plan) throw new EngramError('INTERNAL', 'maintenance ran without a plan');
  const done = report(plan, options, now, {
    backup,
    run_id: runId,
    timings_ms: { backup: round(backedUp - started), total: elapsed(started) },
  });
  const changed = plan.transitions.map((t) => ({
    space: t.report.space,
    id: t.report.id,
    operation: t.report.reason,
  }));
  return { report: done, changed };
}

async function backupFirst(deps: MaintainDeps, now: number): Promise<BackupResult | null> {
  if (!deps.config.backup.enabled || deps.storePath === null || !deps.onlineBackup) return null;
  return takeBackup(backupWriter(deps.lifecycle, deps.exportBackup), {
    storePath: deps.storePath,
    dir: deps.config.backup.dir,
    keepDays: deps.config.backup.keep_days,
    now,
  });
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

function elapsed(started: number): number {
  return round(performance.now() - started);
}
