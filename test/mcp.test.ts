/** The MCP tool surface, in process: the SDK client talks to engram's MCP server over InMemoryTransport. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import type { Engram } from '../src/app.js';
import { silentLogger } from '../src/domain/log.js';
import { createMcpServer } from '../src/interfaces/mcp/server.js';
import { defineTool, type ToolGroup } from '../src/interfaces/mcp/tool.js';
import { TOOL_GROUPS } from '../src/interfaces/mcp/tools/index.js';
import { testEngram } from './helpers.js';

const clients: Client[] = [];
afterEach(async () => {
  while (clients.length) await clients.pop()!.close();
});

async function connect(engram: Engram, groups?: readonly ToolGroup[]): Promise<Client> {
  const server = createMcpServer(engram, { log: silentLogger, groups });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A successful result: the text is the JSON of the structured content. */
function ok<T = Record<string, unknown>>(result: CallToolResult): T {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  const first = result.content[0];
  expect(first?.type).toBe('text');
  expect(JSON.parse((first as { text: string }).text)).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

/** A tool error: `{error: {code, message, details}}` in the text and the structured content. */
function failed(result: CallToolResult): {
  code: string;
  message: string;
  details: Record<string, unknown>;
} {
  expect(result.isError).toBe(true);
  const text = JSON.parse((result.content[0] as { text: string }).text);
  expect(text).toEqual(result.structuredContent);
  return text.error;
}

interface MemoryOut {
  id: string;
  status: string;
  version: number;
  body: string;
  tags: string[];
}

describe('MCP tools (in process)', () => {
  it('lists every tool with a description and a strict JSON Schema for its arguments', async () => {
    const client = await connect(testEngram());
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    // Other tool groups (lifecycle, auto-recall, ...) add their own tools to the same listing.
    expect(names).toEqual(
      expect.arrayContaining([
        'remember',
        'recall',
        'get',
        'revise',
        'forget',
        'restore',
        'list',
        'history',
        'relate',
        'supersede',
        'status',
      ]),
    );
    expect(new Set(names).size).toBe(names.length);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect((tool.inputSchema as { additionalProperties?: unknown }).additionalProperties).toBe(
        false,
      );
    }
    const remember = tools.find((t) => t.name === 'remember')!;
    expect(remember.inputSchema.required).toEqual(['body']);
    expect(Object.keys(remember.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['body', 'kind', 'area', 'tags', 'importance', 'space']),
    );
    expect((remember.inputSchema.properties!.body as { description?: string }).description).toMatch(
      /memory text/,
    );
    const recall = tools.find((t) => t.name === 'recall')!;
    expect(recall.inputSchema.required).toEqual(['query']);
    expect(recall.annotations?.readOnlyHint).toBe(true);
    expect(remember.annotations?.readOnlyHint).toBe(false);
  });

  it('remembers, gets, revises, forgets and restores a memory, with its history', async () => {
    const client = await connect(testEngram());
    const created = ok<{ memory: MemoryOut; created: boolean }>(
      await call(client, 'remember', {
        body: 'The billing service runs on PostgreSQL 15.',
        kind: 'fact',
        area: 'projects/billing',
        tags: ['db'],
      }),
    );
    expect(created.created).toBe(true);
    const id = created.memory.id;
    const dup = ok<{ memory: MemoryOut; created: boolean }>(
      await call(client, 'remember', {
        body: 'The billing service runs on PostgreSQL 15.',
        kind: 'fact',
      }),
    );
    expect(dup).toMatchObject({ created: false, memory: { id } });

    expect(ok<MemoryOut>(await call(client, 'get', { id })).body).toBe(
      'The billing service runs on PostgreSQL 15.',
    );
    const revised = ok<MemoryOut>(
      await call(client, 'revise', {
        id,
        body: 'The billing service runs on PostgreSQL 16.',
        reason: 'upgrade',
        actor: 'agent-1',
      }),
    );
    expect(revised).toMatchObject({
      version: 2,
      body: 'The billing service runs on PostgreSQL 16.',
      tags: ['db'],
    });

    expect(ok<MemoryOut>(await call(client, 'forget', { id, reason: 'wrong' })).status).toBe(
      'forgotten',
    );
    const hidden = ok<{ hits: { id: string }[] }>(
      await call(client, 'recall', { query: 'billing database' }),
    );
    expect(hidden.hits.map((h) => h.id)).not.toContain(id);
    expect(ok<MemoryOut>(await call(client, 'restore', { id })).status).toBe('active');
    const back = ok<MemoryOut>(await call(client, 'restore', { id, version: 1 }));
    expect(back).toMatchObject({ version: 3, body: 'The billing service runs on PostgreSQL 15.' });

    const history = ok<{
      versions: { version: number; actor: string | null; reason: string | null }[];
      status_events: { to_status: string }[];
    }>(await call(client, 'history', { id }));
    expect(history.versions.map((v) => v.version)).toEqual([1, 2, 3]);
    expect(history.versions[1]).toMatchObject({ actor: 'agent-1', reason: 'upgrade' });
    expect(history.status_events.map((e) => e.to_status)).toContain('forgotten');
  });

  it('recall returns the §3.5 envelope, the same hits as the library', async () => {
    const engram = testEngram();
    const client = await connect(engram);
    for (const body of [
      'Alex prefers TypeScript over Python for backend services.',
      'Never deploy the billing service on Fridays.',
      'The team offsite is planned for March in Lisbon.',
    ])
      await engram.remember({ body });
    const envelope = ok<Record<string, unknown>>(
      await call(client, 'recall', { query: 'which language does Alex like', k: 2 }),
    );
    expect(Object.keys(envelope).sort()).toEqual(['decision', 'degraded', 'hits', 'timings_ms']);
    const hits = envelope.hits as { id: string; body: string; channels: Record<string, number> }[];
    expect(hits[0]!.body).toMatch(/TypeScript/);
    expect(hits[0]!.channels.keyword).toBe(1);
    const library = await engram.recall({ query: 'which language does Alex like', k: 2 });
    expect(hits.map((h) => h.id)).toEqual(library.hits.map((h) => h.id));
  });

  it('lists with filters and pages with the cursor', async () => {
    const engram = testEngram();
    const client = await connect(engram);
    for (let i = 0; i < 5; i++)
      await engram.remember({
        body: `Fact number ${i} about the ops rota.`,
        kind: 'fact',
        area: 'ops',
      });
    await engram.remember({ body: 'A note elsewhere.', area: 'general' });
    const first = ok<{ items: MemoryOut[]; next_cursor: string | null }>(
      await call(client, 'list', { areas: ['ops'], limit: 3 }),
    );
    expect(first.items).toHaveLength(3);
    expect(first.next_cursor).not.toBeNull();
    const second = ok<{ items: MemoryOut[]; next_cursor: string | null }>(
      await call(client, 'list', { areas: ['ops'], limit: 3, cursor: first.next_cursor }),
    );
    expect(second.items).toHaveLength(2);
    expect(new Set([...first.items, ...second.items].map((m) => m.id)).size).toBe(5);
  });

  it('relates, un-relates and supersedes memories', async () => {
    const engram = testEngram();
    const client = await connect(engram);
    const a = (await engram.remember({ body: 'The API rate limit is 100 requests per minute.' }))
      .memory.id;
    const b = (await engram.remember({ body: 'The API rate limit is 500 requests per minute.' }))
      .memory.id;
    const related = ok<{ relations: { type: string; from_id: string; to_id: string }[] }>(
      await call(client, 'relate', { from_id: a, to_id: b, type: 'related' }),
    );
    expect(related.relations).toEqual([
      expect.objectContaining({ type: 'related', from_id: a, to_id: b }),
    ]);
    expect(ok(await call(client, 'relate', { from_id: a, to_id: b, remove: true }))).toEqual({
      relations: [],
    });
    const superseded = ok<{ old: MemoryOut; new: MemoryOut }>(
      await call(client, 'supersede', { old_id: a, new_id: b, reason: 'limit raised' }),
    );
    expect(superseded.old.status).toBe('superseded');
    expect(superseded.new.status).toBe('active');
    const history = await engram.history(a);
    const relations = history.relations.map((r) => ({
      type: r.type,
      live: r.invalidated_at === null,
    }));
    expect(relations).toEqual(
      expect.arrayContaining([
        { type: 'related', live: false },
        { type: 'supersedes', live: true },
      ]),
    );
  });

  it('reports status of a space', async () => {
    const engram = testEngram();
    const client = await connect(engram);
    await engram.remember({ body: 'One memory in team space.', space: 'team' });
    const status = ok<{ space: string; store: { items_total: number } }>(
      await call(client, 'status', { space: 'team' }),
    );
    expect(status).toMatchObject({ space: 'team', store: { items_total: 1 } });
  });
});

describe('MCP tool errors', () => {
  it('invalid arguments come back as INVALID_INPUT naming the field, never as a crash', async () => {
    const client = await connect(testEngram());
    const missing = failed(await call(client, 'remember', { kind: 'fact' }));
    expect(missing).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'body' } });
    const unknown = failed(await call(client, 'recall', { query: 'x', colour: 'blue' }));
    expect(unknown).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'colour' } });
    const type = failed(await call(client, 'recall', { query: 'x', k: 'five' }));
    expect(type).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'k' } });
    const kind = failed(await call(client, 'remember', { body: 'x', kind: 'opinion' }));
    expect(kind.message).toMatch(/kind: must be one of fact/);
    const big = failed(await call(client, 'remember', { body: 'x'.repeat(40_000) }));
    expect(big).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'body' } });
    // The server still answers after all of that.
    expect(ok(await call(client, 'status', {}))).toHaveProperty('space', 'default');
  });

  it('unknown ids are NOT_FOUND, also for ids of another space', async () => {
    const engram = testEngram();
    const client = await connect(engram);
    const other = (await engram.remember({ body: 'Secret of team B.', space: 'team-b' })).memory.id;
    expect(failed(await call(client, 'get', { id: '01ARZ3NDEKTSV4RRFFQ69G5FAV' })).code).toBe(
      'NOT_FOUND',
    );
    expect(failed(await call(client, 'get', { id: other, space: 'team-a' })).code).toBe(
      'NOT_FOUND',
    );
    expect(failed(await call(client, 'forget', { id: other })).code).toBe('NOT_FOUND');
    expect((await engram.get(other, { space: 'team-b' })).status).toBe('active');
  });

  it('an unknown tool is a protocol error', async () => {
    const client = await connect(testEngram());
    await expect(client.callTool({ name: 'teleport', arguments: {} })).rejects.toThrow(
      /unknown tool teleport/,
    );
  });

  it('a server fault is INTERNAL without its message (test double tool that throws)', async () => {
    const failing: ToolGroup = () => [
      defineTool({
        name: 'explode',
        title: 'Explode',
        description: 'A test double tool that fails with a non-engram error carrying a secret.',
        input: z.strictObject({}),
        output: z.object({}),
        run: async () => {
          throw new Error('cannot open /secret/path with password hunter2');
        },
      }),
    ];
    const client = await connect(testEngram(), [...TOOL_GROUPS, failing]);
    const error = failed(await call(client, 'explode'));
    expect(error.code).toBe('INTERNAL');
    expect(JSON.stringify(error)).not.toMatch(/hunter2|secret/);
    expect(ok(await call(client, 'status'))).toHaveProperty('space');
  });
});
