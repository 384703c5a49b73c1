// Ninety simulated days of conversations: silent auto-recall keeps the memories that keep coming
// up above the archive threshold, while memories of the same kind that nobody discusses decay
// and are archived by the nightly maintenance.
import { expect, it } from 'vitest';

import { clockedEngram, DAY, describeBackends, testClock } from './lifecycle-helpers.js';

const DISCUSSED = [
  {
    body: 'The billing service deploys to staging every Friday via the release pipeline.',
    tags: ['billing'],
    talk: [
      'morning!',
      'How does the billing service get deployed to staging these days?',
      'ok, thanks',
    ],
  },
  {
    body: 'Kafka consumer lag in payments-api is caused by slow database writes.',
    tags: ['payments'],
    talk: [
      'hey',
      'Why is the payments consumer lagging again?',
      'Could the database writes be slow?',
    ],
  },
  {
    body: 'The office wifi password is rotated monthly by IT.',
    tags: ['office'],
    talk: ['What is the office wifi password now?', 'cool, thanks!'],
  },
];

const UNDISCUSSED = [
  { body: 'Bob is allergic to peanuts.', tags: ['people'] },
  { body: 'The quarterly planning meeting is in the big conference room.', tags: ['planning'] },
  { body: 'Alice prefers tea over coffee in the morning.', tags: ['people'] },
];

describeBackends('auto-recall over 90 days', (backend) => {
  it('keeps discussed items above the archive threshold while undiscussed ones decay', async () => {
    const clock = testClock(Date.parse('2026-01-01T03:30:00Z'));
    const engram = clockedEngram(clock, {
      backend,
      config: { lifecycle: { backup: { enabled: false } } },
    });
    const discussed: string[] = [];
    const undiscussed: string[] = [];
    for (const m of DISCUSSED)
      discussed.push(
        (await engram.remember({ body: m.body, tags: m.tags, kind: 'working' })).memory.id,
      );
    for (const m of UNDISCUSSED)
      undiscussed.push(
        (await engram.remember({ body: m.body, tags: m.tags, kind: 'working' })).memory.id,
      );
    await engram.configureAutoRecall({ enabled: true, mode: 'silent' });

    let reinforced = 0;
    let surfaced = 0;
    for (let day = 1; day <= 90; day++) {
      clock.advance(DAY);
      await engram.maintain(); // the nightly run
      if (day % 5 !== 0) continue;
      const topic = DISCUSSED[(day / 5) % DISCUSSED.length]!;
      clock.advance(6 * 3_600_000); // a conversation in the morning
      for (const message of topic.talk) {
        const r = await engram.processMessage({ message, conversation_id: `day-${day}` });
        reinforced += r.reinforced;
        surfaced += r.items.length + r.handles.length;
        clock.advance(60_000);
      }
      clock.set(Date.parse('2026-01-01T03:30:00Z') + day * DAY);
    }
    clock.advance(DAY);
    await engram.maintain();

    expect(surfaced).toBe(0); // silent mode never surfaces anything
    expect(reinforced).toBeGreaterThanOrEqual(18); // each of 18 conversations reinforced its topic
    await engram.idle(); // an ordinary recall's accesses would be in the store by now
    for (const id of discussed) {
      const m = await engram.get(id);
      expect(m.status, m.body).toBe('active');
      expect(m.strength, m.body).toBeGreaterThanOrEqual(0.2);
      expect(m.use_count, m.body).toBeGreaterThanOrEqual(5);
      expect(m.access_count, m.body).toBe(0); // reinforcement is not access (§3.6)
    }
    for (const id of undiscussed) {
      const m = await engram.get(id);
      expect(m, m.body).toMatchObject({ status: 'archived', strength: 0.05, use_count: 0 });
    }
    const stats = await engram.autoRecallStats();
    expect(stats.items_kept_by_reinforcement).toBe(discussed.length);
    expect(stats.reinforcement_events).toBe(reinforced);
    expect(stats.reinforcement_by_source).toEqual({ auto_recall: reinforced });
    expect(stats.cross_domain_detections).toBe(0);
  });
});
