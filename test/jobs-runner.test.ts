/**
 * The job runner and worker (§11) over a real SQLite job store: deadlines stop a run at a
 * checkpoint and the next run continues from it; failures are retried with back-off up to the
 * attempt budget; cancel and shutdown stop a run at its next checkpoint. The handlers are small
 * test jobs (they stand for engram's real kinds, which other tests run).
 */
import { once } from 'node:events';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { JobKind } from '../src/domain/jobs.js';
import { silentLogger } from '../src/domain/log.js';
import { type JobHandler, JobRunner, PermanentJobError } from '../src/jobs/runner.js';
import { JobWorker } from '../src/jobs/worker.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { tempDir } from './helpers.js';

const KIND: JobKind = 'graph.rebuild';
const BACKOFF = { baseMs: 60_000, maxMs: 3_600_000, jitter: 0 };

function setup(
  handler: JobHandler['run'],
  options: { deadlineMs?: number; leaseMs?: number } = {},
) {
  const store = openSqliteStore({ path: join(tempDir(), 'engram.db') });
  const jobs = store.jobs;
  const runner = new JobRunner(jobs, [{ kind: KIND, run: handler }], {
    leaseMs: options.leaseMs ?? 5_000,
    deadlineMs: options.deadlineMs ?? 60_000,
    backoff: BACKOFF,
    log: silentLogger,
  });
  return { store, jobs, runner };
}

/** Resolves when the signal aborts. */
const aborted = (signal: AbortSignal) =>
  signal.aborted ? Promise.resolve() : once(signal, 'abort').then(() => undefined);

describe('job runner (SQLite)', () => {
  it('stops a run at its deadline with its checkpoint, and the next run continues from it', async () => {
    const seen: unknown[] = [];
    const { store, jobs, runner } = setup(
      async (ctx) => {
        seen.push(ctx.job.progress);
        const start = Number(ctx.job.progress?.step ?? 0);
        if (start >= 2) return { done: true, progress: { step: start + 1 } };
        await ctx.checkpoint({ step: start + 1 });
        await aborted(ctx.signal);
        return { done: false, progress: { step: start + 1 } };
      },
      { deadlineMs: 50 },
    );
    const { job } = await jobs.enqueue({ kind: KIND, space: 'default' });
    expect((await runner.runNext())?.ended).toBe('queued');
    expect(await jobs.getJob(job.id)).toMatchObject({
      state: 'queued',
      attempts: 0,
      progress: { step: 1 },
      lease_holder: null,
    });
    await runner.runNext();
    const last = await runner.runNext();
    expect(last?.job).toMatchObject({ state: 'succeeded', progress: { step: 3 }, attempts: 0 });
    expect(seen).toEqual([null, { step: 1 }, { step: 2 }]);
    await store.close();
  });

  it('retries a failing job with back-off until its attempts are used up, then a retry starts afresh', async () => {
    const { store, jobs, runner } = setup(async () => {
      throw new Error('disk on fire');
    });
    const { job } = await jobs.enqueue({ kind: KIND, max_attempts: 2 });
    const first = await runner.runNext();
    expect(first?.ended).toBe('failed');
    expect(first?.job).toMatchObject({ state: 'queued', attempts: 1, last_error: 'disk on fire' });
    const wait = Date.parse(first!.job.next_attempt_at) - Date.now();
    expect(wait).toBeGreaterThan(50_000);
    expect(await runner.runNext()).toBeNull(); // not due yet
    // The user runs it now (the CLI's wait): its second failure uses the budget up.
    const second = await runner.runJob(job.id);
    expect(second?.job).toMatchObject({ state: 'failed', attempts: 2 });
    expect(second?.job.finished_at).not.toBeNull();
    await expect(jobs.retryJob('01NOPE')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await jobs.retryJob(job.id)).toMatchObject({ state: 'queued', attempts: 0 });
    await store.close();
  });

  it('fails at once on an error no retry can fix', async () => {
    const { store, jobs, runner } = setup(async () => {
      throw new PermanentJobError('the job names no space');
    });
    await jobs.enqueue({ kind: KIND });
    expect((await runner.runNext())?.job).toMatchObject({ state: 'failed', attempts: 1 });
    await store.close();
  });

  it('stops a running job at its next checkpoint when it is cancelled', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const { store, jobs, runner } = setup(
      async (ctx) => {
        started();
        await aborted(ctx.signal);
        return { done: false, progress: { at: 'cancelled' } };
      },
      { leaseMs: 150 },
    );
    const { job } = await jobs.enqueue({ kind: KIND });
    const run = runner.runNext();
    await running;
    expect(await jobs.cancelJob(job.id)).toMatchObject({
      state: 'running',
      cancel_requested: true,
    });
    expect((await run)?.job).toMatchObject({ state: 'cancelled', progress: { at: 'cancelled' } });
    await expect(jobs.cancelJob(job.id)).rejects.toMatchObject({ code: 'CONFLICT' });
    await store.close();
  });

  it('a stopping worker queues its running job again with no attempt used and the lease released', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const { store, jobs, runner } = setup(async (ctx) => {
      started();
      await ctx.checkpoint({ half: true });
      await aborted(ctx.signal);
      return { done: false, progress: { half: true } };
    });
    const { job } = await jobs.enqueue({ kind: KIND });
    const worker = new JobWorker(runner, { pollMs: 60_000, log: silentLogger });
    worker.start();
    await running;
    expect(worker.state().status).toBe('running');
    await worker.stop(5_000);
    expect(await jobs.getJob(job.id)).toMatchObject({
      state: 'queued',
      attempts: 0,
      lease_holder: null,
      progress: { half: true },
    });
    expect(worker.state().status).toBe('stopped');
    await store.close();
  });
});
