/**
 * Sessions (§1.4) through the service, on SQLite always and on PostgreSQL when
 * ENGRAM_TEST_PG_URL names a server: store, read, list (newest first, paged, by agent), full-text
 * search ranked turn by turn, idempotent import, irreversible purge with its audit row, space
 * isolation, validation errors naming the field, a bad record failing alone, and the wall between
 * sessions and memories (storing a session makes no memory; recall never returns a turn, session
 * search never returns a memory).
 */
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import type { ConfigInput } from '../src/config/schema.js';
import { EngramError } from '../src/domain/errors.js';
import { type Backend, BACKENDS } from './backends.js';
import { testEngram } from './helpers.js';

const T0 = Date.parse('2025-06-01T12:00:00Z');

/** An engram without embedder on a fresh store of the backend, its clock fixed. */
function engramOn(backend: Backend, config: ConfigInput = {}): Engram {
  return testEngram({
    now: () => T0,
    config: { ...backend.fresh(), embedder: { provider: 'none' }, ...config },
  });
}

async function failure(promise: Promise<unknown>): Promise<EngramError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof EngramError) return err;
    throw err;
  }
  throw new Error('expected an EngramError');
}

const DEPLOY = {
  id: 'conv-deploy',
  agent: 'claude',
  title: 'Deploy freeze',
  turns: [
    {
      role: 'user',
      text: 'Can we deploy the billing service on Friday?',
      at: '2025-05-02T09:00:00Z',
    },
    {
      role: 'assistant',
      text: 'No: Friday deploys are frozen. Deploy the billing service on Thursday.',
      at: '2025-05-02T09:00:05Z',
    },
  ],
};

const INGRESS = {
  id: 'conv-ingress',
  agent: 'codex',
  turns: [
    { role: 'user', text: 'The kubernetes ingress drops websocket connections.' },
    { role: 'assistant', text: 'Raise the ingress proxy read timeout for websockets.' },
    { role: 'tool', text: 'call kubectl: {"get":"ingress"}' },
  ],
};

const GARDEN = {
  id: 'conv-garden',
  agent: 'claude',
  started_at: '2025-05-10T08:00:00Z',
  turns: [{ role: 'user', text: 'Water the fern twice a week in summer.' }],
};

describe.each(BACKENDS)('sessions ($name)', (backend) => {
  it('stores, reads and lists sessions, newest first, paged and by agent', async () => {
    const engram = engramOn(backend);
    const results = await engram.importSessions([DEPLOY, INGRESS, GARDEN]);
    expect(results).toEqual([
      { index: 0, ok: true, id: 'conv-deploy', status: 'created', turns: 2 },
      { index: 1, ok: true, id: 'conv-ingress', status: 'created', turns: 3 },
      { index: 2, ok: true, id: 'conv-garden', status: 'created', turns: 1 },
    ]);
    const deploy = await engram.getSession('conv-deploy');
    expect(deploy).toEqual({
      id: 'conv-deploy',
      space: 'default',
      agent: 'claude',
      title: 'Deploy freeze',
      started_at: '2025-05-02T09:00:00.000Z',
      ended_at: '2025-05-02T09:00:05.000Z',
      source: null,
      created_at: new Date(T0).toISOString(),
      turns: [
        { index: 0, role: 'user', text: DEPLOY.turns[0]!.text, at: '2025-05-02T09:00:00.000Z' },
        {
          index: 1,
          role: 'assistant',
          text: DEPLOY.turns[1]!.text,
          at: '2025-05-02T09:00:05.000Z',
        },
      ],
    });
    // Without times, a session starts when it is stored and has no end.
    const ingress = await engram.getSession('conv-ingress');
    expect([ingress.started_at, ingress.ended_at]).toEqual([new Date(T0).toISOString(), null]);

    const all = await engram.listSessions();
    expect(all.sessions.map((s) => [s.id, s.turn_count])).toEqual([
      ['conv-ingress', 3],
      ['conv-garden', 1],
      ['conv-deploy', 2],
    ]);
    expect(all.sessions[0]).not.toHaveProperty('turns');
    expect(all.next_cursor).toBeNull();
    const first = await engram.listSessions({ limit: 2 });
    expect(first.sessions.map((s) => s.id)).toEqual(['conv-ingress', 'conv-garden']);
    const rest = await engram.listSessions({ limit: 2, cursor: first.next_cursor! });
    expect(rest).toMatchObject({ sessions: [{ id: 'conv-deploy' }], next_cursor: null });
    const claude = await engram.listSessions({ agent: 'claude' });
    expect(claude.sessions.map((s) => s.id)).toEqual(['conv-garden', 'conv-deploy']);
    expect((await failure(engram.getSession('conv-none'))).code).toBe('NOT_FOUND');
  });

  it('imports idempotently: the same id again exists, never twice', async () => {
    const engram = engramOn(backend);
    await engram.importSessions([DEPLOY]);
    const again = await engram.importSessions([DEPLOY, { ...INGRESS }, { ...INGRESS }]);
    expect(again.map((r) => r.ok && r.status)).toEqual(['exists', 'created', 'exists']);
    expect((await engram.listSessions()).sessions).toHaveLength(2);
    // A session without an id gets a new one each time (only transcript files derive ids).
    const [a] = await engram.importSessions([{ turns: [{ role: 'user', text: 'hello' }] }]);
    expect(a).toMatchObject({
      ok: true,
      status: 'created',
      id: expect.stringMatching(/^[0-9A-Z]{26}$/u),
    });
  });

  it('searches turns by full text, best first, with snippets, by agent, within a space', async () => {
    const engram = engramOn(backend);
    await engram.importSessions([DEPLOY, INGRESS, GARDEN]);
    await engram.importSessions([{ ...INGRESS, id: 'elsewhere' }], { space: 'other' });
    const { hits } = await engram.searchSessions({ query: 'ingress websocket timeout' });
    expect(hits.map((h) => [h.session_id, h.turn_index])).toEqual([
      ['conv-ingress', 1],
      ['conv-ingress', 0],
      ['conv-ingress', 2],
    ]);
    expect(hits[0]).toMatchObject({
      role: 'assistant',
      text: INGRESS.turns[1]!.text,
      session: { id: 'conv-ingress', agent: 'codex', title: null },
    });
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(hits[0]!.snippet).toMatch(/\*\*ingress\*\*/iu);
    // Stemming: "deploying" finds "deploy" and "deploys".
    const deploy = await engram.searchSessions({ query: 'deploying billing', limit: 1 });
    expect(deploy.hits).toHaveLength(1);
    expect(deploy.hits[0]).toMatchObject({ session_id: 'conv-deploy' });
    const codex = await engram.searchSessions({ query: 'deploy ingress', agent: 'codex' });
    expect(new Set(codex.hits.map((h) => h.session_id))).toEqual(new Set(['conv-ingress']));
    const other = await engram.searchSessions({ query: 'ingress', space: 'other' });
    expect(new Set(other.hits.map((h) => h.session_id))).toEqual(new Set(['elsewhere']));
    expect((await engram.searchSessions({ query: 'zebra' })).hits).toEqual([]);
    expect((await failure(engram.getSession('elsewhere'))).code).toBe('NOT_FOUND');
    // The same id names another conversation in another space.
    const [same] = await engram.importSessions([GARDEN], { space: 'other' });
    expect(same).toMatchObject({ ok: true, status: 'created' });
  });

  it('keeps sessions and memories apart: no memory made, neither search reaches the other', async () => {
    const engram = engramOn(backend);
    const memory = (await engram.remember({ body: 'The quokkaflux relay listens on port 7001.' }))
      .memory;
    const session = {
      id: 'conv-quokka',
      turns: [
        { role: 'user', text: 'Did the quokkaflux relay move?' },
        { role: 'assistant', text: 'Yes, the quokkaflux relay moved to the west rack.' },
      ],
    };
    await engram.importSessions([session]);
    const items = await engram.list();
    expect(items.items.map((m) => m.id)).toEqual([memory.id]);
    expect((await engram.status()).store.items_total).toBe(1);

    const recalled = await engram.recall({ query: 'quokkaflux relay', k: 10 });
    expect(recalled.hits.map((h) => h.id)).toEqual([memory.id]);
    expect(recalled.hits.some((h) => h.body.includes('west rack'))).toBe(false);
    const found = await engram.searchSessions({ query: 'quokkaflux relay' });
    expect(found.hits.map((h) => h.session_id)).toEqual(['conv-quokka', 'conv-quokka']);
    expect(found.hits.some((h) => h.text.includes('port 7001'))).toBe(false);
  });

  it('purges a session for good, leaving only its audit row; its id is not stored again', async () => {
    const engram = engramOn(backend);
    await engram.importSessions([DEPLOY, INGRESS]);
    const purged = await engram.purgeSession('conv-deploy', { actor: 'ops', reason: 'privacy' });
    expect(purged).toEqual({
      id: 'conv-deploy',
      purged: true,
      audit: {
        id: 'conv-deploy',
        space: 'default',
        actor: 'ops',
        reason: 'privacy',
        at: new Date(T0).toISOString(),
      },
    });
    expect((await failure(engram.getSession('conv-deploy'))).code).toBe('NOT_FOUND');
    expect((await engram.searchSessions({ query: 'billing friday' })).hits).toEqual([]);
    expect((await engram.listSessions()).sessions.map((s) => s.id)).toEqual(['conv-ingress']);
    expect((await failure(engram.purgeSession('conv-deploy'))).code).toBe('NOT_FOUND');
    const [again] = await engram.importSessions([DEPLOY]);
    expect(again).toMatchObject({ ok: true, status: 'purged' });
    expect((await failure(engram.getSession('conv-deploy'))).code).toBe('NOT_FOUND');

    const records = [];
    for await (const r of engram.storeForTransfer.sessions!.exportSessions(null)) records.push(r);
    expect(records.map((r) => r.kind)).toEqual(['session', 'session_purge']);
    expect(records[1]).toEqual({
      kind: 'session_purge',
      value: { id: 'conv-deploy', space: 'default', actor: 'ops', reason: 'privacy', at: T0 },
    });
  });

  it('validates each record alone: errors name the field and rule, good records are stored', async () => {
    const engram = engramOn(backend, { limits: { max_turn_bytes: 40, max_session_turns: 3 } });
    const results = await engram.importSessions([
      { id: 'good-1', turns: [{ role: 'user', text: 'fine' }] },
      {
        turns: [
          { role: 'user', text: 'ok' },
          { role: 'bot', text: 'hi' },
        ],
      },
      { id: 'bad id!', turns: [{ role: 'user', text: 'x' }] },
      { turns: [{ role: 'user', text: 'y'.repeat(41) }] },
      { turns: [1, 2, 3, 4].map(() => ({ role: 'user', text: 'z' })) },
      { turns: [] },
      { turns: [{ role: 'user', text: 'k' }], colour: 'red' },
      { turns: [{ role: 'user', text: 'w', at: 'yesterday' }] },
      'not a session',
      { id: 'good-2', agent: 'me', turns: [{ role: 'system', text: 'fine too' }] },
    ]);
    const errors = results.map((r) => (r.ok ? r.status : `${r.error.field} | ${r.error.message}`));
    expect(errors).toEqual([
      'created',
      'turns[1].role | turns[1].role: must be one of user, assistant, system, tool',
      'id | id: must be letters, digits, ".", "_", ":" or "-", starting with a letter or digit',
      'turns[0].text | turns[0].text: must be at most 40 bytes',
      'turns | turns: must have at most 3 turns',
      'turns | turns: must have at least one turn',
      'colour | colour: unknown key colour',
      'turns[0].at | turns[0].at: must be an ISO 8601 date-time',
      expect.stringMatching(/^\(root\) \| /u),
      'created',
    ]);
    expect(results.every((r) => r.ok || r.error.code === 'INVALID_INPUT')).toBe(true);
    expect((await engram.listSessions()).sessions.map((s) => s.id).sort()).toEqual([
      'good-1',
      'good-2',
    ]);
    const strict = await failure(
      engram.importSessions([{ turns: [{ role: 'bot', text: 'x' }] }], { strict: true }),
    );
    expect(strict.details.field).toBe('turns[0].role');
    const query = await failure(engram.searchSessions({ query: '  ' }));
    expect([query.code, query.details.field]).toEqual(['INVALID_INPUT', 'query']);
    const limit = await failure(engram.listSessions({ limit: 0 }));
    expect(limit.details.field).toBe('limit');
    const cursor = await failure(engram.listSessions({ cursor: 'nope' }));
    expect(cursor.details.field).toBe('cursor');
  });

  it('checks without storing on a dry run', async () => {
    const engram = engramOn(backend);
    const results = await engram.importSessions(
      [DEPLOY, { turns: [{ role: 'robot', text: 'x' }] }],
      { dry_run: true },
    );
    expect(results.map((r) => (r.ok ? r.status : r.error.field))).toEqual([
      'valid',
      'turns[0].role',
    ]);
    expect((await engram.listSessions()).sessions).toEqual([]);
  });
});
