// Auto-recall (§6): message analysis and trigger decisions, the three modes, the cooldown,
// persisted settings and bad input.
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { analyzeMessage, topicStems } from '../src/autorecall/analyze.js';
import { requireLifecycle } from '../src/store/lifecycle-store.js';
import { tempDir, testEngram as sqliteEngram } from './helpers.js';
import {
  backendEngram,
  type BackendEngramOptions,
  clockedEngram as engramOn,
  describeBackends,
  failure,
  type TestClock,
  testClock,
} from './lifecycle-helpers.js';

const MEMORIES = [
  {
    body: 'The billing service deploys to staging every Friday via the release pipeline.',
    tags: ['billing'],
  },
  {
    body: 'Kafka consumer lag in payments-api is caused by slow database writes.',
    tags: ['payments'],
  },
  { body: 'Alice prefers tea over coffee in the morning.', area: 'people' },
  { body: 'The office wifi password is rotated monthly by IT.', tags: ['office'] },
  {
    body: 'Postgres migration for the orders table must run during the maintenance window.',
    tags: ['db'],
  },
  { body: 'Bob is allergic to peanuts.', area: 'people' },
  { body: 'The quarterly planning meeting is in the big conference room.', tags: ['office'] },
];

async function seeded(engram: Engram) {
  const ids = new Map<string, string>();
  for (const m of MEMORIES) {
    const { memory } = await engram.remember({ ...m, kind: 'fact' });
    ids.set(m.body.split(' ').slice(0, 2).join(' '), memory.id);
  }
  return ids;
}

describe('analyzeForRecall', () => {
  const history = [
    'We are migrating Postgres to version 16 next month.',
    'The Postgres migration needs a maintenance window.',
  ];

  it.each([
    ['How do I deploy the billing service to staging?', true, 'question'],
    ['Do we have a runbook for the database failover', true, 'question'],
    ['Remember when we talked about Kafka consumer lag?', true, 'memory_reference'],
    ['Last time the invoice job failed on the first of the month.', true, 'memory_reference'],
    ['I am refactoring the invoiceGenerator module today.', true, 'topic_shift'],
    ['Let us look at the Postgres indexes next.', true, 'sustained_discussion'],
    ['And the migration scripts go through review.', false, 'same_topic'],
    ['hi there!', false, 'small_talk'],
    ['thanks a lot :)', false, 'small_talk'],
    ['ok cool', false, 'small_talk'],
    ['how are you?', false, 'small_talk'],
    ['good morning!', false, 'small_talk'],
    ['haha nice', false, 'small_talk'],
    ['...', false, 'no_content'],
  ])('%s -> recall %s (%s)', (message, should, reason) => {
    const a = analyzeMessage(message, history.map(topicStems));
    expect(a.trigger).toMatchObject({ should_recall: should, reason });
  });

  it('does not trigger on a statement that only continues the current topic', () => {
    const h = [
      topicStems('The deploy pipeline is slow.'),
      topicStems('Nightly builds take an hour.'),
    ];
    expect(analyzeMessage('The pipeline uses four runners.', h).trigger).toMatchObject({
      should_recall: false,
      reason: 'same_topic',
    });
  });

  it('treats the first message with a topic as a topic shift', () => {
    expect(analyzeMessage('The billing export broke.', []).trigger.reason).toBe('topic_shift');
  });

  it('finds topics, entities and key phrases, including technical tokens', async () => {
    const engram = sqliteEngram({ config: { embedder: { provider: 'none' } } });
    const a = await engram.analyzeForRecall(
      'Alice said the payments-api v2.3 reads /srv/app/config.yaml — see https://wiki.example.com/kafka and ping alice@acme.com',
    );
    expect(a.topics).toEqual(expect.arrayContaining(['alice', 'payments']));
    const entities = Object.fromEntries(a.entities.map((e) => [e.text, e.type]));
    expect(entities).toMatchObject({
      'payments-api': 'identifier',
      'v2.3': 'version',
      '/srv/app/config.yaml': 'path',
      'https://wiki.example.com/kafka': 'url',
      'alice@acme.com': 'EMAIL',
      Alice: 'name',
    });
    const q = await engram.analyzeForRecall(
      'How do we rotate the Kafka consumer group credentials?',
    );
    expect(q.is_question).toBe(true);
    expect(q.key_phrases).toEqual(expect.arrayContaining(['Kafka consumer group credentials']));
  });
});

describeBackends('analyzeForRecall with a store', (backend) => {
  const testEngram = (options: BackendEngramOptions = {}) => backendEngram({ backend, ...options });

  it('uses the given history, or the conversation recorded in the store', async () => {
    const engram = testEngram({ config: { embedder: { provider: 'none' } } });
    const withHistory = await engram.analyzeForRecall({
      message: 'The Postgres replicas lag too.',
      history: [{ role: 'user', text: 'Postgres upgrade tonight' }, 'Postgres needs a window'],
    });
    expect(withHistory.trigger.reason).toBe('sustained_discussion');
    await engram.configureAutoRecall({ enabled: true });
    for (const message of [
      'The Postgres upgrade is tonight.',
      'Postgres needs a maintenance window.',
    ])
      await engram.processMessage({ message, conversation_id: 'c1' });
    const fromStore = await engram.analyzeForRecall({
      message: 'The Postgres replicas lag too.',
      conversation_id: 'c1',
    });
    expect(fromStore.trigger.reason).toBe('sustained_discussion');
  });
});

describeBackends('processMessage', (backend) => {
  const testEngram = (options: BackendEngramOptions = {}) => backendEngram({ backend, ...options });
  const clockedEngram = (clock: TestClock, options: BackendEngramOptions = {}) =>
    engramOn(clock, { backend, ...options });

  it('does nothing while auto-recall is disabled (the default)', async () => {
    const engram = testEngram();
    await seeded(engram);
    const r = await engram.processMessage('How does the billing service deploy to staging?');
    expect(r).toMatchObject({
      enabled: false,
      triggered: false,
      reason: 'disabled',
      items: [],
      reinforced: 0,
    });
  });

  it('subtle: returns the related items (relevance >= threshold, at most max_results)', async () => {
    const engram = testEngram();
    const ids = await seeded(engram);
    await engram.configureAutoRecall({ enabled: true, mode: 'subtle' });
    const r = await engram.processMessage('How does the billing service deploy to staging?');
    expect(r).toMatchObject({
      enabled: true,
      mode: 'subtle',
      triggered: true,
      reason: 'question',
      count: 1,
    });
    expect(r.items.map((i) => i.id)).toEqual([ids.get('The billing')]);
    expect(r.items[0]!.relevance).toBeGreaterThanOrEqual(0.7);
    expect(r.items[0]!.body).toMatch(/deploys to staging/);
    expect(r.handles).toEqual([]);
    // surfacing is not use: nothing is reinforced or counted as access
    await engram.idle(); // an ordinary recall's accesses would be in the store by now
    expect(await engram.get(ids.get('The billing')!)).toMatchObject({
      use_count: 0,
      access_count: 0,
    });
  });

  it('subtle: respects max_results and the threshold', async () => {
    const engram = testEngram();
    await seeded(engram);
    await engram.configureAutoRecall({
      enabled: true,
      mode: 'subtle',
      relevance_threshold: 0,
      max_results: 2,
    });
    const loose = await engram.processMessage('How does the billing service deploy to staging?');
    expect(loose.items).toHaveLength(2);
    await engram.configureAutoRecall({ relevance_threshold: 1 });
    const strict = await engram.processMessage('How does the billing service deploy to staging?');
    expect(strict.items.every((i) => i.relevance === 1)).toBe(true);
  });

  it('interactive: returns only a count and short handles', async () => {
    const engram = testEngram();
    const ids = await seeded(engram);
    await engram.configureAutoRecall({ enabled: true, mode: 'interactive' });
    const r = await engram.processMessage('Can you order snacks for the team? Bob is coming.');
    expect(r).toMatchObject({
      mode: 'interactive',
      count: 1,
      items: [],
      summary: 'I found 1 related memory',
    });
    expect(r.handles).toEqual([
      {
        id: ids.get('Bob is'),
        label: 'Bob is allergic to peanuts.',
        relevance: expect.any(Number),
      },
    ]);
    expect(JSON.stringify(r)).not.toMatch(/peanuts.*peanuts/); // the body is not repeated beyond the handle
  });

  it('silent: surfaces nothing and reinforces the related items as use events', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock);
    const ids = await seeded(engram);
    await engram.configureAutoRecall({ enabled: true });
    const r = await engram.processMessage({
      message: 'why is the payments consumer lagging?',
      conversation_id: 'c1',
    });
    expect(r).toMatchObject({
      mode: 'silent',
      triggered: true,
      items: [],
      handles: [],
      count: 0,
      summary: null,
      reinforced: 1,
    });
    const id = ids.get('Kafka consumer')!;
    await engram.idle(); // an ordinary recall's accesses would be in the store by now
    expect(await engram.get(id)).toMatchObject({
      use_count: 1,
      access_count: 0,
      last_used_at: new Date(clock.now()).toISOString(),
    });
    const events = await requireLifecycle(engram.storeForTransfer).useEvents('default', id);
    expect(events).toMatchObject([{ source: 'auto_recall', conversation_id: 'c1' }]);
    // unrelated small talk reinforces nothing
    clock.advance(600_000);
    expect(
      (await engram.processMessage({ message: 'thanks!', conversation_id: 'c1' })).reinforced,
    ).toBe(0);
  });

  it('keeps a per-conversation cooldown of min_interval_s after a recall', async () => {
    const clock = testClock();
    const engram = clockedEngram(clock);
    await seeded(engram);
    await engram.configureAutoRecall({ enabled: true, mode: 'subtle' });
    const ask = (message: string, conversation_id?: string) =>
      engram.processMessage({ message, conversation_id });
    expect((await ask('what is the wifi password?', 'a')).count).toBe(1);
    clock.advance(120_000);
    const cooling = await ask('when can we run the orders migration?', 'a');
    expect(cooling).toMatchObject({
      triggered: false,
      reason: 'cooldown',
      cooldown_remaining_s: 180,
      items: [],
    });
    // other conversations and calls without a conversation id are not held back
    expect((await ask('when can we run the orders migration?', 'b')).count).toBe(1);
    expect((await ask('when can we run the orders migration?')).count).toBe(1);
    clock.advance(181_000);
    expect((await ask('when can we run the orders migration?', 'a')).count).toBe(1);
    await engram.configureAutoRecall({ min_interval_s: 0 });
    expect((await ask('what is the wifi password?', 'a')).count).toBe(1);
  });

  it('falls back to lexical relevance without an embedder, and says so', async () => {
    const engram = testEngram({ config: { embedder: { provider: 'none' } } });
    const ids = await seeded(engram);
    await engram.configureAutoRecall({ enabled: true, mode: 'subtle' });
    const r = await engram.processMessage('what is the office wifi password?');
    expect(r.degraded).toEqual([{ channel: 'vector', reason: 'embedder_unavailable' }]);
    expect(r.items.map((i) => i.id)).toEqual([ids.get('The office')]);
  });

  it('takes a per-call mode override', async () => {
    const engram = testEngram();
    await seeded(engram);
    await engram.configureAutoRecall({ enabled: true, mode: 'silent' });
    const r = await engram.processMessage({
      message: 'what is the wifi password?',
      mode: 'interactive',
    });
    expect(r).toMatchObject({ mode: 'interactive', count: 1, reinforced: 0 });
  });
});

describeBackends('configureAutoRecall', (backend) => {
  const testEngram = (options: BackendEngramOptions = {}) => backendEngram({ backend, ...options });
  const clockedEngram = (clock: TestClock, options: BackendEngramOptions = {}) =>
    engramOn(clock, { backend, ...options });

  it('persists settings in the store for every later process', async () => {
    const clock = testClock();
    const dir = tempDir();
    const first = clockedEngram(clock, { dir, config: { embedder: { provider: 'none' } } });
    expect(await first.autoRecallSettings()).toEqual({
      enabled: false,
      mode: 'silent',
      relevance_threshold: 0.7,
      max_results: 3,
      min_interval_s: 300,
    });
    const set = await first.configureAutoRecall({
      enabled: true,
      mode: 'interactive',
      max_results: 5,
    });
    expect(set).toMatchObject({
      enabled: true,
      mode: 'interactive',
      max_results: 5,
      relevance_threshold: 0.7,
    });
    await first.close();
    const second = testEngram({ dir, config: { embedder: { provider: 'none' } } });
    expect(await second.autoRecallSettings()).toMatchObject({
      enabled: true,
      mode: 'interactive',
      max_results: 5,
    });
    // per space
    expect((await second.autoRecallSettings({ space: 'team' })).enabled).toBe(false);
  });

  it.each([
    [{ mode: 'loud' }, 'mode', /one of silent, subtle, interactive/],
    [{ relevance_threshold: 1.5 }, 'relevance_threshold', /between 0 and 1/],
    [{ relevance_threshold: -0.1 }, 'relevance_threshold', /between 0 and 1/],
    [{ min_interval_s: -1 }, 'min_interval_s', /at least 0/],
    [{ max_results: 0 }, 'max_results', /at least 1/],
    [{ enabled: 'yes' }, 'enabled', /true or false/],
    [{ cooldown: 5 }, 'cooldown', /unknown key/],
  ])('rejects %j naming the field', async (input, field, rule) => {
    const engram = testEngram({ config: { embedder: { provider: 'none' } } });
    const err = await failure(engram.configureAutoRecall(input as never));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.details.field).toBe(field);
    expect(err.message).toMatch(rule);
  });

  it.each([
    [{ auto_recall: { mode: 'loud' } }, 'auto_recall.mode'],
    [{ auto_recall: { relevance_threshold: 2 } }, 'auto_recall.relevance_threshold'],
    [{ auto_recall: { min_interval_s: -5 } }, 'auto_recall.min_interval_s'],
  ])('rejects configuration %j naming the key', async (config, field) => {
    const err = await failure(
      Promise.resolve().then(() => testEngram({ config: config as never })),
    );
    expect(err.code).toBe('CONFIG_INVALID');
    expect(err.details.field).toBe(field);
  });
});

describe('bad messages', () => {
  it.each([
    [{ message: '' }, 'message', /must not be empty/],
    [{ message: '   ' }, 'message', /must not be empty/],
    [{ message: 'x'.repeat(20_001) }, 'message', /at most 20000 characters/],
    [{ message: 'bad \ud800' }, 'message', /valid UTF-8/],
    [{ message: 42 }, 'message', /must be text/],
    [{ message: 'ok?', history: ['y'.repeat(20_001)] }, 'history[0]', /at most 20000/],
    [{ message: 'ok?', mode: 'loud' }, 'mode', /one of silent, subtle, interactive/],
    [{ message: 'ok?', conversation_id: '' }, 'conversation_id', /must not be empty/],
  ])('processMessage rejects %#', async (input, field, rule) => {
    const engram = sqliteEngram({ config: { embedder: { provider: 'none' } } });
    const err = await failure(engram.processMessage(input as never));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.details.field).toBe(field);
    expect(err.message).toMatch(rule);
  });

  it('analyzeForRecall rejects an empty message', async () => {
    const engram = sqliteEngram({ config: { embedder: { provider: 'none' } } });
    expect((await failure(engram.analyzeForRecall(''))).details.field).toBe('message');
  });
});
