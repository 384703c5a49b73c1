import { describe, expect, it } from 'vitest';

import { EngramError } from '../src/domain/errors.js';
import { testEngram } from './helpers.js';

async function failure(promise: Promise<unknown>): Promise<EngramError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof EngramError) return err;
    throw err;
  }
  throw new Error('expected an EngramError');
}

describe('remember', () => {
  it('stores an item with defaults, its first version and a vector', async () => {
    const engram = testEngram();
    const { memory, created } = await engram.remember({
      body: 'The deploy key lives in the ops vault.',
      kind: 'fact',
      tags: ['ops', 'ops'],
    });
    expect(created).toBe(true);
    expect(memory).toMatchObject({
      kind: 'fact',
      area: 'general',
      status: 'active',
      importance: 0.5,
      pinned: false,
      version: 1,
      tags: ['ops'],
      vector: 'ready',
    });
    expect(memory.id).toMatch(/^[0-9A-Z]{26}$/);
    const history = await engram.history(memory.id);
    expect(history.versions.map((v) => v.body)).toEqual(['The deploy key lives in the ops vault.']);
  });

  it('returns the existing item for an exact duplicate (same space, kind, normalised body)', async () => {
    const engram = testEngram();
    const first = await engram.remember({ body: 'Alex prefers tea.', kind: 'preference' });
    const again = await engram.remember({ body: '  alex   PREFERS tea. ', kind: 'preference' });
    expect(again).toMatchObject({ created: false, memory: { id: first.memory.id } });
    const otherKind = await engram.remember({ body: 'Alex prefers tea.', kind: 'fact' });
    expect(otherKind.created).toBe(true);
    const otherSpace = await engram.remember({
      body: 'Alex prefers tea.',
      kind: 'preference',
      space: 'team',
    });
    expect(otherSpace.created).toBe(true);
  });

  it('does not treat a forgotten item as a duplicate', async () => {
    const engram = testEngram();
    const first = await engram.remember({ body: 'Old wifi password is hunter2.' });
    await engram.forget(first.memory.id);
    const again = await engram.remember({ body: 'Old wifi password is hunter2.' });
    expect(again.created).toBe(true);
    expect(again.memory.id).not.toBe(first.memory.id);
  });

  it.each([
    [{ body: '' }, 'body', /must not be empty/],
    [{ body: '   ' }, 'body', /must not be empty/],
    [{ body: 'x'.repeat(32 * 1024 + 1) }, 'body', /at most 32768 bytes/],
    [{ body: 'é'.repeat(16 * 1024 + 1) }, 'body', /at most 32768 bytes/],
    [{ body: 'bad \ud800 text' }, 'body', /valid UTF-8/],
    [{ body: 'ok', kind: 'thought' }, 'kind', /must be one of fact/],
    [{ body: 'ok', importance: 2 }, 'importance', /between 0 and 1/],
    [{ body: 'ok', area: '/abs' }, 'area', /segments/],
    [{ body: 'ok', tags: ['has space'] }, 'tags[0]', /spaces or commas/],
    [{ body: 'ok', colour: 'red' }, 'colour', /unknown key/],
    [{ body: 'ok', space: '../etc' }, 'space', /letters, digits/],
    [{ body: 42 }, 'body', /string/],
  ])('rejects %j naming the field', async (input, field, rule) => {
    const engram = testEngram({ embedder: null });
    const err = await failure(engram.remember(input as never));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.details.field).toBe(field);
    expect(err.message).toMatch(rule);
    expect((await engram.list()).items).toHaveLength(0);
  });

  it('rememberMany: a bad item fails alone and the rest are stored', async () => {
    const engram = testEngram();
    const results = await engram.rememberMany([
      { body: 'first good one' },
      { body: '' },
      { body: 'second good one', kind: 'nope' },
      { body: 'third good one' },
    ]);
    expect(results.map((r) => r.ok)).toEqual([true, false, false, true]);
    expect(results[1]).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', field: 'body' },
    });
    expect(results[2]).toMatchObject({ ok: false, error: { field: 'kind' } });
    expect((await engram.list()).items).toHaveLength(2);
  });

  it('stores the item vector-pending when no embedder is configured, and recall degrades explicitly', async () => {
    const engram = testEngram({ embedder: null });
    const { memory } = await engram.remember({ body: 'Kafka runs on three brokers.' });
    expect(memory.vector).toBe('pending');
    const result = await engram.recall({ query: 'kafka brokers' });
    expect(result.hits.map((h) => h.id)).toEqual([memory.id]);
    expect(result.degraded).toEqual([{ channel: 'vector', reason: 'embedder_unavailable' }]);
  });
});

describe('changes to existing memories', () => {
  it('revise creates numbered versions and re-embeds; restoreVersion adds a new version', async () => {
    const engram = testEngram();
    const { memory } = await engram.remember({ body: 'The API runs on port 8080.' });
    const v2 = await engram.revise(memory.id, {
      body: 'The API runs on port 9090.',
      reason: 'moved',
      actor: 'ops-bot',
    });
    expect(v2).toMatchObject({ version: 2, body: 'The API runs on port 9090.', vector: 'ready' });
    const v3 = await engram.restoreVersion(memory.id, 1);
    expect(v3).toMatchObject({ version: 3, body: 'The API runs on port 8080.' });
    const h = await engram.history(memory.id);
    expect(h.versions.map((v) => [v.version, v.reason, v.actor])).toEqual([
      [1, null, null],
      [2, 'moved', 'ops-bot'],
      [3, 'restore version 1', null],
    ]);
    expect((await engram.recall({ query: 'port 9090' })).hits[0]?.id).toBe(memory.id);
    expect((await failure(engram.restoreVersion(memory.id, 9))).code).toBe('NOT_FOUND');
    expect((await failure(engram.revise(memory.id, {}))).details.field).toBe('body');
  });

  it('forget hides from recall and list; restore brings it back with status events', async () => {
    const engram = testEngram();
    const { memory } = await engram.remember({ body: 'Standup is at 9:30 every weekday.' });
    await engram.forget(memory.id, { reason: 'user asked' });
    expect((await engram.recall({ query: 'standup time' })).hits).toHaveLength(0);
    expect((await engram.list()).items).toHaveLength(0);
    expect((await engram.get(memory.id)).status).toBe('forgotten');
    const restored = await engram.restore(memory.id);
    expect(restored.status).toBe('active');
    expect((await engram.recall({ query: 'standup time' })).hits.map((h) => h.id)).toEqual([
      memory.id,
    ]);
    const events = (await engram.history(memory.id)).status_events;
    expect(events.map((e) => [e.from_status, e.to_status, e.reason])).toEqual([
      ['active', 'forgotten', 'user asked'],
      ['forgotten', 'active', 'restore'],
    ]);
    expect((await failure(engram.revise('01ZZZZZZZZZZZZZZZZZZZZZZZZ', { body: 'x' }))).code).toBe(
      'NOT_FOUND',
    );
  });

  it('a forgotten item cannot be revised until restored', async () => {
    const engram = testEngram();
    const { memory } = await engram.remember({ body: 'Temporary note.' });
    await engram.forget(memory.id);
    const err = await failure(engram.revise(memory.id, { body: 'changed' }));
    expect(err.code).toBe('CONFLICT');
  });

  it('purge removes text, versions and index entries, and leaves an audit', async () => {
    const engram = testEngram();
    const { memory } = await engram.remember({ body: 'My passport number is X1234567.' });
    const other = await engram.remember({ body: 'Passport renewal is due in 2027.' });
    await engram.relate(memory.id, other.memory.id);
    await engram.purge(memory.id, { reason: 'privacy request' });
    expect((await failure(engram.get(memory.id))).code).toBe('NOT_FOUND');
    const hits = (await engram.recall({ query: 'passport number X1234567' })).hits.map((h) => h.id);
    expect(hits).not.toContain(memory.id);
    const rel = (await engram.history(other.memory.id)).relations;
    expect(rel[0]).toMatchObject({ invalidated_reason: 'purged' });
    expect((await failure(engram.purge(memory.id))).code).toBe('NOT_FOUND');
  });

  it('pin, unpin, move (with prior area), tag and importance', async () => {
    const engram = testEngram();
    const { memory } = await engram.remember({
      body: 'Use pnpm in the web repo.',
      kind: 'rule',
      area: 'projects/web',
      tags: ['tooling'],
    });
    expect((await engram.pin(memory.id)).pinned).toBe(true);
    expect((await engram.unpin(memory.id)).pinned).toBe(false);
    const moved = await engram.move(memory.id, 'projects/frontend');
    expect(moved.area).toBe('projects/frontend');
    expect(moved.prior).toMatchObject({ area: 'projects/web' });
    expect((await engram.tag(memory.id, { add: ['js'], remove: ['tooling'] })).tags).toEqual([
      'js',
    ]);
    expect((await engram.setImportance(memory.id, 0.9)).importance).toBe(0.9);
    expect((await failure(engram.setImportance(memory.id, 1.5))).details.field).toBe('importance');
    expect((await failure(engram.move(memory.id, 'bad area!'))).details.field).toBe('area');
    expect((await failure(engram.pin('01ZZZZZZZZZZZZZZZZZZZZZZZZ'))).code).toBe('NOT_FOUND');
  });

  it('supersede hides the old item; restore invalidates the relation but keeps it in history', async () => {
    const engram = testEngram();
    const old = (await engram.remember({ body: 'The office is in Berlin.', kind: 'fact' })).memory;
    const next = (
      await engram.remember({ body: 'The office moved to Hamburg in 2026.', kind: 'fact' })
    ).memory;
    const result = await engram.supersede(old.id, next.id, { reason: 'office moved' });
    expect(result.old.status).toBe('superseded');
    expect((await engram.recall({ query: 'where is the office' })).hits.map((h) => h.id)).toEqual([
      next.id,
    ]);
    expect((await engram.supersede(old.id, next.id)).old.status).toBe('superseded');
    expect((await failure(engram.supersede(old.id, old.id))).code).toBe('INVALID_INPUT');
    await engram.restore(old.id);
    const rel = (await engram.history(old.id)).relations;
    expect(rel).toHaveLength(1);
    expect(rel[0]).toMatchObject({
      type: 'supersedes',
      from_id: next.id,
      to_id: old.id,
      invalidated_reason: 'restore',
    });
  });

  it('relate is idempotent and unrelate invalidates without deleting', async () => {
    const engram = testEngram();
    const a = (await engram.remember({ body: 'Service A calls service B.' })).memory;
    const b = (await engram.remember({ body: 'Service B owns the orders table.' })).memory;
    await engram.relate(a.id, b.id, { type: 'derived_from' });
    const twice = await engram.relate(a.id, b.id, { type: 'derived_from' });
    expect(twice).toHaveLength(1);
    await engram.unrelate(a.id, b.id);
    const rels = (await engram.history(a.id)).relations;
    expect(rels).toHaveLength(1);
    expect(rels[0]?.invalidated_at).not.toBeNull();
    expect((await failure(engram.unrelate(a.id, b.id))).code).toBe('NOT_FOUND');
    expect((await failure(engram.relate(a.id, a.id))).code).toBe('INVALID_INPUT');
  });

  it('spaces are isolated for every read and write', async () => {
    const engram = testEngram();
    const secret = (
      await engram.remember({ body: 'Team A roadmap: launch in May.', space: 'team-a' })
    ).memory;
    expect((await failure(engram.get(secret.id, { space: 'team-b' }))).code).toBe('NOT_FOUND');
    expect((await failure(engram.forget(secret.id, { space: 'team-b' }))).code).toBe('NOT_FOUND');
    expect((await engram.recall({ query: 'roadmap launch', space: 'team-b' })).hits).toHaveLength(
      0,
    );
    expect((await engram.recall({ query: 'roadmap launch', space: 'team-a' })).hits).toHaveLength(
      1,
    );
    expect((await engram.list({ space: 'team-b' })).items).toHaveLength(0);
  });
});
