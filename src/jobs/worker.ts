/**
 * The job worker of a long-lived process (`engram serve`, `engram worker`, the library with
 * background work on): runs due jobs one after another, looks for new ones every `pollMs` (jobs
 * may be queued by other processes), asks periodic checks to queue work that is due, and on
 * `stop` takes no new job, asks the running one to stop at its next checkpoint, and waits for it.
 */
import type { JobKind } from '../domain/jobs.js';
import type { Logger } from '../domain/log.js';
import type { JobRunner } from './runner.js';

/** Something the worker asks now and then whether work is due, and queues it (e.g. backfill). */
export interface PeriodicCheck {
  readonly name: string;
  everyMs: number;
  /** Queues the work when it is due. */
  run(): Promise<void>;
}

/** What /v1/health and `status` show of the worker. */
export interface WorkerState {
  status: 'idle' | 'running' | 'failing' | 'stopped';
  holder: string;
  /** Jobs this worker ran since it started. */
  runs: number;
  failed_runs: number;
  last_run_at: string | null;
  last_error: string | null;
}

/** Settings of the worker. */
export interface JobWorkerOptions {
  pollMs: number;
  log: Logger;
  checks?: readonly PeriodicCheck[];
  /** Only jobs of these kinds (default: every kind the runner has a handler for). */
  kinds?: readonly JobKind[];
}

/** A process's job loop. */
export class JobWorker {
  private readonly state_: WorkerState;
  private timer: NodeJS.Timeout | undefined;
  private loop: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly lastCheck = new Map<string, number>();

  constructor(
    private readonly runner: JobRunner,
    private readonly options: JobWorkerOptions,
  ) {
    this.state_ = {
      status: 'idle',
      holder: runner.holder,
      runs: 0,
      failed_runs: 0,
      last_run_at: null,
      last_error: null,
    };
  }

  /** Starts the loop; it runs at once and then every `pollMs`. */
  start(): void {
    this.nudge();
  }

  /** Asks for a pass soon (after a write queued work); a pass in progress is followed by one more. */
  nudge(): void {
    if (this.stopped) return;
    if (this.loop) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = undefined;
    this.loop = this.pass().finally(() => {
      this.loop = undefined;
      if (this.stopped) return;
      if (this.again) {
        this.again = false;
        this.nudge();
      } else this.arm();
    });
  }

  private arm(): void {
    this.timer = setTimeout(() => this.nudge(), this.options.pollMs);
    this.timer.unref();
  }

  /** Runs the due periodic checks, then due jobs until none is left or the worker stops. */
  private async pass(): Promise<void> {
    await this.runChecks();
    while (!this.stopped) {
      let report;
      try {
        report = await this.runner.runNext({ kinds: this.options.kinds });
      } catch (err) {
        this.state_.last_error = err instanceof Error ? err.message : String(err);
        this.state_.status = 'failing';
        this.options.log.warn('job worker could not take a job', { error: this.state_.last_error });
        return;
      }
      if (!report) break;
      this.state_.runs++;
      this.state_.last_run_at = new Date().toISOString();
      if (report.ended === 'failed') {
        this.state_.failed_runs++;
        this.state_.last_error = report.job.last_error;
        this.state_.status = 'failing';
      } else if (report.ended === 'succeeded') this.state_.status = 'idle';
    }
  }

  private async runChecks(): Promise<void> {
    const now = Date.now();
    for (const check of this.options.checks ?? []) {
      const last = this.lastCheck.get(check.name);
      if (last !== undefined && now - last < check.everyMs) continue;
      this.lastCheck.set(check.name, now);
      try {
        await check.run();
      } catch (err) {
        this.options.log.warn('periodic job check failed', {
          check: check.name,
          error: String(err),
        });
      }
    }
  }

  /** A snapshot of the worker's state. */
  state(): WorkerState {
    const status = this.stopped
      ? 'stopped'
      : this.runner.active > 0
        ? 'running'
        : this.state_.status;
    return { ...this.state_, status };
  }

  /**
   * Stops taking jobs, asks the running job to stop at its next checkpoint (it is queued again,
   * no attempt used, and its lease released), and resolves once it has, or after `graceMs`.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.runner.stopAll('shutdown');
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, graceMs);
      timer.unref();
    });
    await Promise.race([this.loop ?? Promise.resolve(), grace]);
    clearTimeout(timer);
  }
}
