/**
 * Runs persisted jobs (§11): takes one under a lease, hands it to the handler of its kind with a
 * signal that fires on a cancel, a lost lease, the run's deadline or a shutdown, renews the lease
 * while it runs, and records how it ended: done, stopped at a checkpoint with work left (queued
 * again at once, no attempt used), or failed (queued again after an exponential back-off with
 * jitter, or left `failed` once its attempts are used up).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

import type { JobData, JobKind, JobRecord } from '../domain/jobs.js';
import type { Logger } from '../domain/log.js';
import type { JobOutcome, JobStore } from '../store/job-store.js';
import { backoffMs, type BackoffPolicy } from './backoff.js';

/** Why a run was asked to stop. */
export type StopReason = 'cancelled' | 'lease_lost' | 'deadline' | 'shutdown';

/** What a handler gets for one run of a job. */
export interface JobContext {
  readonly job: JobRecord;
  /** Aborted when the run must stop; its `reason` is a `StopReason`. */
  readonly signal: AbortSignal;
  /** True once the run should stop at its next checkpoint. */
  shouldStop(): boolean;
  /** Records what is finished so far (the next run continues from it) and renews the lease. */
  checkpoint(progress: JobData): Promise<void>;
  readonly log: Logger;
}

/** How a handler's run ended: all done, or stopped with `progress` to continue from. */
export type JobResult = { done: true; progress?: JobData } | { done: false; progress: JobData };

/** The code that does one kind of job. */
export interface JobHandler {
  readonly kind: JobKind;
  run(ctx: JobContext): Promise<JobResult>;
}

/** Settings of a runner. */
export interface RunnerOptions {
  /** How long a lease holds without renewal; renewed every third of it. */
  leaseMs: number;
  /** Longest one run may take before it stops at a checkpoint. */
  deadlineMs: number;
  backoff: BackoffPolicy;
  log: Logger;
  /** Identifies this process's runs in leases (default: host, pid and a random part). */
  holder?: string;
}

/** How one run ended. */
export interface RunReport {
  /** The job after the run. */
  job: JobRecord;
  ended: JobOutcome['state'] | 'lease_lost';
}

/** Thrown by handlers for a failure no retry can fix: the job fails at once. */
export class PermanentJobError extends Error {}

/** A process's job runner. */
export class JobRunner {
  readonly holder: string;
  private readonly handlers: Map<JobKind, JobHandler>;
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly store: JobStore,
    handlers: readonly JobHandler[],
    private readonly options: RunnerOptions,
  ) {
    this.handlers = new Map(handlers.map((h) => [h.kind, h]));
    this.holder =
      options.holder ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  }

  /** The kinds this runner can run. */
  get kinds(): JobKind[] {
    return [...this.handlers.keys()];
  }

  /**
   * Takes the next due job (of `kinds`) and runs it; returns the job as it ended and how its run
   * ended (`lease_lost` when another process took it over meanwhile), or null when none was due.
   */
  async runNext(
    filter: { kinds?: readonly JobKind[] } = {},
    onProgress?: (progress: JobData) => void,
  ): Promise<RunReport | null> {
    const kinds = (filter.kinds ?? this.kinds).filter((k) => this.handlers.has(k));
    if (kinds.length === 0) return null;
    const job = await this.store.claim(this.holder, { leaseMs: this.options.leaseMs, kinds });
    if (!job) return null;
    const ended = await this.run(job, onProgress);
    return { job: (await this.store.getJob(job.id)) ?? job, ended };
  }

  /**
   * Runs this job now if it is queued (due or not) or orphaned; null when it is not runnable here
   * (another process runs it, or it ended).
   */
  async runJob(id: string, onProgress?: (progress: JobData) => void): Promise<RunReport | null> {
    const job = await this.store.claim(this.holder, { leaseMs: this.options.leaseMs, ids: [id] });
    if (!job) return null;
    if (!this.handlers.has(job.kind)) {
      await this.store.finish(job.id, this.holder, { state: 'queued' });
      return null;
    }
    const ended = await this.run(job, onProgress);
    return { job: (await this.store.getJob(job.id)) ?? job, ended };
  }

  /** Asks every running job of this runner to stop at its next checkpoint. */
  stopAll(reason: StopReason): void {
    for (const controller of this.running.values()) controller.abort(reason);
  }

  /** How many jobs this runner is running now. */
  get active(): number {
    return this.running.size;
  }

  private async run(
    job: JobRecord,
    onProgress?: (progress: JobData) => void,
  ): Promise<RunReport['ended']> {
    const controller = new AbortController();
    this.running.set(job.id, controller);
    const stop = (reason: StopReason) => {
      if (!controller.signal.aborted) controller.abort(reason);
    };
    const deadline = setTimeout(() => stop('deadline'), this.options.deadlineMs);
    deadline.unref();
    let progress: JobData | null = job.progress;
    const beat = async (next?: JobData) => {
      if (next !== undefined) progress = next;
      const heard = await this.store.heartbeat(job.id, this.holder, {
        leaseMs: this.options.leaseMs,
        progress: next,
      });
      if (!heard.held) stop('lease_lost');
      else if (heard.cancel_requested) stop('cancelled');
    };
    const renewal = setInterval(
      () =>
        void beat().catch((err: unknown) =>
          this.options.log.warn('job heartbeat failed', { job: job.id, error: String(err) }),
        ),
      Math.max(20, Math.floor(this.options.leaseMs / 3)),
    );
    renewal.unref();
    const handler = this.handlers.get(job.kind)!;
    const ctx: JobContext = {
      job,
      signal: controller.signal,
      shouldStop: () => controller.signal.aborted,
      checkpoint: async (next) => {
        await beat(next);
        onProgress?.(next);
      },
      log: this.options.log,
    };
    let outcome: JobOutcome;
    try {
      const result = await handler.run(ctx);
      progress = result.progress ?? progress;
      outcome = this.ended(controller.signal, result, progress);
    } catch (err) {
      outcome = this.failed(job, err, progress, controller.signal);
    } finally {
      clearTimeout(deadline);
      clearInterval(renewal);
      this.running.delete(job.id);
    }
    if (controller.signal.reason === 'lease_lost') {
      this.options.log.warn('job lease lost: another process took the job over', { job: job.id });
      return 'lease_lost';
    }
    const kept = await this.store.finish(job.id, this.holder, outcome);
    if (!kept) this.options.log.warn('job finished after its lease was lost', { job: job.id });
    if (outcome.state === 'failed')
      this.options.log.warn('job failed', {
        job: job.id,
        kind: job.kind,
        error: outcome.error,
        retry_in_ms: outcome.retryInMs,
      });
    return outcome.state;
  }

  private ended(signal: AbortSignal, result: JobResult, progress: JobData | null): JobOutcome {
    if (result.done) return { state: 'succeeded', progress };
    if (signal.reason === 'cancelled') return { state: 'cancelled', progress };
    return { state: 'queued', progress };
  }

  private failed(
    job: JobRecord,
    err: unknown,
    progress: JobData | null,
    signal: AbortSignal,
  ): JobOutcome {
    if (signal.reason === 'cancelled') return { state: 'cancelled', progress };
    const error = err instanceof Error ? err.message : String(err);
    // A run stopped by a shutdown or its deadline mid-step is not the job's fault.
    if (signal.reason === 'shutdown' || signal.reason === 'deadline')
      return { state: 'queued', progress };
    const attempts = job.attempts + 1;
    const permanent = err instanceof PermanentJobError;
    const retryInMs =
      permanent || attempts >= job.max_attempts ? null : backoffMs(this.options.backoff, attempts);
    return { state: 'failed', error, retryInMs, progress };
  }
}
