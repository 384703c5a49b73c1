/** Dormant recall through the MCP tools, in process (SDK client over InMemoryTransport). */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';

import { dormantEngram, rememberAll } from './dormant-helpers.js';
import { callTool, connectMcp } from './mcp-helpers.js';

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const r = await callTool(client, name, args);
  return { error: r.isError === true, body: r.structuredContent as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('dormant recall MCP tools', () => {
  it('review, inspect and feedback need explicit calls; recall shows nothing dormant', async () => {
    const { engram, clock } = dormantEngram();
    await rememberAll(engram, [
      {
        kind: 'fact',
        body: 'To restart the staging database server after a crash, run the recover-db script.',
      },
    ]);
    clock.advanceDays(60);
    await rememberAll(engram, [
      {
        kind: 'fact',
        body: 'How to restart the staging database server after a crash: follow the recovery runbook.',
      },
    ]);
    const client = await connectMcp(engram, { name: 'dormant-test' });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['dormant_review', 'dormant_inspect', 'dormant_feedback']),
    );
    const recall = await call(client, 'recall', {
      query: 'restart the staging database server after a crash',
      k: 1,
    });
    expect(recall.error).toBe(false);
    expect(JSON.stringify(recall.body)).not.toMatch(/dormant/);
    await engram.dormantIdle();
    const review = await call(client, 'dormant_review', { limit: 5 });
    const event = review.body.events[0];
    expect(event.outcome).toBe('selected');
    const inspect = await call(client, 'dormant_inspect', { event_id: event.id });
    expect(inspect.body.memory.id).toBe(event.candidate_id);
    expect(inspect.body.event.shown_at).not.toBeNull();
    const fb = await call(client, 'dormant_feedback', {
      event_id: event.id,
      category: 'irrelevant',
    });
    expect(fb.body.changed).toBe(true);
    const again = await call(client, 'dormant_feedback', {
      event_id: event.id,
      category: 'irrelevant',
    });
    expect(again.body.changed).toBe(false);
    const conflict = await call(client, 'dormant_feedback', {
      event_id: event.id,
      category: 'useful',
    });
    expect(conflict.error).toBe(true);
    expect(JSON.stringify(conflict.body)).toMatch(/CONFLICT/);
    const invalid = await call(client, 'dormant_feedback', { event_id: event.id, category: 'meh' });
    expect(invalid.error).toBe(true);
  });
});
