/**
 * The measurements of the transition benchmark, each on a store in its base state (a fresh copy of
 * the SQLite base store, or a new PostgreSQL schema), removed after the run:
 * - throughput: one transition alone in a fresh process, then direct swaps between the two models;
 * - cross-process: a serving process recalls while another process rebuilds;
 * - in-process: one process recalls while it runs the rebuild itself.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';

import type { SlowStatement } from './pg-watch.js';
import type { Phase } from './phase.js';
import { runPhase, type StandInResult, startServe, startStandIn } from './processes.js';
import type { RebuildTiming } from './rebuild.js';
import type { RecallSample } from './recall-loop.js';
import { copyStore, type OpenOptions, type StoreConfig } from './setup.js';
import { type Windows, windows } from './windows.js';

/** The new model of a run: the static variant, or the OpenAI-compatible stand-in. */
export type ModelKind = 'static' | 'openai';

/** A store in the base state for one run, and how to remove it after. */
export interface FreshStore {
  store: StoreConfig;
  release(): Promise<void>;
}

/** Where scenarios run: fresh copies of a SQLite store, or a new PostgreSQL schema each time. */
export interface Target {
  backend: 'sqlite' | 'postgres';
  /** A store in the base state for a run named `label`. */
  fresh(label: string): Promise<FreshStore>;
}

/** How the scenarios are run. */
export interface ScenarioOptions {
  seed: number;
  thinkMs: number;
  baselineMs: number;
  afterMs: number;
  swapRounds: number;
  openaiBatch: number;
  openaiDimension: number;
  /** The choice of the static variant, e.g. `static:sif_a=0.01`. */
  staticChoice: string;
  openaiModel: string;
}

/** A SQLite target: a copy of the base folder per run, in `workDir`, removed after the run. */
export function sqliteTarget(baseDir: string, workDir: string): Target {
  return {
    backend: 'sqlite',
    fresh: async (label) => {
      const dir = join(workDir, label);
      return {
        store: { path: copyStore(baseDir, dir) },
        release: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  };
}

/** Runs `measure` on a fresh store of `target` and a new model of `kind`, releasing both after. */
async function onFresh<T>(
  target: Target,
  kind: ModelKind,
  label: string,
  o: ScenarioOptions,
  measure: (store: StoreConfig, model: NewModel) => Promise<T>,
): Promise<T & { stand_in: StandInResult | null }> {
  const fresh = await target.fresh(label);
  let model: NewModel | undefined;
  try {
    model = await modelFor(kind, o);
    const result = await measure(fresh.store, model);
    return { ...result, stand_in: await model.done() };
  } finally {
    await model?.done().catch(() => null);
    await fresh.release();
  }
}

/** The model a run moves to, and the stand-in it needs (started here, stopped by `done`). */
interface NewModel {
  choice: string;
  open: OpenOptions;
  /** Stops the stand-in (once) and returns what it answered. */
  done(): Promise<StandInResult | null>;
}

async function modelFor(kind: ModelKind, o: ScenarioOptions): Promise<NewModel> {
  if (kind === 'static')
    return { choice: o.staticChoice, open: { openaiBatch: o.openaiBatch }, done: async () => null };
  const standIn = await startStandIn(o.openaiDimension);
  const open: OpenOptions = { openaiBatch: o.openaiBatch, openaiUrl: standIn.ready.url };
  let stopped: Promise<StandInResult> | undefined;
  return { choice: `openai:${o.openaiModel}`, open, done: () => (stopped ??= standIn.stop()) };
}

/** One throughput run. */
export interface ThroughputRun {
  backend: Target['backend'];
  kind: ModelKind;
  timing: RebuildTiming;
  published_after: string | null;
  direct_swaps: { to: string; ms: number; swapped: boolean }[];
  rss_mb: number;
  stand_in: StandInResult | null;
  /** PostgreSQL: statements seen running over a second during the run. */
  slow_statements?: SlowStatement[] | null;
}

/** One transition alone in a fresh process, then `swapRounds` direct swaps each way. */
export async function throughput(
  target: Target,
  kind: ModelKind,
  label: string,
  o: ScenarioOptions,
): Promise<ThroughputRun> {
  const r = await onFresh(target, kind, label, o, (store, model) =>
    runPhase<Omit<ThroughputRun, 'backend' | 'kind' | 'stand_in'>>({
      phase: 'rebuild',
      store,
      open: model.open,
      choice: model.choice,
      swapRounds: o.swapRounds,
    }),
  );
  return { backend: target.backend, kind, ...r };
}

/** One run with recall beside the rebuild. */
export interface RecallRun {
  backend: Target['backend'];
  kind: ModelKind;
  mode: 'cross-process' | 'in-process';
  warm: { first_ms: number; first_degraded: string[]; first_error: string | null };
  timing: RebuildTiming;
  windows: Windows;
  recalls_total: number;
  rss_mb: number;
  stand_in: StandInResult | null;
}

interface ServeResult {
  warm: RecallRun['warm'];
  samples: RecallSample[];
  rss_mb: number;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** A serving process recalls; after `baselineMs` another process runs the transition. */
export async function crossProcess(
  target: Target,
  kind: ModelKind,
  label: string,
  o: ScenarioOptions,
): Promise<RecallRun> {
  const r = await onFresh(target, kind, label, o, async (store, model) => {
    const serve = await startServe<{ at: number }, ServeResult>({
      phase: 'serve',
      store,
      open: { openaiBatch: o.openaiBatch },
      seed: o.seed,
      thinkMs: o.thinkMs,
    });
    await sleep(o.baselineMs);
    const rebuilt = await runPhase<{ timing: RebuildTiming }>({
      phase: 'rebuild',
      store,
      open: model.open,
      choice: model.choice,
      swapRounds: 0,
    }).catch(async (err: unknown) => {
      await serve.stop().catch(() => null);
      throw err;
    });
    await sleep(o.afterMs);
    const served = await serve.stop();
    const timeline = {
      baselineFrom: serve.ready.at,
      spawnedAt: rebuilt.spawned_at,
      afterMs: o.afterMs,
    };
    return recallRun('cross-process', served, timeline, rebuilt.timing);
  });
  return { backend: target.backend, kind, ...r };
}

/** The part of a recall run that does not depend on the mode's plumbing. */
function recallRun(
  mode: RecallRun['mode'],
  served: ServeResult,
  timeline: Parameters<typeof windows>[1],
  timing: RebuildTiming,
) {
  return {
    mode,
    warm: served.warm,
    timing,
    windows: windows(served.samples, timeline, timing),
    recalls_total: served.samples.length,
    rss_mb: served.rss_mb,
  };
}

/** One process recalls and, after `baselineMs`, runs the transition itself. */
export async function inProcess(
  target: Target,
  kind: ModelKind,
  label: string,
  o: ScenarioOptions,
): Promise<RecallRun> {
  const r = await onFresh(target, kind, label, o, async (store, model) => {
    const phase: Phase = {
      phase: 'inproc',
      store,
      open: model.open,
      seed: o.seed,
      thinkMs: o.thinkMs,
      choice: model.choice,
      baselineMs: o.baselineMs,
      afterMs: o.afterMs,
    };
    const run = await runPhase<
      ServeResult & { baseline_from: number; rebuild_at: number; timing: RebuildTiming }
    >(phase);
    const timeline = {
      baselineFrom: run.baseline_from,
      spawnedAt: run.rebuild_at,
      afterMs: o.afterMs,
    };
    return recallRun('in-process', run, timeline, run.timing);
  });
  return { backend: target.backend, kind, ...r };
}
