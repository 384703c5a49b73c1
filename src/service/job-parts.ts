/**
 * The job runner and worker of one engram process, built from the configuration (§11): the
 * handlers of every job kind, the lease, deadline and retry settings, and the periodic checks
 * that queue due work (vector backfill, graph catch-up) in a long-lived process.
 */
import type { Config } from '../config/schema.js';
import { EngramError } from '../domain/errors.js';
import type { JobKind, JobRecord, NewJob } from '../domain/jobs.js';
import type { GraphMaintainer } from '../graph/maintainer.js';
import { backoffMs, type BackoffPolicy } from '../jobs/backoff.js';
import { JobRunner } from '../jobs/runner.js';
import { JobWorker, type PeriodicCheck } from '../jobs/worker.js';
import type { Lifecycle } from '../lifecycle/lifecycle.js';
import type { ServiceContext } from './context.js';
import { type DreamJobRun, jobHandlers } from './job-handlers.js';
import type { JobsParts } from './jobs.js';

/** How often a long-lived worker looks for stale graph items (a crash can leave some). */
const GRAPH_CHECK_MS = 10 * 60_000;

/** The retry spacing of jobs and of items' work, from the configuration. */
export function backoffPolicy(config: Config): BackoffPolicy {
  return { baseMs: config.worker.retry_base_ms, maxMs: config.worker.retry_max_ms, jitter: 0.2 };
}

/** Delay before an item's failed work is tried again, or null once its attempts are used up. */
export function itemRetry(config: Config): (attempts: number) => number | null {
  const policy = backoffPolicy(config);
  return (attempts) =>
    attempts >= config.worker.item_max_attempts ? null : backoffMs(policy, attempts);
}

/** Queues a job with the configured attempt budget (or returns the waiting one doing the same). */
export function queueJob(
  ctx: ServiceContext,
  job: NewJob,
): Promise<{ job: JobRecord; created: boolean }> {
  const jobs = ctx.store.jobs;
  if (!jobs)
    throw new EngramError('CONFLICT', 'this store keeps no background jobs', {
      rule: 'a store with jobs',
    });
  return jobs.enqueue({ max_attempts: ctx.config.worker.max_attempts, ...job });
}

/** Queues a backfill when items wait for a vector. */
function backfillCheck(ctx: ServiceContext): PeriodicCheck {
  return {
    name: 'vectors.backfill',
    everyMs: ctx.config.server.backfill_interval_ms,
    async run() {
      if ((await ctx.store.pendingVectors(1)).length === 0) return;
      await queueJob(ctx, { kind: 'vectors.backfill', dedupe_key: 'vectors.backfill' });
    },
  };
}

/** Queues the rebuild of a transition whose job ended without finishing it (e.g. attempts used up). */
function rebuildCheck(ctx: ServiceContext): PeriodicCheck {
  return {
    name: 'models.rebuild',
    everyMs: ctx.config.server.backfill_interval_ms,
    async run() {
      const model = await ctx.store.models?.targetId();
      if (model === undefined) return;
      // A failed rebuild waits for `engram jobs retry`, like every failed job.
      const page = await ctx.store.jobs?.listJobs({
        kinds: ['models.rebuild'],
        states: ['queued', 'running', 'failed'],
        limit: 20,
      });
      if (page?.jobs.some((j) => j.payload.model === model)) return;
      await queueJob(ctx, {
        kind: 'models.rebuild',
        payload: { model },
        dedupe_key: 'models.rebuild',
      });
    },
  };
}

/** Queues a graph catch-up when items of the configured space have a missing or stale extraction. */
function graphCheck(ctx: ServiceContext, maintainer: GraphMaintainer): PeriodicCheck {
  return {
    name: 'graph.catch_up',
    everyMs: GRAPH_CHECK_MS,
    async run() {
      const space = ctx.config.space;
      if ((await maintainer.staleCount(space)) === 0) return;
      await queueJob(ctx, {
        kind: 'graph.catch_up',
        space,
        dedupe_key: `graph.catch_up:${space}`,
      });
    },
  };
}

/** The runner, and a worker built on first use, for a process over `ctx`. */
export function jobParts(
  ctx: ServiceContext,
  deps: { maintainer: GraphMaintainer | undefined; lifecycle: Lifecycle; dream?: DreamJobRun },
): JobsParts & { backfillWorker: () => JobWorker; stopWorker: (graceMs: number) => Promise<void> } {
  const { config, log } = ctx;
  const runner = new JobRunner(ctx.store.jobs!, jobHandlers({ ctx, ...deps }), {
    leaseMs: config.worker.lease_ms,
    deadlineMs: Math.round(config.worker.deadline_minutes * 60_000),
    backoff: backoffPolicy(config),
    log,
  });
  const checks = [backfillCheck(ctx), rebuildCheck(ctx)];
  if (deps.maintainer) checks.push(graphCheck(ctx, deps.maintainer));
  let full: JobWorker | undefined;
  let backfillOnly: JobWorker | undefined;
  // A worker queues periodic work only of the kinds it runs itself.
  const build = (kinds?: JobKind[]) =>
    new JobWorker(runner, {
      pollMs: config.worker.poll_ms,
      log,
      checks: checks.filter((c) => !kinds || kinds.includes(c.name as JobKind)),
      kinds,
    });
  return {
    runner,
    worker: () => {
      if (!full) {
        // The process now runs every kind: a backfill-only worker it had stops.
        void backfillOnly?.stop(0);
        full = build();
      }
      return full;
    },
    workerState: () => (full ?? backfillOnly)?.state() ?? null,
    // A library process or MCP server fills its own writes' vectors; other kinds wait for a
    // worker (`engram serve`, `engram worker`).
    backfillWorker: () => full ?? (backfillOnly ??= build(['vectors.backfill'])),
    stopWorker: async (graceMs) => {
      await Promise.all([full?.stop(graceMs), backfillOnly?.stop(graceMs)]);
    },
  };
}
