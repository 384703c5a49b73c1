/**
 * Dormant recall over HTTP (§9.4, §13): review, inspect and feedback endpoints on a real socket,
 * their roles, and that the recall response carries nothing dormant.
 */
import { describe, expect, it } from 'vitest';

import { DAY_MS } from '../src/store/dormant/profile.js';
import { startTestService, TOKEN_CONFIG, TOKENS } from './http-helpers.js';

const QUERY = 'how to restart the staging database server after a crash';

describe('dormant recall over HTTP', () => {
  it('reviews, inspects and takes feedback; read tokens may only review', async () => {
    const t = await startTestService({
      server: { tokens: TOKEN_CONFIG },
      dormant_recall: { mode: 'shadow' },
      graph: { enabled: false },
    });
    const base = '/v1/spaces/team-a';
    const old = new Date(Date.now() - 90 * DAY_MS).toISOString();
    for (const json of [
      {
        kind: 'fact',
        body: 'To restart the staging database server after a crash, run the recover-db script.',
        created_at: old,
      },
      {
        kind: 'fact',
        body: 'How to restart the staging database server after a crash: follow the recovery runbook.',
      },
    ]) {
      const r = await t.request('POST', `${base}/memories`, { json, token: TOKENS.writerA });
      expect(r.status).toBe(201);
    }
    const recall = await t.request('POST', `${base}/recall`, {
      json: { query: QUERY, k: 1 },
      token: TOKENS.readerA,
    });
    expect(recall.status).toBe(200);
    expect(recall.text).not.toMatch(/dormant/);
    await t.service.engram.dormantIdle();
    const review = await t.request('GET', `${base}/dormant/events?limit=5`, {
      token: TOKENS.readerA,
    });
    expect(review.status).toBe(200);
    expect(review.body.mode).toBe('shadow');
    const event = review.body.events[0];
    expect(event.candidate_id).not.toBeNull();
    const denied = await t.request('POST', `${base}/dormant/events/${event.id}/inspect`, {
      token: TOKENS.readerA,
    });
    expect(denied.status).toBe(403);
    const inspect = await t.request('POST', `${base}/dormant/events/${event.id}/inspect`, {
      token: TOKENS.writerA,
    });
    expect(inspect.status).toBe(200);
    expect(inspect.body.memory.id).toBe(event.candidate_id);
    const fb = await t.request('POST', `${base}/dormant/events/${event.id}/feedback`, {
      json: { category: 'useful' },
      token: TOKENS.writerA,
    });
    expect(fb.status).toBe(200);
    expect(fb.body.changed).toBe(true);
    const conflict = await t.request('POST', `${base}/dormant/events/${event.id}/feedback`, {
      json: { category: 'dismissed' },
      token: TOKENS.writerA,
    });
    expect(conflict.status).toBe(409);
    const bad = await t.request('POST', `${base}/dormant/events/${event.id}/feedback`, {
      json: { category: 'great' },
      token: TOKENS.writerA,
    });
    expect(bad.status).toBe(400);
    const missing = await t.request('POST', `${base}/dormant/events/NOPE/inspect`, {
      token: TOKENS.writerA,
    });
    expect(missing.status).toBe(404);
    const other = await t.request('GET', '/v1/spaces/team-b/dormant/events', {
      token: TOKENS.writerA,
    });
    expect(other.status).toBe(403);
  });
});
