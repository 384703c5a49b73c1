/**
 * The jobs routes of the HTTP API on a real server (ephemeral 127.0.0.1 port, real sockets): an
 * admin token of every space lists, shows, retries and cancels jobs; any other token is refused;
 * /v1/health reports the job worker with the job counts.
 */
import { describe, expect, it } from 'vitest';

import {
  ItemRetryResultSchema,
  JobActivitySchema,
  JobPageSchema,
  JobSchema,
} from '../src/interfaces/responses/jobs.js';
import { HealthSchema } from '../src/interfaces/responses/status.js';
import { startTestService, TOKEN_CONFIG, TOKENS } from './http-helpers.js';

const UNKNOWN = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
const DAY_MS = 86_400_000;

describe('HTTP jobs routes', () => {
  it('lets an admin of every space see and act on jobs', async () => {
    const s = await startTestService({ server: { tokens: TOKEN_CONFIG } });
    const as = { token: TOKENS.admin };
    const activity = await s.request('GET', '/v1/jobs', as);
    expect(activity.status, activity.text).toBe(200);
    const view = JobActivitySchema.parse(activity.body);
    expect(view.worker).toMatchObject({ runs: expect.any(Number) });
    expect(view.worker?.status).not.toBe('stopped');

    const { engram } = s.service;
    const done = await engram.runJobHere({ kind: 'graph.rebuild', space: 'default' });
    expect(done.state).toBe('succeeded');
    const listed = await s.request('GET', '/v1/jobs?state=succeeded&kind=graph.rebuild', as);
    expect(listed.status, listed.text).toBe(200);
    expect(JobPageSchema.parse(listed.body).jobs.map((j) => j.id)).toEqual([done.id]);
    const shown = await s.request('GET', `/v1/jobs/${done.id}`, as);
    expect(JobSchema.parse(shown.body)).toMatchObject({ id: done.id, state: 'succeeded' });
    expect((await s.request('POST', `/v1/jobs/${done.id}/retry`, as)).status).toBe(409);
    expect((await s.request('POST', `/v1/jobs/${done.id}/cancel`, as)).status).toBe(409);

    // A job not due for a day: cancelled at once, then queued again by a retry.
    const { job: later } = await engram.enqueueJob({
      kind: 'graph.rebuild',
      space: 'default',
      delay_ms: DAY_MS,
    });
    const cancelled = await s.request('POST', `/v1/jobs/${later.id}/cancel`, as);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(JobSchema.parse(cancelled.body).state).toBe('cancelled');
    const retried = await s.request('POST', `/v1/jobs/${later.id}/retry`, as);
    expect(retried.status, retried.text).toBe(200);
    expect(JobSchema.parse(retried.body).state).toMatch(/^(queued|running|succeeded)$/u);

    const missing = await s.request('GET', `/v1/jobs/${UNKNOWN}`, as);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    expect((await s.request('POST', `/v1/jobs/${UNKNOWN}/cancel`, as)).status).toBe(404);

    const items = await s.request('POST', '/v1/jobs/items/retry', as);
    expect(items.status, items.text).toBe(200);
    expect(ItemRetryResultSchema.parse(items.body)).toEqual({ retried: 0 });
    const scoped = await s.request('POST', '/v1/jobs/items/retry', {
      ...as,
      json: { space: 'default' },
    });
    expect(scoped.body).toEqual({ retried: 0 });

    const bad = await s.request('GET', '/v1/jobs?state=sleeping', as);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toMatch(/^state/u);
    expect(
      (await s.request('POST', '/v1/jobs/items/retry', { ...as, json: { colour: 'red' } })).status,
    ).toBe(400);
  });

  it('refuses every other token (403) and requests without one (401)', async () => {
    const s = await startTestService({ server: { tokens: TOKEN_CONFIG } });
    const routes: [string, string][] = [
      ['GET', '/v1/jobs'],
      ['GET', `/v1/jobs/${UNKNOWN}`],
      ['POST', `/v1/jobs/${UNKNOWN}/retry`],
      ['POST', `/v1/jobs/${UNKNOWN}/cancel`],
      ['POST', '/v1/jobs/items/retry'],
    ];
    for (const [method, path] of routes) {
      for (const token of [TOKENS.readerA, TOKENS.writerA]) {
        const res = await s.request(method, path, { token });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.error.code).toBe('FORBIDDEN');
      }
      expect((await s.request(method, path)).status, `${method} ${path}`).toBe(401);
    }
  });

  it('/v1/health reports the job worker with the job counts', async () => {
    const s = await startTestService({ server: { tokens: TOKEN_CONFIG } });
    await s.service.engram.runJobHere({ kind: 'graph.rebuild', space: 'default' });
    const res = await s.request('GET', '/v1/health');
    expect(res.status).toBe(200);
    const { worker } = HealthSchema.parse(res.body).components;
    expect(worker).toMatchObject({
      status: 'ok',
      state: expect.stringMatching(/^(idle|running)$/u),
      runs: expect.any(Number),
      failed_runs: 0,
      jobs: { succeeded: 1, failed: 0, queued: expect.any(Number), running: expect.any(Number) },
    });
    expect(worker).not.toHaveProperty('holder');
  });

  it('/v1/health shows the worker off when worker.enabled is false', async () => {
    const s = await startTestService({ worker: { enabled: false } });
    const res = await s.request('GET', '/v1/health');
    expect(res.body.components.worker).toMatchObject({ status: 'off', jobs: { queued: 0 } });
    expect(s.service.worker.state().status).toBe('stopped');
  });
});
