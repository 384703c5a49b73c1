// Reinforcement (observe_memory_usage) and review (§6 step 4, §7.4).
import { expect, it } from 'vitest';

import { isCrossDomain } from '../src/lifecycle/reinforce.js';
import { reviewPriority } from '../src/lifecycle/review.js';
import { requireLifecycle } from '../src/store/lifecycle-store.js';
import {
  type BackendEngramOptions,
  clockedEngram as engramOn,
  DAY,
  describeBackends,
  failure,
  type TestClock,
  testClock,
} from './lifecycle-helpers.js';

const NO_EMBEDDER = { embedder: { provider: 'none' as const } };

describeBackends('observeMemoryUsage', (backend) => {
  const clockedEngram = (clock: TestClock, options: BackendEngramOptions = {}) =>
    engramOn(clock, { backend, ...options });

  it('updates last_used_at and use_count, raises strength, and records a use event, not an access', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock, { config: NO_EMBEDDER });
    const { memory } = await engram.remember({
      body: 'the staging db is on port 5433',
      kind: 'episode',
    });
    clock.advance(60 * DAY);
    await engram.maintain();
    const faded = await engram.get(memory.id);
    expect(faded.strength).toBeCloseTo(Math.exp(-0.6), 10);
    const result = await engram.observeMemoryUsage({ memory_ids: [memory.id], actor: 'agent-7' });
    expect(result).toMatchObject({ applied: 1, failed: 0 });
    expect(result.results[0]).toMatchObject({
      id: memory.id,
      ok: true,
      cross_domain: false,
      strength: 1,
      base: 1.1,
      use_count: 1,
      review_priority: null,
    });
    const after = await engram.get(memory.id);
    expect(after).toMatchObject({
      use_count: 1,
      strength: 1,
      access_count: 0,
      last_accessed_at: null,
    });
    expect(after.last_used_at).toBe(new Date(clock.now()).toISOString());
    const events = await requireLifecycle(engram.storeForTransfer).useEvents('default', memory.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      source: 'explicit',
      base_before: 1,
      base_after: 1.1,
      cross_domain: false,
      actor: 'agent-7',
    });
    expect(events[0]!.strength_before).toBeCloseTo(Math.exp(-0.6), 10);
  });

  it('keeps base within max_base however often an item is used', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock, {
      config: { ...NO_EMBEDDER, lifecycle: { max_base: 1.5 } },
    });
    const { memory } = await engram.remember({ body: 'a much used note', tags: ['ops'] });
    let last;
    for (let i = 0; i < 12; i++) {
      clock.advance(DAY);
      last = await engram.observeMemoryUsage({ memory_ids: [memory.id], context_tags: ['hiring'] });
    }
    expect(last!.results[0]).toMatchObject({ ok: true, base: 1.5, strength: 1, use_count: 12 });
    // with base 1.5 a note stays at full strength for ln(1.5)/0.003 ≈ 135 days
    clock.advance(130 * DAY);
    await engram.maintain();
    expect((await engram.get(memory.id)).strength).toBe(1);
  });

  it('gives cross-domain use a larger boost', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock, { config: NO_EMBEDDER });
    const a = await engram.remember({
      body: 'invoice numbers are sequential per tenant',
      tags: ['billing'],
      area: 'projects/billing',
    });
    const b = await engram.remember({
      body: 'invoices are sent on the first of the month',
      tags: ['billing'],
      area: 'projects/billing',
    });
    const same = await engram.observeMemoryUsage({
      memory_ids: [a.memory.id],
      context_tags: ['billing'],
    });
    const cross = await engram.observeMemoryUsage({
      memory_ids: [b.memory.id],
      context_tags: ['onboarding'],
      context_area: 'projects/hr',
    });
    expect(same.results[0]).toMatchObject({ cross_domain: false, base: 1.1 });
    expect(cross.results[0]).toMatchObject({ cross_domain: true, base: 1.25 });
    const stats = await engram.autoRecallStats();
    expect(stats).toMatchObject({ reinforcement_events: 2, cross_domain_detections: 1 });
  });

  it('detects cross-domain use only with a domain on both sides', () => {
    expect(isCrossDomain({ tags: ['billing'], area: 'general' }, { tags: ['hiring'] })).toBe(true);
    expect(isCrossDomain({ tags: ['Billing'], area: 'general' }, { tags: ['billing'] })).toBe(
      false,
    );
    expect(isCrossDomain({ tags: [], area: 'projects/billing' }, { tags: ['billing'] })).toBe(
      false,
    );
    expect(
      isCrossDomain({ tags: [], area: 'projects/billing' }, { tags: [], area: 'projects/search' }),
    ).toBe(true);
    expect(isCrossDomain({ tags: [], area: 'general' }, { tags: ['hiring'] })).toBe(false);
    expect(isCrossDomain({ tags: ['ops'], area: 'general' }, { tags: [] })).toBe(false);
  });

  it('reports unknown and forgotten ids one by one and applies the rest', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock, { config: NO_EMBEDDER });
    const ok = await engram.remember({ body: 'a used memory' });
    const gone = await engram.remember({ body: 'a forgotten memory' });
    await engram.forget(gone.memory.id);
    const other = await engram.remember({ body: 'in another space', space: 'team' });
    const result = await engram.observeMemoryUsage([
      ok.memory.id,
      'NOPE',
      gone.memory.id,
      other.memory.id,
    ]);
    expect(result.applied).toBe(1);
    expect(result.failed).toBe(3);
    expect(result.results.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual([
      'ok',
      'NOT_FOUND',
      'CONFLICT',
      'NOT_FOUND',
    ]);
    expect((await engram.get(ok.memory.id)).use_count).toBe(1);
    expect((await engram.get(gone.memory.id, {})).use_count).toBe(0);
  });

  it.each([
    [{ memory_ids: [] }, 'memory_ids', /at least one/],
    [{ memory_ids: ['x'], context_tags: [''] }, 'context_tags[0]', /must not be empty/],
    [{ memory_ids: ['x'], context_area: '/bad' }, 'context_area', /segments/],
    [{ memory_ids: 'x' }, 'memory_ids', /array/],
    [{ memory_ids: ['x'], colour: 1 }, 'colour', /unknown key/],
  ])('rejects %j naming the field', async (input, field, rule) => {
    const engram = clockedEngram(testClock(), { config: NO_EMBEDDER });
    const err = await failure(engram.observeMemoryUsage(input as never));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.details.field).toBe(field);
    expect(err.message).toMatch(rule);
  });
});

describeBackends('review', (backend) => {
  const clockedEngram = (clock: TestClock, options: BackendEngramOptions = {}) =>
    engramOn(clock, { backend, ...options });

  it('lists items in the review window that matter, by priority, with reinforce / revise / let-go', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock, { config: NO_EMBEDDER });
    const make = (body: string, importance: number) =>
      engram.remember({ body, kind: 'working', importance });
    const important = await make('the release checklist lives in the wiki', 0.9);
    const ordinary = await make('lunch order for the offsite', 0.5);
    const minor = await make('a minor scratch note', 0.2);
    const fresh = await make('a fresh note', 0.9);
    await engram.observeMemoryUsage([ordinary.memory.id]);
    clock.advance(27 * DAY); // base 1 -> e^(-1.35) ≈ 0.26; base 1.1 -> 0.29
    await engram.revise(fresh.memory.id, { body: 'a fresh note, revised' });
    const list = await engram.review();
    expect(list.window).toEqual({ low: 0.15, high: 0.35 });
    expect(list.items.map((i) => i.body)).toEqual([important.memory.body, ordinary.memory.body]);
    expect(list.items.map((i) => i.id)).not.toContain(minor.memory.id); // does not matter enough
    expect(list.items[0]).toMatchObject({
      body: 'the release checklist lives in the wiki',
      importance: 0.9,
    });
    expect(list.items[0]!.priority).toBe(
      reviewPriority(
        { importance: 0.9, use_count: 0 },
        list.items[0]!.strength,
        engram.config.lifecycle,
      ),
    );
    expect(list.items[0]!.days_to_archive).toBeCloseTo(
      Math.log(list.items[0]!.strength / 0.2) / 0.05,
      2,
    );

    const reinforced = await engram.reviewAction(important.memory.id, 'reinforce');
    expect(reinforced).toMatchObject({ use_count: 1, strength: 1 });
    const revised = await engram.reviewAction(ordinary.memory.id, 'revise', {
      body: 'lunch order: vegetarian for six',
    });
    expect(revised.version).toBe(2);
    expect((await engram.review()).items).toEqual([]);

    clock.advance(27 * DAY);
    const again = await engram.review();
    expect(again.items.map((i) => i.id).sort()).toEqual(
      [important.memory.id, ordinary.memory.id, fresh.memory.id].sort(),
    );
    const gone = await engram.reviewAction(important.memory.id, 'let_go', {
      reason: 'no longer needed',
    });
    expect(gone.status).toBe('archived');
    const h = await engram.history(important.memory.id);
    expect(h.status_events.at(-1)).toMatchObject({
      from_status: 'active',
      to_status: 'archived',
      reason: 'no longer needed',
    });
    expect((await engram.restore(important.memory.id)).status).toBe('active');
  });

  it('respects the review limit and rejects a bad one', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock, { config: NO_EMBEDDER });
    for (let i = 0; i < 5; i++)
      await engram.remember({ body: `reviewable ${i}`, kind: 'working', importance: 0.8 });
    clock.advance(27 * DAY);
    const list = await engram.review({ limit: 2 });
    expect(list).toMatchObject({ total: 5 });
    expect(list.items).toHaveLength(2);
    const err = await failure(engram.review({ limit: 0 }));
    expect(err.details.field).toBe('limit');
  });

  it('refuses to let go of a forgotten memory and to reinforce an unknown one', async () => {
    const engram = clockedEngram(testClock(), { config: NO_EMBEDDER });
    const { memory } = await engram.remember({ body: 'soon forgotten' });
    await engram.forget(memory.id);
    expect((await failure(engram.reviewAction(memory.id, 'let_go'))).code).toBe('CONFLICT');
    expect((await failure(engram.reviewAction('NOPE', 'reinforce'))).code).toBe('NOT_FOUND');
  });
});
