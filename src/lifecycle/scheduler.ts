/**
 * The maintenance schedule of a long-running service process (HTTP or MCP server): one run a
 * day at `lifecycle.schedule.time` (local time, or UTC). Several processes may share a store, so
 * a process skips its run when another one ran maintenance in the last 20 hours.
 */
import type { Logger } from '../domain/log.js';
import { DAY_MS } from './decay.js';

/** The schedule settings. */
export interface ScheduleConfig {
  enabled: boolean;
  time: string;
  utc: boolean;
}

/** A running schedule. */
export interface MaintenanceSchedule {
  /** When the next run is due (ISO), or null when the schedule is off or stopped. */
  readonly next_run_at: string | null;
  stop(): void;
}

/** What the scheduler calls. */
export interface SchedulerDeps {
  schedule: ScheduleConfig;
  /** Runs maintenance over the whole store. */
  run: () => Promise<unknown>;
  /** When maintenance last started (any process), or undefined. */
  lastRunAt: () => Promise<number | undefined>;
  log: Logger;
  /** Wall clock (the schedule follows real time). */
  clock?: () => number;
  /** Timer, replaceable in tests. */
  setTimer?: (fn: () => void, ms: number) => { unref?: () => void } | unknown;
  clearTimer?: (handle: unknown) => void;
}

const RECENT_RUN_MS = 20 * 3_600_000;

/** The next time of day `HH:MM` strictly after `now` (local time unless `utc`). */
export function nextRunAt(now: number, time: string, utc: boolean): number {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const d = new Date(now);
  if (utc) d.setUTCHours(h, m, 0, 0);
  else d.setHours(h, m, 0, 0);
  let at = d.getTime();
  while (at <= now) {
    const next = new Date(at + DAY_MS);
    // Re-anchor to the wall-clock time so daylight-saving changes do not drift the run.
    if (utc) next.setUTCHours(h, m, 0, 0);
    else next.setHours(h, m, 0, 0);
    at = next.getTime() > at ? next.getTime() : at + DAY_MS;
  }
  return at;
}

/** Starts the daily schedule; returns a handle to stop it. */
export function startSchedule(deps: SchedulerDeps): MaintenanceSchedule {
  const clock = deps.clock ?? Date.now;
  const setTimer = deps.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimer ?? ((h: unknown) => clearTimeout(h as NodeJS.Timeout));
  let handle: unknown;
  let next: number | null = null;
  let stopped = !deps.schedule.enabled;

  const arm = () => {
    if (stopped) return;
    next = nextRunAt(clock(), deps.schedule.time, deps.schedule.utc);
    handle = setTimer(() => void fire(), Math.max(0, next - clock()));
    (handle as { unref?: () => void } | undefined)?.unref?.();
  };

  const fire = async () => {
    if (stopped) return;
    try {
      const last = await deps.lastRunAt();
      if (last !== undefined && clock() - last < RECENT_RUN_MS)
        deps.log.info('scheduled maintenance skipped: another run finished recently');
      else await deps.run();
    } catch (err) {
      // A closed store ends the schedule; anything else is retried at the next run.
      if ((err as { details?: { rule?: string } }).details?.rule === 'open store') {
        stopped = true;
        return;
      }
      if ((err as { code?: string }).code === 'CONFLICT')
        deps.log.info('scheduled maintenance skipped: another process is running it');
      else
        deps.log.warn('scheduled maintenance failed; the next run retries', { error: String(err) });
    }
    arm();
  };

  arm();
  return {
    get next_run_at() {
      return stopped || next === null ? null : new Date(next).toISOString();
    },
    stop() {
      stopped = true;
      next = null;
      if (handle !== undefined) clearTimer(handle);
    },
  };
}
