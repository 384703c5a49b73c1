/** The auto-recall and lifecycle HTTP routes, through a real socket on 127.0.0.1. */
import { describe, expect, it } from 'vitest';

import { startTestService, TOKEN_CONFIG, TOKENS } from './http-helpers.js';

describe('auto-recall and lifecycle over HTTP', () => {
  it('configures, recalls, observes, reviews and maintains a space', async () => {
    const t = await startTestService();
    const created = await t.request('POST', '/v1/spaces/default/memories', {
      json: { body: 'The office wifi password is rotated monthly by IT.', kind: 'fact' },
    });
    expect(created.status, created.text).toBeLessThan(300);
    const id = created.body.memory.id as string;

    const settings = await t.request('PATCH', '/v1/spaces/default/auto-recall/settings', {
      json: { enabled: true, mode: 'subtle' },
    });
    expect(settings.status, settings.text).toBe(200);
    expect(settings.body).toMatchObject({ enabled: true, mode: 'subtle', max_results: 3 });
    expect((await t.request('GET', '/v1/spaces/default/auto-recall/settings')).body.mode).toBe(
      'subtle',
    );

    const recall = await t.request('POST', '/v1/spaces/default/auto-recall', {
      json: { message: 'what is the wifi password?', conversation_id: 'c1' },
    });
    expect(recall.status, recall.text).toBe(200);
    expect(recall.body).toMatchObject({ triggered: true, count: 1, items: [{ id }] });

    const analysis = await t.request('POST', '/v1/spaces/default/auto-recall/analyze', {
      json: { message: 'hi!' },
    });
    expect(analysis.body.trigger.reason).toBe('small_talk');

    const observed = await t.request('POST', '/v1/spaces/default/observe', {
      json: { memory_ids: [id, 'NOPE'] },
    });
    expect(observed.status).toBe(200);
    expect(observed.body).toMatchObject({ applied: 1, failed: 1 });

    const stats = await t.request('GET', '/v1/spaces/default/auto-recall/stats');
    expect(stats.body).toMatchObject({ reinforcement_events: 1 });

    const review = await t.request('GET', '/v1/spaces/default/review?limit=5');
    expect(review.status, review.text).toBe(200);
    expect(review.body).toMatchObject({ items: [], window: { low: 0.15, high: 0.35 } });

    const letGo = await t.request('POST', `/v1/spaces/default/review/${id}`, {
      json: { action: 'let_go' },
    });
    expect(letGo.status, letGo.text).toBe(200);
    expect(letGo.body.status).toBe('archived');

    const dry = await t.request('POST', '/v1/spaces/default/maintain', { json: { dry_run: true } });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body).toMatchObject({ dry_run: true, space: 'default', items_scanned: 1 });
  });

  it('rejects bad input naming the field', async () => {
    const t = await startTestService();
    for (const [method, path, json, field] of [
      ['PATCH', '/v1/spaces/default/auto-recall/settings', { mode: 'loud' }, 'mode'],
      [
        'PATCH',
        '/v1/spaces/default/auto-recall/settings',
        { relevance_threshold: 2 },
        'relevance_threshold',
      ],
      [
        'PATCH',
        '/v1/spaces/default/auto-recall/settings',
        { min_interval_s: -1 },
        'min_interval_s',
      ],
      ['POST', '/v1/spaces/default/auto-recall', { message: '' }, 'message'],
      ['POST', '/v1/spaces/default/observe', { memory_ids: [] }, 'memory_ids'],
    ] as const) {
      const r = await t.request(method, path, { json });
      expect(r.status, `${path} ${JSON.stringify(json)}`).toBe(400);
      expect(r.body.error.details.field).toBe(field);
    }
  });

  it('needs write access to reinforce and admin to maintain', async () => {
    const t = await startTestService({ server: { tokens: TOKEN_CONFIG } });
    const reader = { token: TOKENS.readerA };
    expect(
      (
        await t.request('POST', '/v1/spaces/team-a/auto-recall/analyze', {
          ...reader,
          json: { message: 'hi' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await t.request('POST', '/v1/spaces/team-a/observe', {
          ...reader,
          json: { memory_ids: ['x'] },
        })
      ).status,
    ).toBe(403);
    expect(
      (await t.request('POST', '/v1/spaces/team-a/maintain', { token: TOKENS.writerA, json: {} }))
        .status,
    ).toBe(403);
    expect(
      (
        await t.request('POST', '/v1/spaces/team-a/maintain', {
          token: TOKENS.admin,
          json: { dry_run: true },
        })
      ).status,
    ).toBe(200);
  });
});
