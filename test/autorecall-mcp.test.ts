/** The auto-recall and reinforcement MCP tools, in process over InMemoryTransport. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

import { testEngram } from './helpers.js';
import { callTool, connectMcp } from './mcp-helpers.js';

function ok<T>(result: CallToolResult): T {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  return result.structuredContent as T;
}

describe('auto-recall MCP tools', () => {
  it('lists the four tools with strict argument schemas', async () => {
    const client = await connectMcp(testEngram({ config: { embedder: { provider: 'none' } } }));
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
    const client = await connectMcp(engram);
    const settings = ok<{ enabled: boolean; mode: string }>(
      await callTool(client, 'configure_auto_recall', { enabled: true, mode: 'interactive' }),
    );
    expect(settings).toMatchObject({ enabled: true, mode: 'interactive' });
    const recalled = ok<{ count: number; handles: { id: string }[]; summary: string }>(
      await callTool(client, 'auto_recall', {
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
      await callTool(client, 'analyze_for_recall', { message: 'thanks!' }),
    );
    expect(analysis.trigger.reason).toBe('small_talk');
    const observed = ok<{ applied: number; results: { ok: boolean }[] }>(
      await callTool(client, 'observe_memory_usage', {
        memory_ids: [memory.id, 'NOPE'],
        context_tags: ['it'],
      }),
    );
    expect(observed.applied).toBe(1);
    expect(observed.results.map((r) => r.ok)).toEqual([true, false]);
  });

  it('returns tool errors naming the field', async () => {
    const client = await connectMcp(testEngram({ config: { embedder: { provider: 'none' } } }));
    for (const [name, args, field] of [
      ['configure_auto_recall', { mode: 'loud' }, 'mode'],
      ['configure_auto_recall', { relevance_threshold: 3 }, 'relevance_threshold'],
      ['configure_auto_recall', { min_interval_s: -1 }, 'min_interval_s'],
      ['auto_recall', { message: '' }, 'message'],
      ['observe_memory_usage', { memory_ids: [] }, 'memory_ids'],
    ] as const) {
      const result = await callTool(client, name, args);
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      const error = (
        result.structuredContent as { error: { code: string; details: { field: string } } }
      ).error;
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.details.field).toBe(field);
    }
  });
});
