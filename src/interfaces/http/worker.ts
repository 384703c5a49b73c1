/**
 * The service process's background worker: runs the vector backfill (Engram.backfill) soon
 * after writes that left items vector-pending and on a slow timer (for items written by other
 * processes on the same store), one run at a time, and reports its state for /v1/health.
 */
import type { Engram } from '../../app.js';
import type { Logger } from '../../domain/log.js';

/** What /v1/health shows of the worker. */
export interface WorkerState {
  status: 'idle' | 'running' | 'failing' | 'stopped';
  runs: number;
  filled_total: number;
  last_run_at: string | null;
  last_duration_ms: number | null;
  last_error: string | null;
}

/** Options of the backfill worker. */
export interface BackfillWorkerOptions {
  /** Interval of the periodic pass; 0 runs only when nudged. */
  intervalMs: number;
  /** Delay after a nudge, so a burst of writes leads to one run. */
  debounceMs?: number;
  log: Logger;
}

/** Runs the vector backfill in the background of a long-lived process. */
export class BackfillWorker {
  private readonly state_: WorkerState = {
    status: 'idle',
    runs: 0,
    filled_total: 0,
    last_run_at: null,
    last_duration_ms: null,
    last_error: null,
  };
  private timer: NodeJS.Timeout | undefined;
  private interval: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  constructor(
    private readonly engram: Engram,
    private readonly options: BackfillWorkerOptions,
  ) {}

  /** Starts the periodic pass and runs once now (items may be pending from earlier runs). */
  start(): void {
    if (this.options.intervalMs > 0) {
      this.interval = setInterval(() => this.nudge(0), this.options.intervalMs);
      this.interval.unref();
    }
    this.nudge(0);
  }

  /** Asks for a run soon (after writes); a run in progress is followed by one more. */
  nudge(delayMs = this.options.debounceMs ?? 50): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.run().finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.nudge();
        }
      });
    }, delayMs);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    const started = Date.now();
    this.state_.status = 'running';
    try {
      const filled = await this.engram.backfill();
      this.state_.filled_total += filled;
      this.state_.last_error = null;
    } catch (err) {
      this.state_.last_error = err instanceof Error ? err.message : String(err);
      this.options.log.warn('background vector backfill failed', { error: this.state_.last_error });
    } finally {
      this.state_.runs++;
      this.state_.last_run_at = new Date(started).toISOString();
      this.state_.last_duration_ms = Date.now() - started;
      if (!this.stopped) this.state_.status = this.state_.last_error ? 'failing' : 'idle';
    }
  }

  /** A snapshot of the worker's state. */
  state(): WorkerState {
    return { ...this.state_ };
  }

  /**
   * Stops scheduling; resolves when the run in progress ends. Closing the service cuts a long
   * backfill short after its current batch, so call this, close the service, then await it.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.interval);
    this.timer = undefined;
    await this.running;
    this.state_.status = 'stopped';
  }
}
