/**
 * The session tools over MCP, in process (SDK client over InMemoryTransport): sessions_search finds
 * the turns of imported conversations and never a memory, sessions_get returns one conversation
 * with its turns, both are read-only and strict about their arguments, and spaces stay apart.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import type { Session, SessionSearchResult } from '../src/service/sessions.js';
import { testEngram } from './helpers.js';
import { callTool, connectMcp } from './mcp-helpers.js';

const T0 = Date.parse('2025-06-01T12:00:00Z');

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
      text: 'No: Friday deploys are frozen. Ship the billing service on Thursday.',
      at: '2025-05-02T09:00:05Z',
    },
  ],
};

const GARDEN = {
  id: 'conv-garden',
  agent: 'codex',
  turns: [{ role: 'user', text: 'Water the fern twice a week in summer.' }],
};

/** The memory that says the same as a turn: a session search must still not return it. */
const MEMORY = 'Friday deploys of the billing service are frozen.';

async function seeded(): Promise<{ engram: Engram; memoryId: string }> {
  const engram = testEngram({ now: () => T0, config: { embedder: { provider: 'none' } } });
  await engram.importSessions([DEPLOY, GARDEN]);
  await engram.importSessions([{ ...GARDEN, id: 'conv-elsewhere' }], { space: 'team-b' });
  const { memory } = await engram.remember({ body: MEMORY, kind: 'fact' });
  return { engram, memoryId: memory.id };
}

function ok<T>(result: CallToolResult): T {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(
    result.structuredContent,
  );
  return result.structuredContent as T;
}

function failed(result: CallToolResult): { code: string; details: Record<string, unknown> } {
  expect(result.isError).toBe(true);
  return (result.structuredContent as { error: { code: string; details: Record<string, unknown> } })
    .error;
}

describe('session tools over MCP', () => {
  it('lists sessions_search and sessions_get as read-only tools with strict arguments', async () => {
    const { engram } = await seeded();
    const { tools } = await (await connectMcp(engram)).listTools();
    const search = tools.find((t) => t.name === 'sessions_search');
    const get = tools.find((t) => t.name === 'sessions_get');
    expect(search?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(get?.annotations).toMatchObject({ readOnlyHint: true });
    expect(search?.description).toMatch(/discussed earlier/u);
    expect(search?.description).toMatch(/never returns memories/u);
    expect(search?.inputSchema).toMatchObject({ additionalProperties: false, required: ['query'] });
    expect(Object.keys(search?.inputSchema.properties ?? {}).sort()).toEqual([
      'agent',
      'limit',
      'query',
      'space',
    ]);
    expect(get?.inputSchema).toMatchObject({ additionalProperties: false, required: ['id'] });
  });

  it('finds the turns of an imported session and never a memory', async () => {
    const { engram, memoryId } = await seeded();
    const client = await connectMcp(engram);
    const found = ok<SessionSearchResult>(
      await callTool(client, 'sessions_search', { query: 'billing friday deploys frozen' }),
    );
    expect(found.hits.length).toBeGreaterThan(0);
    expect(found.hits[0]).toMatchObject({
      session_id: 'conv-deploy',
      turn_index: 1,
      role: 'assistant',
      text: DEPLOY.turns[1]!.text,
      session: { id: 'conv-deploy', agent: 'claude', title: 'Deploy freeze' },
    });
    for (const hit of found.hits) {
      expect(['conv-deploy', 'conv-garden']).toContain(hit.session_id);
      expect(hit.session_id).not.toBe(memoryId);
      expect(hit.text).not.toBe(MEMORY);
    }
    // The memory is there, and recall finds it: the session search left it out on purpose.
    const recalled = ok<{ hits: { id: string }[] }>(
      await callTool(client, 'recall', { query: 'billing friday deploys frozen' }),
    );
    expect(recalled.hits.map((h) => h.id)).toContain(memoryId);
  });

  it('filters by agent, caps the hits and keeps spaces apart', async () => {
    const { engram } = await seeded();
    const client = await connectMcp(engram);
    const search = (args: Record<string, unknown>) =>
      callTool(client, 'sessions_search', args).then((r) => ok<SessionSearchResult>(r).hits);
    expect(await search({ query: 'billing', agent: 'codex' })).toEqual([]);
    expect((await search({ query: 'billing', limit: 1 })).length).toBe(1);
    expect((await search({ query: 'fern' })).map((h) => h.session_id)).toEqual(['conv-garden']);
    expect((await search({ query: 'fern', space: 'team-b' })).map((h) => h.session_id)).toEqual([
      'conv-elsewhere',
    ]);
    expect(await search({ query: 'billing', space: 'team-b' })).toEqual([]);
  });

  it('gets one conversation with its turns; an unknown id or another space is NOT_FOUND', async () => {
    const { engram } = await seeded();
    const client = await connectMcp(engram);
    const session = ok<Session>(await callTool(client, 'sessions_get', { id: 'conv-deploy' }));
    expect(session).toMatchObject({
      id: 'conv-deploy',
      space: 'default',
      agent: 'claude',
      started_at: '2025-05-02T09:00:00.000Z',
      ended_at: '2025-05-02T09:00:05.000Z',
    });
    expect(session.turns.map((t) => [t.index, t.role, t.text])).toEqual(
      DEPLOY.turns.map((t, i) => [i, t.role, t.text]),
    );
    expect(failed(await callTool(client, 'sessions_get', { id: 'conv-nope' })).code).toBe(
      'NOT_FOUND',
    );
    const other = await callTool(client, 'sessions_get', { id: 'conv-deploy', space: 'team-b' });
    expect(failed(other).code).toBe('NOT_FOUND');
  });

  it('refuses bad arguments naming the field', async () => {
    const { engram } = await seeded();
    const client = await connectMcp(engram);
    const cases: [Record<string, unknown>, string][] = [
      [{ query: '   ' }, 'query'],
      [{ query: 'x', limit: 0 }, 'limit'],
      [{ query: 'x', limit: 201 }, 'limit'],
      [{ query: 'x', colour: 'red' }, 'colour'],
      [{ query: 'x', space: 'Bad Space!' }, 'space'],
    ];
    for (const [args, field] of cases) {
      const error = failed(await callTool(client, 'sessions_search', args));
      expect([error.code, error.details.field], JSON.stringify(args)).toEqual([
        'INVALID_INPUT',
        field,
      ]);
    }
    const badId = failed(await callTool(client, 'sessions_get', { id: 'bad id!' }));
    expect([badId.code, badId.details.field]).toEqual(['INVALID_INPUT', 'id']);
  });
});
