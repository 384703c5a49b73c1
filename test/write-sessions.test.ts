/**
 * Sessions without asking: the writes of one conversation (a library session handle, one MCP
 * connection, one `Engram-Session` over HTTP, one CLI import) are recorded as turns of one session
 * in arrival order, unless a write names its own session; a continued session numbers on after the
 * turns stored; and recall's session context then works for body-only writes.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { silentLogger } from '../src/domain/log.js';
import { createMcpServer } from '../src/interfaces/mcp/server.js';
import { BACKENDS } from './backends.js';
import { runCli } from './cli-run.js';
import { writeConfig } from './fixtures/processes.js';
import { tempDir, testEngram } from './helpers.js';
import { serveEngram } from './http-helpers.js';

/** Session and turn of each listed memory, by body. */
async function turns(engram: Engram): Promise<Record<string, unknown>> {
  const { items } = await engram.list({ limit: 100 });
  return Object.fromEntries(items.map((m) => [m.body, m.source]));
}

describe.each(BACKENDS)('write session handles ($name)', (backend) => {
  it('numbers the turns of the writes that name no session, in order', async () => {
    const engram = testEngram({ config: backend.fresh() });
    const session = await engram.writeSession();
    expect(session.id).toMatch(/^\S{10,}$/);
    await session.remember({ body: 'We planned the Lisbon trip.' });
    await session.remember({ body: 'Mine is booked.', source: { speaker: 'Ana' } });
    const batch = await session.rememberMany([{ body: 'Flights leave at nine.' }, { body: '' }]);
    expect(batch.map((r) => r.ok)).toEqual([true, false]);
    await session.remember({ body: 'Another conversation.', source: { session: 'other' } });
    await session.remember({ body: 'A turn of my own.', source: { turn: 40 } });
    await engram.remember({ body: 'Written without the handle.' });
    expect(await turns(engram)).toEqual({
      'We planned the Lisbon trip.': { session: session.id, turn: 0 },
      'Mine is booked.': { speaker: 'Ana', session: session.id, turn: 1 },
      'Flights leave at nine.': { session: session.id, turn: 2 },
      // The empty body failed alone; its turn number is simply skipped.
      'Another conversation.': { session: 'other' },
      'A turn of my own.': { turn: 40 },
      'Written without the handle.': null,
    });
  });

  it('continues a named session after the turns already stored, in its space', async () => {
    const engram = testEngram({ config: backend.fresh() });
    const first = await engram.writeSession({ id: 'support-42' });
    await first.remember({ body: 'The printer jams on page two.' });
    await first.remember({ body: 'It is the tray, not the driver.' });
    await engram.remember({
      body: 'Elsewhere.',
      space: 'other',
      source: { session: 'support-42', turn: 9 },
    });
    const again = await engram.writeSession({ id: 'support-42' });
    await again.remember({ body: 'Fixed after a new tray.' });
    expect((await turns(engram))['Fixed after a new tray.']).toEqual({
      session: 'support-42',
      turn: 2,
    });
    await expect(engram.writeSession({ id: '' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'session' },
    });
  });
});

describe('sessions on each interface', () => {
  it('one MCP connection is one session; a second connection is another', async () => {
    const engram = testEngram();
    const connect = async () => {
      const server = createMcpServer(engram, { log: silentLogger });
      const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
      const client = new Client({ name: 'engram-test', version: '1.0.0' });
      await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
      return client;
    };
    const remember = async (client: Client, body: string) => {
      const result = (await client.callTool({
        name: 'remember',
        arguments: { body },
      })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      return (result.structuredContent as { memory: { source: { session: string; turn: number } } })
        .memory.source;
    };
    const a = await connect();
    const b = await connect();
    const a0 = await remember(a, 'Ana prefers window seats.');
    const b0 = await remember(b, 'Budget is 2,000 euros.');
    const a1 = await remember(a, 'She flies on Fridays.');
    expect(a0.session).toBe(a1.session);
    expect([a0.turn, a1.turn]).toEqual([0, 1]);
    expect(b0).toEqual({ session: expect.any(String), turn: 0 });
    expect(b0.session).not.toBe(a0.session);
    await Promise.all([a.close(), b.close()]);
  });

  it('HTTP numbers the turns of an Engram-Session, and of a body session without a turn', async () => {
    const engram = testEngram();
    const http = await serveEngram(engram);
    const M = '/v1/spaces/default/memories';
    const post = (json: unknown, headers: Record<string, string> = {}) =>
      http.request('POST', M, { json, headers });
    try {
      await post({ body: 'Kickoff is on Monday.' }, { 'engram-session': 'planning' });
      await post({ body: 'Design review on Wednesday.' }, { 'engram-session': 'planning' });
      await post({ body: 'Retro on Friday.', source: { session: 'planning' } });
      await http.request('POST', `${M}/batch`, {
        json: { items: [{ body: 'Demo on Thursday.' }, { body: 'Ship next week.' }] },
        headers: { 'engram-session': 'planning' },
      });
      await post({ body: 'No session at all.' });
      const bad = await post({ body: 'x' }, { 'engram-session': 'a'.repeat(201) });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({
        error: { code: 'INVALID_INPUT', details: { field: 'session' } },
      });
    } finally {
      await http.close();
    }
    const all = await turns(engram);
    expect(
      [
        'Kickoff is on Monday.',
        'Design review on Wednesday.',
        'Retro on Friday.',
        'Demo on Thursday.',
        'Ship next week.',
      ].map((b) => all[b]),
    ).toEqual([0, 1, 2, 3, 4].map((turn) => ({ session: 'planning', turn })));
    expect(all['No session at all.']).toBeNull();
  });

  it('one CLI import is one session, in file order', async () => {
    const dir = tempDir();
    const config = writeConfig(dir, join(dir, 'engram.db'));
    const file = join(dir, 'notes.jsonl');
    writeFileSync(
      file,
      ['Ana booked the hotel.', 'It is near the river.', 'Check-in is at three.']
        .map((body) => JSON.stringify({ body }))
        .concat(JSON.stringify({ body: 'Kept apart.', source: { session: 'mine', turn: 7 } }))
        .join('\n'),
    );
    const imported = await runCli(['--config', config, 'import', file]);
    expect(imported.code, imported.stderr).toBe(0);
    const listed = await runCli(['--config', config, '--json', 'list', '--limit', '10']);
    const items = JSON.parse(listed.stdout).items as {
      body: string;
      source: Record<string, unknown>;
    }[];
    const byBody = Object.fromEntries(items.map((m) => [m.body, m.source]));
    const session = (byBody['Ana booked the hotel.'] as { session: string }).session;
    expect(session).toEqual(expect.any(String));
    expect(byBody).toEqual({
      'Ana booked the hotel.': { session, turn: 0 },
      'It is near the river.': { session, turn: 1 },
      'Check-in is at three.': { session, turn: 2 },
      'Kept apart.': { session: 'mine', turn: 7 },
    });
  });
});

describe('recall with the session of body-only writes', () => {
  it('lends a turn the keyword evidence of the turns around it', async () => {
    const conversation = [
      'My sister moved to Porto in March.',
      'Did you end up going to the pottery workshop downtown?',
      'Two of them, and the teacher kept one.',
      'The car needs new tyres before winter.',
      'I made soup for dinner yesterday.',
    ];
    const answer = conversation[2]!;
    const withSession = testEngram();
    const handle = await withSession.writeSession();
    for (const body of conversation) await handle.remember({ body });
    // Written with no session, the same lines would be each other's write neighbours: turned off.
    const plain = testEngram({ config: { recall: { context: { write_gap_ms: 0 } } } });
    for (const body of conversation) await plain.remember({ body });
    // The answer shares no word with the question: only its place in the conversation, right
    // after the turn that matches, can lift it.
    const share = async (engram: Engram) => {
      const { hits } = await engram.recall({
        query: 'what did I make at the pottery workshop',
        k: 5,
      });
      return hits.find((h) => h.body === answer)!.score / hits[0]!.score;
    };
    expect(await share(withSession)).toBeGreaterThan(0.5);
    expect(await share(plain)).toBeLessThan(0.3);
  });
});
