// Decay (§7.1) and the status transitions of the decay job (§7.2), driven by a simulated clock.
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { configSchema } from '../src/config/schema.js';
import { KINDS } from '../src/domain/types.js';
import { strengthAt } from '../src/lifecycle/decay.js';
import {
  type BackendEngramOptions,
  clockedEngram as engramOn,
  DAY,
  describeBackends,
  type TestClock,
  testClock,
} from './lifecycle-helpers.js';

const DEFAULT_RATES = {
  identity: 0.0001,
  fact: 0.001,
  preference: 0.001,
  note: 0.003,
  rule: 0.005,
  skill: 0.005,
  procedure: 0.005,
  episode: 0.01,
  working: 0.05,
};

async function all(engram: Engram) {
  const page = await engram.list({
    statuses: [
      'candidate',
      'active',
      'challenged',
      'superseded',
      'merged',
      'archived',
      'forgotten',
    ],
    limit: 1000,
  });
  return page.items;
}

describe('decay rates', () => {
  it('uses the §7.1 rates per kind by default', () => {
    expect(configSchema.parse({}).lifecycle.decay_rates).toEqual(DEFAULT_RATES);
  });
});

describeBackends('decay', (backend) => {
  const clockedEngram = (clock: TestClock, options: BackendEngramOptions = {}) =>
    engramOn(clock, { backend, ...options });

  it('decays each kind at its own rate: strength = exp(-λ·days), floored at 0.05', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock);
    const ids = new Map<string, string>();
    for (const kind of KINDS) {
      const { memory } = await engram.remember({ body: `a ${kind} about the decay rates`, kind });
      ids.set(kind, memory.id);
    }
    clock.advance(100 * DAY);
    await engram.maintain({ dry_run: false });
    for (const kind of KINDS) {
      const m = await engram.get(ids.get(kind)!);
      const expected = Math.max(0.05, Math.exp(-DEFAULT_RATES[kind] * 100));
      expect(m.strength, kind).toBeCloseTo(expected, 10);
    }
    // working: exp(-5) < 0.05, so the floor holds it
    expect((await engram.get(ids.get('working')!)).strength).toBe(0.05);
  });

  it('takes configured rates per kind', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock, { config: { lifecycle: { decay_rates: { note: 0.02 } } } });
    const { memory } = await engram.remember({ body: 'a note with a faster rate', kind: 'note' });
    clock.advance(10 * DAY);
    await engram.maintain();
    expect((await engram.get(memory.id)).strength).toBeCloseTo(Math.exp(-0.2), 10);
  });

  it('exempts pinned items: they neither decay nor get archived', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock);
    const pinned = await engram.remember({
      body: 'pinned scratch note',
      kind: 'working',
      pinned: true,
    });
    const loose = await engram.remember({ body: 'loose scratch note', kind: 'working' });
    clock.advance(200 * DAY);
    const report = await engram.maintain();
    expect(await engram.get(pinned.memory.id)).toMatchObject({ strength: 1, status: 'active' });
    expect(await engram.get(loose.memory.id)).toMatchObject({ strength: 0.05, status: 'archived' });
    expect(report.edge_cases.pinned_held.ids).toEqual([pinned.memory.id]);
  });

  it('restarts decay from the last revision and the last use', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock);
    const revised = await engram.remember({ body: 'episode one', kind: 'episode' });
    const used = await engram.remember({ body: 'episode two', kind: 'episode' });
    clock.advance(50 * DAY);
    await engram.revise(revised.memory.id, { body: 'episode one, corrected' });
    await engram.observeMemoryUsage([used.memory.id]);
    clock.advance(10 * DAY);
    await engram.maintain();
    expect((await engram.get(revised.memory.id)).strength).toBeCloseTo(Math.exp(-0.01 * 10), 10);
    // the use also raised the base by use_boost (0.1): 1.1 · e^(-0.1) ≈ 0.995
    expect((await engram.get(used.memory.id)).strength).toBeCloseTo(
      Math.min(1, 1.1 * Math.exp(-0.1)),
      10,
    );
  });

  it('is a pure function of stored facts: daily runs for 30 days equal one run at the end', async () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    const clocks = [testClock(start), testClock(start)];
    const engrams = clocks.map((c) =>
      clockedEngram(c, { config: { lifecycle: { candidate_base: 0.45 } } }),
    );
    const seed = async (engram: Engram) => {
      const created = (days: number) => new Date(start - days * DAY).toISOString();
      const make = (body: string, kind: (typeof KINDS)[number], days: number, extra = {}) =>
        engram.remember({ body, kind, created_at: created(days), ...extra });
      const out = [
        await make('working note about the sprint', 'working', 10),
        await make('working note about the release', 'working', 25),
        await make('an episode from last year', 'episode', 120),
        await make('a fact about the office', 'fact', 3),
        await make('a candidate rule', 'rule', 0, { status: 'candidate' }),
        await make('a working candidate', 'working', 0, { status: 'candidate' }),
        await make('pinned working', 'working', 40, { pinned: true }),
      ];
      return out.map((r) => r.memory);
    };
    const [a, b] = [await seed(engrams[0]!), await seed(engrams[1]!)];
    // identical uses at identical times in both stores
    for (let day = 1; day <= 30; day++) {
      for (const [i, engram] of engrams.entries()) {
        clocks[i]!.advance(DAY);
        const items = i === 0 ? a : b;
        if (day === 2) await engram.observeMemoryUsage([items[4]!.id, items[5]!.id]);
        if (day === 12) await engram.observeMemoryUsage([items[0]!.id]);
        if (i === 0) await engram.maintain();
      }
    }
    await engrams[1]!.maintain();
    const view = async (engram: Engram) =>
      (await all(engram))
        .map((m) => ({ body: m.body, status: m.status, strength: m.strength }))
        .sort((x, y) => x.body.localeCompare(y.body));
    const daily = await view(engrams[0]!);
    const once = await view(engrams[1]!);
    expect(daily).toEqual(once);
    // the scenario does exercise transitions both ways
    expect(daily.filter((d) => d.status === 'archived').length).toBeGreaterThan(0);
    expect(daily.find((d) => d.body === 'a candidate rule')?.status).toBe('active');
    // promoted when used, then faded below 0.2: a single late run does both, in order
    expect(daily.find((d) => d.body === 'a working candidate')?.status).toBe('archived');
    // and the event sequences agree (times aside)
    const events = async (engram: Engram, items: { id: string; body: string }[]) =>
      Promise.all(
        items.map(async (m) => ({
          body: m.body,
          events: (await engram.history(m.id)).status_events.map(
            (e) => `${e.from_status}->${e.to_status}:${e.reason}`,
          ),
        })),
      );
    expect(await events(engrams[0]!, a)).toEqual(await events(engrams[1]!, b));
  });

  it('running twice at the same time changes nothing the second time', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock);
    await engram.remember({ body: 'an episode', kind: 'episode' });
    await engram.remember({ body: 'a scratch note', kind: 'working' });
    clock.advance(40 * DAY);
    const first = await engram.maintain();
    const second = await engram.maintain();
    expect(first.strength_updates).toBe(2);
    expect(first.archived).toBe(1);
    expect(second).toMatchObject({ strength_updates: 0, archived: 0, promoted: 0 });
  });
});

describeBackends('status transitions', (backend) => {
  const clockedEngram = (clock: TestClock, options: BackendEngramOptions = {}) =>
    engramOn(clock, { backend, ...options });

  it('promotes a candidate once its strength reaches 0.5 (by use), with a promotion event', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock);
    const { memory } = await engram.remember({
      body: 'maybe: the team prefers squash merges',
      kind: 'preference',
      status: 'candidate',
    });
    await engram.maintain();
    expect((await engram.get(memory.id)).status).toBe('candidate'); // initial base 0.45 < 0.5
    clock.advance(DAY);
    await engram.observeMemoryUsage([memory.id]);
    const report = await engram.maintain();
    expect(report.promoted).toBe(1);
    expect(report.transitions[0]).toMatchObject({
      id: memory.id,
      from: 'candidate',
      to: 'active',
      reason: 'promotion',
    });
    const h = await engram.history(memory.id);
    expect(h.item.status).toBe('active');
    expect(h.status_events.map((e) => [e.from_status, e.to_status, e.reason])).toEqual([
      ['candidate', 'active', 'promotion'],
    ]);
  });

  it('archives a faded active item with reason decay; restore brings it back and it stays', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock);
    const { memory } = await engram.remember({
      body: 'scratch: try the new linter',
      kind: 'working',
    });
    clock.advance(33 * DAY); // e^(-1.65) ≈ 0.19 < 0.2
    const report = await engram.maintain();
    expect(report.archived).toBe(1);
    let h = await engram.history(memory.id);
    expect(h.item).toMatchObject({
      status: 'archived',
      prior: { status: 'active', reason: 'decay' },
    });
    expect(h.status_events.at(-1)).toMatchObject({
      from_status: 'active',
      to_status: 'archived',
      reason: 'decay',
    });
    // no automatic resurrection, even when it is used again
    await engram.observeMemoryUsage([memory.id]);
    await engram.maintain();
    expect((await engram.get(memory.id)).status).toBe('archived');
    // an explicit restore is a reinforcement: the next run keeps it active
    clock.advance(DAY);
    await engram.restore(memory.id);
    clock.advance(DAY);
    await engram.maintain();
    h = await engram.history(memory.id);
    expect(h.item.status).toBe('active');
    expect(h.status_events.map((e) => e.reason)).toEqual(['decay', 'restore']);
  });

  it('skips forgotten items entirely', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock);
    const { memory } = await engram.remember({ body: 'forgotten scratch', kind: 'working' });
    await engram.forget(memory.id);
    clock.advance(100 * DAY);
    const report = await engram.maintain();
    expect(report.items_scanned).toBe(0);
    expect(await engram.get(memory.id)).toMatchObject({ status: 'forgotten', strength: 1 });
  });

  it('leaves superseded and merged items in their status (only their strength follows decay)', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock);
    const old = await engram.remember({ body: 'old working note', kind: 'working' });
    const fresh = await engram.remember({
      body: 'new working note',
      kind: 'working',
      pinned: true,
    });
    await engram.supersede(old.memory.id, fresh.memory.id);
    clock.advance(100 * DAY);
    await engram.maintain();
    expect(await engram.get(old.memory.id)).toMatchObject({ status: 'superseded', strength: 0.05 });
  });

  it('agrees with the pure strength function on the stored facts', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock);
    const { memory } = await engram.remember({ body: 'a note to check', kind: 'note' });
    clock.advance(77 * DAY);
    await engram.maintain();
    const config = engram.config.lifecycle;
    const expected = strengthAt(
      {
        id: memory.id,
        space: 'default',
        kind: 'note',
        area: 'general',
        tags: [],
        status: 'active',
        pinned: false,
        importance: 0.5,
        strength: 1,
        base: null,
        created_at: Date.parse(memory.created_at),
        last_revised_at: null,
        use_count: 0,
        last_used_at: null,
        last_restored_at: null,
      },
      clock.now(),
      config,
    );
    expect((await engram.get(memory.id)).strength).toBe(expected);
  });
});
