/**
 * The JobStore contract (§11), run on SQLite always and on PostgreSQL when ENGRAM_TEST_PG_URL
 * names a server: enqueue and dedupe, claim order and kinds, one holder per job among several
 * store connections (as several processes), heartbeats, lease expiry and takeover, the attempt
 * budget across a restart, finish outcomes, retry and cancel, listings and counts, and per-item
 * failures with the vector backfill's pending list.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { afterEach, describe, expect, it } from 'vitest';

import { newId } from '../src/domain/ids.js';
import type { JobRecord, NewJob } from '../src/domain/jobs.js';
import type { ItemRecord } from '../src/domain/records.js';
import { bodyHash } from '../src/domain/text.js';
import type { JobStore } from '../src/store/job-store.js';
import { openPostgresStore } from '../src/store/postgres/postgres-store.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';
import { type Backend, BACKENDS } from './backends.js';
import { draft } from './fixtures/store-records.js';
import { tempDir } from './helpers.js';
import { PG_URL, waitFor } from './postgres-helpers.js';

/** A store with its job store. */
type JobsStore = Store & { readonly jobs: JobStore };

const LEASE_LOST = 'the process running the job stopped (lease expired)';
const LONG = 60_000;
const SHORT = 150;

const open: JobsStore[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

/**
 * A fresh, empty store location on the backend; each call of the result opens another
 * connection to it, as another process would (closed after the test).
 */
function location(backend: Backend): () => JobsStore {
  let make: () => JobsStore;
  if (backend.name === 'sqlite') {
    const path = join(tempDir(), 'engram.db');
    make = () => openSqliteStore({ path });
  } else {
    const { schema } = backend.fresh().store as { schema: string };
    make = () => openPostgresStore({ url: PG_URL!, schema });
  }
  return () => {
    const store = make();
    open.push(store);
    return store;
  };
}

/** Closes one store early (a process stopping). */
async function stop(store: JobsStore): Promise<void> {
  open.splice(open.indexOf(store), 1);
  await store.close();
}

/** Epoch milliseconds of an ISO time. */
const at = (iso: string | null) => Date.parse(iso!);

/** Enqueues a job and returns it. */
async function enqueue(store: JobsStore, job: Partial<NewJob> = {}): Promise<JobRecord> {
  return (await store.jobs.enqueue({ kind: 'graph.rebuild', ...job })).job;
}

/** The job as it is now. */
async function get(store: JobsStore, id: string): Promise<JobRecord> {
  const job = await store.jobs.getJob(id);
  expect(job).toBeDefined();
  return job!;
}

/** Waits until the job's lease has expired by this machine's clock. */
async function leaseExpired(store: JobsStore, id: string): Promise<void> {
  await waitFor(async () => {
    const job = await get(store, id);
    return job.lease_expires_at === null || at(job.lease_expires_at) < Date.now();
  });
}

/** Waits for the job's lease to expire, then takes it over as `holder`. */
async function takeOver(
  store: JobsStore,
  id: string,
  holder: string,
  leaseMs = LONG,
): Promise<JobRecord> {
  await leaseExpired(store, id);
  let taken: JobRecord | null = null;
  await waitFor(async () => (taken = await store.jobs.claim(holder, { leaseMs })) !== null);
  return taken!;
}

/** Claims one job, failing the test when none is due. */
async function claim(store: JobsStore, holder: string, leaseMs = LONG): Promise<JobRecord> {
  const job = await store.jobs.claim(holder, { leaseMs });
  expect(job).not.toBeNull();
  return job!;
}

/** Runs one attempt that fails, retrying at once until the budget is used up (as the runner). */
async function failOnce(store: JobsStore, holder: string): Promise<JobRecord> {
  const job = await claim(store, holder);
  const retryInMs = job.attempts + 1 >= job.max_attempts ? null : 0;
  expect(
    await store.jobs.finish(job.id, holder, { state: 'failed', error: 'boom', retryInMs }),
  ).toBe(true);
  return get(store, job.id);
}

/** Claims until nothing is due; returns the ids taken. */
async function drain(store: JobsStore, holder: string): Promise<string[]> {
  const taken: string[] = [];
  for (;;) {
    const job = await store.jobs.claim(holder, { leaseMs: LONG });
    if (!job) return taken;
    taken.push(job.id);
  }
}

/** Creates pending items (no vector) through the store; returns them. */
async function items(store: JobsStore, ...bodies: string[]): Promise<ItemRecord[]> {
  const made = await store.createItems(bodies.map((body) => draft({ body })));
  return made.map((o) => o.item);
}

/** Ids the vector backfill would take next. */
async function pending(store: JobsStore): Promise<string[]> {
  return (await store.pendingVectors(100)).map((p) => p.id);
}

/** Gives an item a new version (its vector pending again). */
async function revise(store: JobsStore, item: ItemRecord, body: string): Promise<void> {
  const now = Date.now();
  await store.mutate(item.space, [item.id], () => ({
    changes: [
      {
        id: item.id,
        patch: { body_hash: bodyHash(body), updated_at: now },
        version: { title: null, body, tags: [], actor: null, reason: null, at: now },
        vector: 'pending',
      },
    ],
  }));
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(BACKENDS)('job store ($name)', (backend) => {
  describe('enqueue', () => {
    it('adds a queued job with its defaults', async () => {
      const store = location(backend)();
      const before = Date.now();
      const { job, created } = await store.jobs.enqueue({
        kind: 'vectors.backfill',
        space: 'a',
        payload: { limit: 10, nested: { b: 1, a: 2 } },
      });
      expect(created).toBe(true);
      expect(job).toMatchObject({
        kind: 'vectors.backfill',
        space: 'a',
        payload: { limit: 10, nested: { b: 1, a: 2 } },
        state: 'queued',
        attempts: 0,
        max_attempts: 5,
        lease_holder: null,
        lease_expires_at: null,
        progress: null,
        last_error: null,
        cancel_requested: false,
        dedupe_key: null,
        started_at: null,
        run_started_at: null,
        heartbeat_at: null,
        finished_at: null,
      });
      expect(Object.keys(job.payload.nested as object)).toEqual(['b', 'a']);
      expect(job.created_at).toMatch(ISO);
      expect(job.next_attempt_at).toBe(job.created_at);
      expect(at(job.created_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(at(job.created_at)).toBeLessThanOrEqual(Date.now() + 1000);
      expect(await store.jobs.getJob(job.id)).toEqual(job);
      expect(await store.jobs.getJob('no-such-job')).toBeUndefined();
      expect(await store.jobs.getJob('bad\u0000id')).toBeUndefined();
      const whole = await enqueue(store, { max_attempts: 2 });
      expect(whole).toMatchObject({ space: null, payload: {}, max_attempts: 2 });
    });

    it('returns the waiting job of a dedupe key, and queues a new one once it ended', async () => {
      const store = location(backend)();
      const first = await store.jobs.enqueue({ kind: 'graph.catch_up', dedupe_key: 'catch-up' });
      const again = await store.jobs.enqueue({
        kind: 'graph.catch_up',
        dedupe_key: 'catch-up',
        payload: { other: true },
      });
      expect(first.created).toBe(true);
      expect(again).toEqual({ job: first.job, created: false });
      const other = await store.jobs.enqueue({ kind: 'graph.catch_up', dedupe_key: 'other' });
      expect(other.created).toBe(true);
      // Still waiting while it runs.
      await claim(store, 'runner');
      expect(
        (await store.jobs.enqueue({ kind: 'graph.catch_up', dedupe_key: 'catch-up' })).job.id,
      ).toBe(first.job.id);
      await store.jobs.finish(first.job.id, 'runner', { state: 'succeeded' });
      const next = await store.jobs.enqueue({ kind: 'graph.catch_up', dedupe_key: 'catch-up' });
      expect(next.created).toBe(true);
      expect(next.job.id).not.toBe(first.job.id);
    });

    it('queues one job when several connections enqueue the same key at once', async () => {
      const connect = location(backend);
      const stores = [connect(), connect(), connect()];
      const results = await Promise.all(
        Array.from({ length: 9 }, (_, i) =>
          stores[i % 3]!.jobs.enqueue({ kind: 'lifecycle.maintain', dedupe_key: 'maintain' }),
        ),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.job.id)).size).toBe(1);
      expect((await stores[0]!.jobs.jobCounts()).queued).toBe(1);
    });

    it('waits for its delay, by the store clock', async () => {
      const store = location(backend)();
      const job = await enqueue(store, { delay_ms: 60_000 });
      expect(at(job.next_attempt_at) - at(job.created_at)).toBe(60_000);
      expect(await store.jobs.claim('runner', { leaseMs: LONG })).toBeNull();
      const now = await enqueue(store, { delay_ms: 0 });
      expect(now.next_attempt_at).toBe(now.created_at);
    });
  });

  describe('claim', () => {
    it('takes due jobs oldest first and marks the run', async () => {
      const store = location(backend)();
      const jobs = [await enqueue(store), await enqueue(store), await enqueue(store)];
      const before = Date.now();
      const taken = await claim(store, 'runner-a', 5_000);
      expect(taken).toMatchObject({
        id: jobs[0]!.id,
        state: 'running',
        lease_holder: 'runner-a',
        attempts: 0,
      });
      expect(taken.started_at).toMatch(ISO);
      expect(taken.run_started_at).toBe(taken.started_at);
      expect(taken.heartbeat_at).toBe(taken.started_at);
      expect(at(taken.lease_expires_at) - at(taken.run_started_at)).toBe(5_000);
      expect(at(taken.run_started_at)).toBeGreaterThanOrEqual(before - 1000);
      expect((await claim(store, 'runner-a')).id).toBe(jobs[1]!.id);
      expect((await claim(store, 'runner-b')).id).toBe(jobs[2]!.id);
      expect(await store.jobs.claim('runner-a', { leaseMs: LONG })).toBeNull();
    });

    it('orders by due time and takes only the kinds asked', async () => {
      const store = location(backend)();
      const later = await enqueue(store, { delay_ms: 400 });
      const graph = await enqueue(store);
      const vectors = await enqueue(store, { kind: 'vectors.backfill' });
      const kinds = ['graph.rebuild' as const];
      expect((await store.jobs.claim('r', { leaseMs: LONG, kinds }))!.id).toBe(graph.id);
      expect(await store.jobs.claim('r', { leaseMs: LONG, kinds })).toBeNull();
      expect(await store.jobs.claim('r', { leaseMs: LONG, kinds: [] })).toBeNull();
      expect((await store.jobs.claim('r', { leaseMs: LONG }))!.id).toBe(vectors.id);
      let due: JobRecord | null = null;
      await waitFor(
        async () => (due = await store.jobs.claim('r', { leaseMs: LONG, kinds })) !== null,
      );
      expect(due!.id).toBe(later.id);
      expect(Date.now()).toBeGreaterThanOrEqual(at(later.next_attempt_at));
    });

    it('takes jobs named by id at once, back-off or not', async () => {
      const store = location(backend)();
      const due = await enqueue(store);
      const waiting = await enqueue(store, { delay_ms: LONG });
      expect(await store.jobs.claim('r', { leaseMs: LONG, ids: [] })).toBeNull();
      expect(
        await store.jobs.claim('r', {
          leaseMs: LONG,
          ids: [waiting.id],
          kinds: ['vectors.backfill'],
        }),
      ).toBeNull();
      expect(await store.jobs.claim('r', { leaseMs: LONG, ids: ['bad\u0000id'] })).toBeNull();
      const taken = await store.jobs.claim('r', { leaseMs: LONG, ids: [waiting.id] });
      expect(taken).toMatchObject({ id: waiting.id, state: 'running', lease_holder: 'r' });
      // Backing off after a failure, it still runs when named.
      await store.jobs.finish(waiting.id, 'r', { state: 'failed', error: 'e', retryInMs: LONG });
      expect(await store.jobs.claim('r', { leaseMs: LONG, ids: [waiting.id] })).toMatchObject({
        id: waiting.id,
        attempts: 1,
      });
      // An orphan not named stays for another claim.
      await store.jobs.claim('dead', { leaseMs: SHORT, ids: [due.id] });
      await leaseExpired(store, due.id);
      const other = await enqueue(store);
      expect((await store.jobs.claim('r', { leaseMs: LONG, ids: [other.id] }))!.id).toBe(other.id);
      expect(await get(store, due.id)).toMatchObject({ lease_holder: 'dead', attempts: 0 });
      expect(await store.jobs.claim('r', { leaseMs: LONG, ids: [due.id] })).toMatchObject({
        id: due.id,
        lease_holder: 'r',
        attempts: 1,
      });
    });

    it('gives a job to one of two runners claiming at once', async () => {
      const open2 = location(backend);
      const [a, b] = [open2(), open2()];
      for (let round = 0; round < 5; round++) {
        const job = await enqueue(a);
        const got = await Promise.all([
          a.jobs.claim('a', { leaseMs: LONG }),
          b.jobs.claim('b', { leaseMs: LONG }),
        ]);
        const winners = got.filter((j) => j !== null);
        expect(winners).toHaveLength(1);
        expect(winners[0]!.id).toBe(job.id);
        expect((await get(a, job.id)).lease_holder).toBe(winners[0]!.lease_holder);
      }
    });

    it('gives each job to exactly one of three runners draining the queue', async () => {
      const open3 = location(backend);
      const stores = [open3(), open3(), open3()];
      const ids: string[] = [];
      for (let i = 0; i < 24; i++) ids.push((await enqueue(stores[i % 3]!)).id);
      const taken = await Promise.all(stores.map((s, i) => drain(s, `runner-${i}`)));
      const all = taken.flat();
      expect(all).toHaveLength(ids.length);
      expect(new Set(all)).toEqual(new Set(ids));
      for (const [i, mine] of taken.entries())
        for (const id of mine) expect((await get(stores[0]!, id)).lease_holder).toBe(`runner-${i}`);
      expect((await stores[1]!.jobs.jobCounts()).running).toBe(ids.length);
    });
  });

  describe('leases', () => {
    it('renews on a heartbeat, stores progress and reports a cancel request', async () => {
      const store = location(backend)();
      const job = await enqueue(store);
      const taken = await claim(store, 'runner', SHORT);
      await sleep(5);
      const beat = await store.jobs.heartbeat(job.id, 'runner', {
        leaseMs: LONG,
        progress: { done: 3 },
      });
      expect(beat).toEqual({ held: true, cancel_requested: false });
      const renewed = await get(store, job.id);
      expect(at(renewed.lease_expires_at)).toBeGreaterThan(at(taken.lease_expires_at));
      expect(at(renewed.lease_expires_at) - at(renewed.heartbeat_at)).toBe(LONG);
      expect(at(renewed.heartbeat_at)).toBeGreaterThanOrEqual(at(taken.heartbeat_at));
      expect(renewed.progress).toEqual({ done: 3 });
      // No progress keeps the checkpoint.
      await store.jobs.heartbeat(job.id, 'runner', { leaseMs: LONG });
      expect((await get(store, job.id)).progress).toEqual({ done: 3 });
      expect(await store.jobs.heartbeat(job.id, 'someone-else', { leaseMs: LONG })).toEqual({
        held: false,
        cancel_requested: false,
      });
      const cancelled = await store.jobs.cancelJob(job.id);
      expect(cancelled).toMatchObject({ state: 'running', cancel_requested: true });
      expect(await store.jobs.heartbeat(job.id, 'runner', { leaseMs: LONG })).toEqual({
        held: true,
        cancel_requested: true,
      });
      expect(await store.jobs.finish(job.id, 'runner', { state: 'cancelled' })).toBe(true);
      expect(await get(store, job.id)).toMatchObject({ state: 'cancelled', progress: { done: 3 } });
      expect(await store.jobs.heartbeat(job.id, 'runner', { leaseMs: LONG })).toEqual({
        held: false,
        cancel_requested: false,
      });
    });

    it('lets another runner take an expired lease over, counting an attempt', async () => {
      const location2 = location(backend);
      const [dead, alive] = [location2(), location2()];
      const job = await enqueue(dead);
      const first = await claim(dead, 'dead', SHORT);
      const taken = await takeOver(alive, job.id, 'alive');
      expect(taken).toMatchObject({
        id: job.id,
        state: 'running',
        lease_holder: 'alive',
        attempts: 1,
        last_error: LEASE_LOST,
        started_at: first.started_at,
        finished_at: null,
      });
      expect(at(taken.run_started_at)).toBeGreaterThanOrEqual(at(first.lease_expires_at));
      expect(at(taken.lease_expires_at) - at(taken.run_started_at)).toBe(LONG);
      // The old holder learns it lost the job; its late writes change nothing.
      expect(await dead.jobs.heartbeat(job.id, 'dead', { leaseMs: LONG })).toEqual({
        held: false,
        cancel_requested: false,
      });
      expect(await dead.jobs.finish(job.id, 'dead', { state: 'succeeded' })).toBe(false);
      expect(
        await dead.jobs.finish(job.id, 'dead', { state: 'failed', error: 'late', retryInMs: 0 }),
      ).toBe(false);
      expect(await get(alive, job.id)).toEqual(taken);
      expect(await alive.jobs.finish(job.id, 'alive', { state: 'succeeded' })).toBe(true);
      // The lost run's error stays for the activity view.
      expect(await get(dead, job.id)).toMatchObject({
        state: 'succeeded',
        attempts: 1,
        last_error: LEASE_LOST,
      });
    });

    it('cancels an orphan whose cancel was asked instead of running it', async () => {
      const store = location(backend)();
      const job = await enqueue(store);
      await claim(store, 'dead', SHORT);
      await store.jobs.cancelJob(job.id);
      await leaseExpired(store, job.id);
      await waitFor(
        async () =>
          (await store.jobs.claim('other', { leaseMs: LONG })) === null &&
          (await get(store, job.id)).state === 'cancelled',
      );
      const ended = await get(store, job.id);
      expect(ended).toMatchObject({
        state: 'cancelled',
        attempts: 1,
        last_error: null,
        lease_holder: null,
        lease_expires_at: null,
      });
      expect(ended.finished_at).toBe(ended.heartbeat_at);
    });

    it('leaves an orphan of another kind to the runners of that kind', async () => {
      const store = location(backend)();
      const job = await enqueue(store, { kind: 'vectors.backfill' });
      await claim(store, 'dead', SHORT);
      await leaseExpired(store, job.id);
      await sleep(20);
      expect(await store.jobs.claim('r', { leaseMs: LONG, kinds: ['graph.rebuild'] })).toBeNull();
      expect(await get(store, job.id)).toMatchObject({ lease_holder: 'dead', attempts: 0 });
    });
  });

  describe('attempt budget', () => {
    it('ends a job failing max_attempts times as failed, across a restart', async () => {
      const open1 = location(backend);
      const store = open1();
      const job = await enqueue(store, { max_attempts: 3 });
      expect(await failOnce(store, 'r')).toMatchObject({ state: 'queued', attempts: 1 });
      await stop(store);
      const restarted = open1();
      expect(await get(restarted, job.id)).toMatchObject({ state: 'queued', attempts: 1 });
      expect(await failOnce(restarted, 'r')).toMatchObject({ state: 'queued', attempts: 2 });
      const failed = await failOnce(restarted, 'r');
      expect(failed).toMatchObject({
        state: 'failed',
        attempts: 3,
        last_error: 'boom',
        lease_holder: null,
      });
      expect(failed.finished_at).toMatch(ISO);
      expect(await restarted.jobs.claim('r', { leaseMs: LONG })).toBeNull();
      await stop(restarted);
      expect(await get(open1(), job.id)).toEqual(failed);
    });

    it('fails an orphan whose attempts are used up, and a restart does not reset them', async () => {
      const open1 = location(backend);
      const first = open1();
      const job = await enqueue(first, { max_attempts: 2 });
      await claim(first, 'dead-1', SHORT);
      const second = open1();
      expect((await takeOver(second, job.id, 'dead-2', SHORT)).attempts).toBe(1);
      await stop(first);
      await stop(second);
      const restarted = open1();
      expect(await get(restarted, job.id)).toMatchObject({ state: 'running', attempts: 1 });
      await leaseExpired(restarted, job.id);
      await waitFor(
        async () =>
          (await restarted.jobs.claim('after', { leaseMs: LONG })) === null &&
          (await get(restarted, job.id)).state === 'failed',
      );
      const failed = await get(restarted, job.id);
      expect(failed).toMatchObject({
        state: 'failed',
        attempts: 2,
        last_error: LEASE_LOST,
        lease_holder: null,
        lease_expires_at: null,
      });
      expect(failed.finished_at).toBe(failed.heartbeat_at);
      // A fresh budget only through an explicit retry.
      expect(await restarted.jobs.retryJob(job.id)).toMatchObject({ state: 'queued', attempts: 0 });
    });
  });

  describe('finish', () => {
    it('records success with its progress', async () => {
      const store = location(backend)();
      const job = await enqueue(store);
      await claim(store, 'r');
      expect(await store.jobs.finish(job.id, 'r', { state: 'succeeded', progress: { n: 9 } })).toBe(
        true,
      );
      const done = await get(store, job.id);
      expect(done).toMatchObject({
        state: 'succeeded',
        attempts: 0,
        progress: { n: 9 },
        lease_holder: null,
        lease_expires_at: null,
        last_error: null,
      });
      expect(done.finished_at).toMatch(ISO);
      expect(done.heartbeat_at).toBe(done.finished_at);
      expect(await store.jobs.finish(job.id, 'r', { state: 'succeeded' })).toBe(false);
    });

    it('queues a job stopped at a checkpoint again at once, keeping its attempts', async () => {
      const store = location(backend)();
      const job = await enqueue(store);
      await failOnce(store, 'r');
      const run = await claim(store, 'r');
      expect(run.attempts).toBe(1);
      expect(
        await store.jobs.finish(job.id, 'r', { state: 'queued', progress: { cursor: 'x' } }),
      ).toBe(true);
      const queued = await get(store, job.id);
      expect(queued).toMatchObject({
        state: 'queued',
        attempts: 1,
        progress: { cursor: 'x' },
        lease_holder: null,
        lease_expires_at: null,
        finished_at: null,
        last_error: 'boom',
        started_at: run.started_at,
      });
      expect(queued.next_attempt_at).toBe(queued.heartbeat_at);
      expect((await claim(store, 'r')).progress).toEqual({ cursor: 'x' });
    });

    it('queues a failed run after its back-off, or leaves it failed', async () => {
      const store = location(backend)();
      const job = await enqueue(store);
      await claim(store, 'r');
      await store.jobs.heartbeat(job.id, 'r', { leaseMs: LONG, progress: { step: 1 } });
      expect(
        await store.jobs.finish(job.id, 'r', { state: 'failed', error: 'e1', retryInMs: 60_000 }),
      ).toBe(true);
      const waiting = await get(store, job.id);
      expect(waiting).toMatchObject({
        state: 'queued',
        attempts: 1,
        last_error: 'e1',
        progress: { step: 1 },
        finished_at: null,
        lease_holder: null,
      });
      expect(at(waiting.next_attempt_at) - at(waiting.heartbeat_at)).toBe(60_000);
      expect(await store.jobs.claim('r', { leaseMs: LONG })).toBeNull();

      const other = await enqueue(store);
      const run = await claim(store, 'r');
      expect(run.id).toBe(other.id);
      expect(
        await store.jobs.finish(other.id, 'r', {
          state: 'failed',
          error: 'fatal',
          retryInMs: null,
          progress: null,
        }),
      ).toBe(true);
      const failed = await get(store, other.id);
      expect(failed).toMatchObject({
        state: 'failed',
        attempts: 1,
        last_error: 'fatal',
        progress: null,
        next_attempt_at: other.next_attempt_at,
      });
      expect(failed.finished_at).toBe(failed.heartbeat_at);
    });
  });

  describe('retry and cancel', () => {
    it('refuses to retry a missing, waiting or succeeded job', async () => {
      const store = location(backend)();
      await expect(store.jobs.retryJob('no-such-job')).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: 'job no-such-job not found',
      });
      await expect(store.jobs.retryJob('bad\u0000id')).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      const job = await enqueue(store);
      await expect(store.jobs.retryJob(job.id)).rejects.toMatchObject({
        code: 'CONFLICT',
        message: `job ${job.id} is queued: only a failed or cancelled job is retried`,
        details: { field: 'id', rule: 'failed or cancelled job' },
      });
      await claim(store, 'r');
      await expect(store.jobs.retryJob(job.id)).rejects.toMatchObject({
        code: 'CONFLICT',
        message: `job ${job.id} is running: only a failed or cancelled job is retried`,
      });
      await store.jobs.finish(job.id, 'r', { state: 'succeeded' });
      await expect(store.jobs.retryJob(job.id)).rejects.toMatchObject({
        code: 'CONFLICT',
        message: `job ${job.id} is succeeded: only a failed or cancelled job is retried`,
      });
    });

    it('retries a failed job with a fresh budget', async () => {
      const store = location(backend)();
      const job = await enqueue(store, { max_attempts: 1 });
      expect(await failOnce(store, 'r')).toMatchObject({ state: 'failed', attempts: 1 });
      const retried = await store.jobs.retryJob(job.id);
      expect(retried).toMatchObject({
        state: 'queued',
        attempts: 0,
        finished_at: null,
        cancel_requested: false,
        last_error: 'boom',
      });
      expect((await claim(store, 'r')).id).toBe(job.id);
    });

    it('refuses to retry a job whose dedupe key another job holds', async () => {
      const store = location(backend)();
      const job = await enqueue(store, { dedupe_key: 'k' });
      await store.jobs.cancelJob(job.id);
      const waiting = await enqueue(store, { dedupe_key: 'k' });
      expect(waiting.id).not.toBe(job.id);
      await expect(store.jobs.retryJob(job.id)).rejects.toMatchObject({
        code: 'CONFLICT',
        message: `job ${waiting.id} already does this work`,
        details: { field: 'id', rule: 'one waiting job per dedupe key' },
      });
      await store.jobs.cancelJob(waiting.id);
      expect(await store.jobs.retryJob(job.id)).toMatchObject({ state: 'queued' });
    });

    it('cancels a queued job at once and asks a running one to stop', async () => {
      const store = location(backend)();
      await expect(store.jobs.cancelJob('no-such-job')).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: 'job no-such-job not found',
      });
      const queued = await enqueue(store);
      const cancelled = await store.jobs.cancelJob(queued.id);
      expect(cancelled).toMatchObject({ state: 'cancelled', cancel_requested: false });
      expect(cancelled.finished_at).toMatch(ISO);
      await expect(store.jobs.cancelJob(queued.id)).rejects.toMatchObject({
        code: 'CONFLICT',
        message: `job ${queued.id} already ended (cancelled)`,
        details: { field: 'id', rule: 'queued or running job' },
      });

      const running = await enqueue(store);
      await claim(store, 'r');
      const asked = await store.jobs.cancelJob(running.id);
      expect(asked).toMatchObject({ state: 'running', cancel_requested: true, finished_at: null });
      await store.jobs.finish(running.id, 'r', { state: 'cancelled' });
      await expect(store.jobs.cancelJob(running.id)).rejects.toMatchObject({ code: 'CONFLICT' });
      const again = await store.jobs.retryJob(running.id);
      expect(again).toMatchObject({ state: 'queued', cancel_requested: false, finished_at: null });

      const done = await enqueue(store);
      await claim(store, 'r');
      await claim(store, 'r');
      await store.jobs.finish(done.id, 'r', { state: 'succeeded' });
      await expect(store.jobs.cancelJob(done.id)).rejects.toMatchObject({
        code: 'CONFLICT',
        message: `job ${done.id} already ended (succeeded)`,
      });
    });
    it('ends a job cancelled while it ran instead of queueing it again', async () => {
      const store = location(backend)();
      for (const outcome of [
        { state: 'queued', progress: { half: true } },
        { state: 'failed', error: 'boom', retryInMs: 1_000 },
      ] as const) {
        const job = await enqueue(store);
        await claim(store, 'r');
        await store.jobs.cancelJob(job.id);
        expect(await store.jobs.finish(job.id, 'r', outcome)).toBe(true);
        const ended = await get(store, job.id);
        expect(ended.state, outcome.state).toBe('cancelled');
        expect(ended.finished_at).toMatch(ISO);
      }
      expect(await store.jobs.claim('r', { leaseMs: LONG })).toBeNull();
    });

    it('treats an empty dedupe key as a key', async () => {
      const store = location(backend)();
      const first = await store.jobs.enqueue({ kind: 'graph.rebuild', dedupe_key: '' });
      const second = await store.jobs.enqueue({ kind: 'graph.rebuild', dedupe_key: '' });
      expect(first.created).toBe(true);
      expect(second).toMatchObject({ created: false, job: { id: first.job.id } });
    });
  });

  describe('listing', () => {
    it('lists newest first with filters and cursor pages, and counts by state', async () => {
      const store = location(backend)();
      const a1 = await enqueue(store, { space: 'a' });
      const whole = await enqueue(store, { kind: 'vectors.backfill' });
      const b1 = await enqueue(store, { space: 'b' });
      const a2 = await enqueue(store, { space: 'a', kind: 'lifecycle.maintain' });
      const b2 = await enqueue(store, { space: 'b', kind: 'vectors.backfill' });
      const newest = [b2, a2, b1, whole, a1].map((j) => j.id);
      const ids = (page: { jobs: JobRecord[] }) => page.jobs.map((j) => j.id);

      const seen: string[] = [];
      let cursor: string | undefined;
      for (;;) {
        const page = await store.jobs.listJobs({ limit: 2, cursor });
        expect(page.jobs.length).toBeLessThanOrEqual(2);
        seen.push(...ids(page));
        if (!page.next_cursor) break;
        cursor = page.next_cursor;
      }
      expect(seen).toEqual(newest);
      const full = await store.jobs.listJobs({ limit: 5 });
      expect(ids(full)).toEqual(newest);
      expect(full.next_cursor).toBeNull();
      expect(full.jobs[0]).toEqual(await get(store, b2.id));

      expect(ids(await store.jobs.listJobs({ limit: 10, spaces: ['a'] }))).toEqual([
        a2.id,
        whole.id,
        a1.id,
      ]);
      expect(ids(await store.jobs.listJobs({ limit: 10, spaces: [] }))).toEqual([whole.id]);
      expect(
        ids(
          await store.jobs.listJobs({
            limit: 10,
            kinds: ['vectors.backfill', 'lifecycle.maintain'],
          }),
        ),
      ).toEqual([b2.id, a2.id, whole.id]);

      await claim(store, 'r');
      await store.jobs.cancelJob(b1.id);
      expect(
        ids(await store.jobs.listJobs({ limit: 10, states: ['running', 'cancelled'] })),
      ).toEqual([b1.id, a1.id]);
      const page = await store.jobs.listJobs({
        limit: 1,
        states: ['queued'],
        spaces: ['b'],
      });
      expect(ids(page)).toEqual([b2.id]);
      expect(
        ids(
          await store.jobs.listJobs({
            limit: 5,
            states: ['queued'],
            spaces: ['b'],
            cursor: page.next_cursor!,
          }),
        ),
      ).toEqual([whole.id]);
      await expect(store.jobs.listJobs({ limit: 5, cursor: 'not-a-cursor' })).rejects.toMatchObject(
        { code: 'INVALID_INPUT', details: { field: 'cursor' } },
      );

      const next = await claim(store, 'r');
      expect(next.id).toBe(whole.id);
      await store.jobs.finish(next.id, 'r', { state: 'succeeded' });
      const last = await claim(store, 'r');
      expect(last.id).toBe(a2.id);
      await store.jobs.finish(last.id, 'r', { state: 'failed', error: 'x', retryInMs: null });
      expect(await store.jobs.jobCounts()).toEqual({
        queued: 1,
        running: 1,
        succeeded: 1,
        failed: 1,
        cancelled: 1,
      });
      expect(await location(backend)().jobs.jobCounts()).toEqual({
        queued: 0,
        running: 0,
        succeeded: 0,
        failed: 0,
        cancelled: 0,
      });
    });
  });

  describe('item failures', () => {
    const vector = (item_id: string, version = 1, space = 'default', error = 'bad input') => ({
      space,
      item_id,
      work: 'vector' as const,
      version,
      error,
    });

    it('counts attempts at one version and starts afresh at a new one', async () => {
      const store = location(backend)();
      const [item] = await items(store, 'flaky note');
      const id = item!.id;
      const asked: number[] = [];
      const policy = (attempts: number) => {
        asked.push(attempts);
        return attempts >= 3 ? null : 60_000;
      };
      const first = await store.jobs.recordItemFailure(vector(id, 1, 'default', 'e1'), policy);
      expect(first).toMatchObject({
        space: 'default',
        item_id: id,
        work: 'vector',
        version: 1,
        attempts: 1,
        last_error: 'e1',
      });
      expect(first.first_failed_at).toBe(first.last_failed_at);
      expect(at(first.next_attempt_at) - at(first.last_failed_at)).toBe(60_000);
      await sleep(3);
      const second = await store.jobs.recordItemFailure(vector(id, 1, 'default', 'e2'), policy);
      expect(second).toMatchObject({ attempts: 2, last_error: 'e2' });
      expect(second.first_failed_at).toBe(first.first_failed_at);
      expect(at(second.last_failed_at)).toBeGreaterThan(at(first.last_failed_at));
      const third = await store.jobs.recordItemFailure(vector(id), policy);
      expect(third).toMatchObject({ attempts: 3, next_attempt_at: null });
      expect(await store.jobs.listItemFailures({ limit: 10 })).toEqual([third]);
      await sleep(3);
      await revise(store, item!, 'flaky note, revised');
      // A failure of an older version no longer holds: it is not listed.
      expect(await store.jobs.listItemFailures({ limit: 10 })).toEqual([]);
      const revised = await store.jobs.recordItemFailure(vector(id, 2), policy);
      expect(revised).toMatchObject({ version: 2, attempts: 1 });
      expect(revised.first_failed_at).toBe(revised.last_failed_at);
      expect(at(revised.first_failed_at)).toBeGreaterThan(at(first.first_failed_at));
      expect(asked).toEqual([1, 2, 3, 1]);
      expect(await store.jobs.listItemFailures({ limit: 10 })).toEqual([revised]);
    });

    it('lists, clears and retries failures', async () => {
      const store = location(backend)();
      const made = await store.createItems([
        draft({ body: 'x note', space: 'a' }),
        draft({ body: 'y note', space: 'b' }),
        draft({ body: 'z note', space: 'a' }),
      ]);
      const [x, y, z] = made.map((o) => o.item.id);
      const never = () => null;
      const fx = await store.jobs.recordItemFailure(vector(x!, 1, 'a'), never);
      await sleep(3);
      const fy = await store.jobs.recordItemFailure(vector(y!, 1, 'b'), never);
      await sleep(3);
      const fz = await store.jobs.recordItemFailure(vector(z!, 1, 'a'), () => 60_000);
      // A failure of an item the store does not hold is never listed.
      await store.jobs.recordItemFailure(vector(newId(), 1, 'a'), never);
      expect(await store.jobs.listItemFailures({ limit: 10 })).toEqual([fz, fy, fx]);
      expect(await store.jobs.listItemFailures({ limit: 2 })).toEqual([fz, fy]);
      expect(await store.jobs.listItemFailures({ limit: 10, spaces: ['a'] })).toEqual([fz, fx]);
      expect(await store.jobs.listItemFailures({ limit: 10, spaces: [] })).toEqual([]);
      expect(
        await store.jobs.listItemFailures({ limit: 10, work: 'vector', spaces: ['b'] }),
      ).toEqual([fy]);

      expect(await store.jobs.retryItemFailures({ itemIds: [x!] })).toBe(1);
      expect(await store.jobs.retryItemFailures({ itemIds: [] })).toBe(0);
      const [retried] = (await store.jobs.listItemFailures({ limit: 10 })).filter(
        (f) => f.item_id === x,
      );
      expect(retried).toMatchObject({ attempts: 0, version: 1, last_error: 'bad input' });
      expect(at(retried!.next_attempt_at)).toBeLessThanOrEqual(Date.now() + 1000);
      expect(at(retried!.next_attempt_at)).toBeGreaterThanOrEqual(at(fx.last_failed_at));
      expect(await store.jobs.retryItemFailures({ spaces: ['b'] })).toBe(1);
      expect(await store.jobs.retryItemFailures({ spaces: ['a'], itemIds: [y!] })).toBe(0);
      expect(await store.jobs.retryItemFailures({ work: 'vector', itemIds: [x!, y!, z!] })).toBe(3);

      await store.jobs.clearItemFailures('vector', [x!, 'unknown']);
      await store.jobs.clearItemFailures('vector', []);
      expect((await store.jobs.listItemFailures({ limit: 10 })).map((f) => f.item_id)).toEqual([
        z,
        y,
      ]);
    });

    it('keeps a failed item out of the vector backfill until it is due or revised', async () => {
      const store = location(backend)();
      const [a, b, c] = await items(store, 'alpha note', 'beta note', 'gamma note');
      expect(await pending(store)).toEqual([a!.id, b!.id, c!.id]);

      // Not due yet, then due.
      await store.jobs.recordItemFailure(vector(a!.id), () => SHORT);
      expect(await pending(store)).toEqual([b!.id, c!.id]);
      await waitFor(async () => (await pending(store)).includes(a!.id));
      expect(await pending(store)).toEqual([a!.id, b!.id, c!.id]);

      // Attempts used up: only an explicit retry brings it back.
      await store.jobs.recordItemFailure(vector(a!.id), () => null);
      await store.jobs.recordItemFailure(vector(b!.id), () => 60_000);
      expect(await pending(store)).toEqual([c!.id]);
      expect(await store.jobs.retryItemFailures({ itemIds: [a!.id] })).toBe(1);
      expect(await pending(store)).toEqual([a!.id, c!.id]);

      // A failure of an older version does not hold the revised item back.
      await revise(store, b!, 'beta note, revised');
      expect((await store.getItems('default', [b!.id]))[0]!.version).toBe(2);
      expect(await pending(store)).toEqual([a!.id, b!.id, c!.id]);
      const item = (await store.pendingVectors(10)).find((p) => p.id === b!.id);
      expect(item).toMatchObject({ version: 2, space: 'default', body: 'beta note, revised' });
      await store.jobs.recordItemFailure(vector(b!.id, 2), () => null);
      expect(await pending(store)).toEqual([a!.id, c!.id]);
      await store.jobs.clearItemFailures('vector', [b!.id]);
      expect(await pending(store)).toEqual([a!.id, b!.id, c!.id]);
    });
  });
});
