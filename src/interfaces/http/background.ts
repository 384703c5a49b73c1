/**
 * The background work of the service process (§11): its job worker (when `worker.enabled`), a
 * write observer that queues the vector backfill and wakes the worker after writes that left items
 * vector-pending, and the nightly maintenance schedule (§7.3), which queues maintenance as a job
 * for whichever worker takes it (this one, or an `engram worker` on the same store), and the
 * nightly dream run (§10) when it is enabled, queued the same way.
 */
import type { Engram } from '../../app.js';
import type { Logger } from '../../domain/log.js';
import type { JobWorker } from '../../jobs/worker.js';
import type { MaintenanceSchedule } from '../../lifecycle/scheduler.js';

/** The service's background work. */
export interface ServiceBackground {
  /** This process's job worker (stopped from the start when `worker.enabled` is false). */
  worker: JobWorker;
  /** Whether this process runs jobs. */
  enabled: boolean;
  /** Starts the worker and the schedule (after the service listens). */
  start(): void;
  /** Stops the schedule and the worker; a running job stops at its next checkpoint. */
  stop(graceMs: number): Promise<void>;
}

/** Queues the vector backfill (joining a waiting one) and wakes the worker for it. */
function queueBackfill(engram: Engram, worker: JobWorker, log: Logger): void {
  engram.enqueueJob({ kind: 'vectors.backfill', dedupe_key: 'vectors.backfill' }).then(
    () => worker.nudge(),
    (err: unknown) => log.warn('could not queue the vector backfill', { error: String(err) }),
  );
}

/** Starts the nightly schedule when the store keeps maintenance runs; logs why not otherwise. */
function startMaintenanceJobs(engram: Engram, log: Logger): MaintenanceSchedule | undefined {
  if (!engram.storeForTransfer.lifecycle) {
    log.warn('maintenance schedule not started', { error: 'the store keeps no lifecycle state' });
    return undefined;
  }
  // Each night queues maintenance as a job for whichever worker takes it.
  return engram.startMaintenanceSchedule();
}

/**
 * The background work of a service over `engram`. The worker is built here, before any write,
 * so it runs every kind of job (a worker first built for a write runs only the backfill).
 */
export function serviceBackground(engram: Engram, log: Logger): ServiceBackground {
  const worker = engram.jobWorker();
  const enabled = engram.config.worker.enabled;
  if (!enabled) void worker.stop(0);
  engram.addWriteObserver({
    name: 'job-backfill',
    onWrite: (event) => {
      if (enabled && 'items' in event && event.items.some((i) => i.vector_state === 'pending'))
        queueBackfill(engram, worker, log);
    },
  });
  let schedule: MaintenanceSchedule | undefined;
  let dreams: MaintenanceSchedule | undefined;
  return {
    worker,
    enabled,
    start() {
      if (enabled) worker.start();
      schedule = startMaintenanceJobs(engram, log);
      // The nightly dream run (§10) when `dream.schedule.enabled`, queued as a job like maintenance.
      if (engram.storeForTransfer.dreams) dreams = engram.startDreamSchedule();
    },
    async stop(graceMs) {
      schedule?.stop();
      dreams?.stop();
      await worker.stop(graceMs);
    },
  };
}
