/** The auto-recall and reinforcement MCP tools, in process over InMemoryTransport. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { silentLogger } from '../src/core/log.js';
import { createMcpServer } from '../src/interfaces/mcp/server.js';
import { testEngram } from './helpers.js';

const clients: Client[] = [];
afterEach(async () => {
  while (clients.length) await clients.pop()!.close();
});

async function connect(engram: Engram): Promise<Client> {
  const server = createMcpServer(engram, { log: silentLogger });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'engram-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function ok<T>(result: CallToolResult): T {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  return result.structuredContent as T;
}

describe('auto-recall MCP tools', () => {
  it('lists the four tools with strict argument schemas', async () => {
    const client = await connect(testEngram({ config: { embedder: { provider: 'none' } } }));
    const { tools } = await client.listTools();
    const mine = tools.filter((t) =>
      [
        'analyze_for_recall',
        'auto_recall',
        'configure_auto_recall',
        'observe_memory_usage',
      ].includes(t.name),
    );
    expect(mine).toHaveLength(4);
    for (const t of mine)
      expect((t.inputSchema as { additionalProperties?: unknown }).additionalProperties).toBe(
        false,
      );
    expect(mine.find((t) => t.name === 'auto_recall')!.inputSchema.required).toEqual(['message']);
    expect(mine.find((t) => t.name === 'observe_memory_usage')!.inputSchema.required).toEqual([
      'memory_ids',
    ]);
  });

  it('configures, recalls, analyses and observes through the tools', async () => {
    const engram = testEngram();
    const { memory } = await engram.remember({
      body: 'The office wifi password is rotated monthly by IT.',
      kind: 'fact',
    });
    const client = await connect(engram);
    const settings = ok<{ enabled: boolean; mode: string }>(
      await call(client, 'configure_auto_recall', { enabled: true, mode: 'interactive' }),
    );
    expect(settings).toMatchObject({ enabled: true, mode: 'interactive' });
    const recalled = ok<{ count: number; handles: { id: string }[]; summary: string }>(
      await call(client, 'auto_recall', {
        message: 'what is the wifi password?',
        conversation_id: 'c',
      }),
    );
    expect(recalled).toMatchObject({
      count: 1,
      summary: 'I found 1 related memory',
      handles: [{ id: memory.id }],
    });
    const analysis = ok<{ trigger: { reason: string } }>(
      await call(client, 'analyze_for_recall', { message: 'thanks!' }),
    );
    expect(analysis.trigger.reason).toBe('small_talk');
    const observed = ok<{ applied: number; results: { ok: boolean }[] }>(
      await call(client, 'observe_memory_usage', {
        memory_ids: [memory.id, 'NOPE'],
        context_tags: ['it'],
      }),
    );
    expect(observed.applied).toBe(1);
    expect(observed.results.map((r) => r.ok)).toEqual([true, false]);
  });

  it('returns tool errors naming the field', async () => {
    const client = await connect(testEngram({ config: { embedder: { provider: 'none' } } }));
    for (const [name, args, field] of [
      ['configure_auto_recall', { mode: 'loud' }, 'mode'],
      ['configure_auto_recall', { relevance_threshold: 3 }, 'relevance_threshold'],
      ['configure_auto_recall', { min_interval_s: -1 }, 'min_interval_s'],
      ['auto_recall', { message: '' }, 'message'],
      ['observe_memory_usage', { memory_ids: [] }, 'memory_ids'],
    ] as const) {
      const result = await call(client, name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      const error = (
        result.structuredContent as { error: { code: string; details: { field: string } } }
      ).error;
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.details.field).toBe(field);
    }
  });
});
