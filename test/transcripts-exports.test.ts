/**
 * Chat apps' data exports as sessions (§1.4): a ChatGPT `conversations.json` (the branch that
 * leads to `current_node`, hidden and reasoning messages left out, tool calls as tool turns) and a
 * Claude.ai `conversations.json` (content parts, else text; attachments named), detected without
 * `--format`; a malformed conversation fails alone naming its index, id and field; then stored
 * through the service on SQLite and PostgreSQL: original ids, re-import `exists`, and no memory
 * item ever made. Fixtures are the files under test/fixtures/transcripts, written for these tests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { detectFormat, parseTranscript } from '../src/transfer/transcripts.js';
import { type Backend, BACKENDS } from './backends.js';
import { testEngram } from './helpers.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'transcripts');
const CHATGPT_FILE = join(FIXTURES, 'chatgpt-conversations.json');
const CLAUDE_FILE = join(FIXTURES, 'claude-conversations.json');
const CHATGPT = readFileSync(CHATGPT_FILE, 'utf8');
const CLAUDE = readFileSync(CLAUDE_FILE, 'utf8');

const LISBON = '6a1f0c2e-0000-4000-8000-00000000c001';
const SOURDOUGH = '6a1f0c2e-0000-4000-8000-00000000c002';
const TOMATOES = '4d7e9b10-0000-4000-8000-00000000a001';
const BIKE = '4d7e9b10-0000-4000-8000-00000000a003';

type Turn = { role: string; text: string; at: string | null };
const turnsOf = (value: Record<string, unknown>) => value.turns as Turn[];
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The fixture's conversations, to build variants from. */
const chatgptList = () => JSON.parse(CHATGPT) as Record<string, unknown>[];

describe('ChatGPT exports', () => {
  it('is detected and read: the current branch, times, titles, tool turns', () => {
    expect(detectFormat(CHATGPT)).toBe('chatgpt');
    const parsed = parseTranscript(CHATGPT, { file: '/exports/conversations.json' });
    expect(parsed.format).toBe('chatgpt');
    expect(parsed.errors).toEqual([]);
    expect(parsed.records.map((r) => r.ref)).toEqual([
      `conversations[0] (id ${LISBON})`,
      `conversations[1] (id ${SOURDOUGH})`,
    ]);
    const [lisbon, sourdough] = parsed.records.map((r) => r.value);
    expect(lisbon).toMatchObject({
      id: LISBON,
      title: 'Three days in Lisbon',
      agent: 'chatgpt',
      started_at: '2024-06-01T09:00:00.250Z',
      source: { tool: 'chatgpt', file: '/exports/conversations.json', original_id: LISBON },
    });
    // The hidden system message, the regenerated answer, the reasoning and the image are left out.
    expect(turnsOf(lisbon!)).toEqual([
      { role: 'user', text: 'Plan three days in Lisbon for me.', at: iso(1717232401.5) },
      {
        role: 'assistant',
        text: 'Day 1: Alfama and the castle. Day 2: Belem. Day 3: Sintra.',
        at: iso(1717232420),
      },
      { role: 'user', text: 'Which tram goes up to the castle?', at: iso(1717232500) },
      { role: 'tool', text: 'call browser: search("Lisbon tram castle")', at: iso(1717232502) },
      {
        role: 'tool',
        text: 'result: Tram 28 stops at Largo das Portas do Sol.',
        at: iso(1717232503),
      },
      {
        role: 'assistant',
        text: 'Take tram 28 to Portas do Sol, then walk up.',
        at: iso(1717232510),
      },
    ]);
    // `conversation_id` names a conversation that has no `id`.
    expect(sourdough).toMatchObject({ id: SOURDOUGH, title: 'Sourdough starter' });
    expect(turnsOf(sourdough!).map((t) => t.role)).toEqual(['user', 'assistant']);
  });

  it('follows current_node to an older branch, or the latest one when it is absent', () => {
    const list = chatgptList();
    const older = { ...list[0], current_node: 'n-a1-old' };
    const [record] = parseTranscript(JSON.stringify([older])).records;
    expect(turnsOf(record!.value).map((t) => t.text)).toEqual([
      'Plan three days in Lisbon for me.',
      'A first answer that was regenerated away.',
    ]);
    const { current_node: _c, ...latest } = list[0]!;
    const [same] = parseTranscript(JSON.stringify([latest]), { format: 'chatgpt' }).records;
    expect(turnsOf(same!.value)).toEqual(turnsOf(parseTranscript(CHATGPT).records[0]!.value));
  });

  it('leaves tool turns out on request and takes the agent given', () => {
    const [record] = parseTranscript(CHATGPT, { tools: false, agent: 'gpt-work' }).records;
    expect(record!.value.agent).toBe('gpt-work');
    expect(turnsOf(record!.value).map((t) => t.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('fails a malformed conversation alone, naming its index, id and field', () => {
    const [lisbon, sourdough] = chatgptList();
    const node = (message: unknown) => ({ id: 'x', parent: null, children: [], message });
    const list = [
      lisbon,
      { id: 'bad-mapping', title: 'No mapping', mapping: 'nope' },
      7,
      { id: 'bad-current', mapping: { x: node(null) }, current_node: 'gone' },
      {
        id: 'bad-role',
        current_node: 'x',
        mapping: { x: node({ author: { role: 'robot' }, content: { parts: ['hi'] } }) },
      },
      { id: 'bad-parent', current_node: 'x', mapping: { x: { ...node(null), parent: 'lost' } } },
      { conversation_id: 'bad-content', mapping: { x: node({ author: { role: 'user' } }) } },
      sourdough,
    ];
    const parsed = parseTranscript(JSON.stringify(list));
    expect(parsed.format).toBe('chatgpt');
    expect(parsed.records.map((r) => r.value.id)).toEqual([LISBON, SOURDOUGH]);
    expect(parsed.errors.map((e) => [e.ref, e.field, e.message])).toEqual([
      [
        'conversations[1] (id bad-mapping)',
        'mapping',
        'mapping: must be an object of message nodes',
      ],
      ['conversations[2]', 'conversations[2]', 'conversations[2]: must be a conversation object'],
      [
        'conversations[3] (id bad-current)',
        'current_node',
        'current_node: must be the id of a node of mapping',
      ],
      [
        'conversations[4] (id bad-role)',
        'mapping.x.message.author.role',
        'mapping.x.message.author.role: must be one of user, assistant, system, tool',
      ],
      [
        'conversations[5] (id bad-parent)',
        'mapping.x.parent',
        'mapping.x.parent: must be null or the id of a node of mapping',
      ],
      [
        'conversations[6] (id bad-content)',
        'mapping.x.message.content',
        'mapping.x.message.content: must be an object with content_type and parts',
      ],
    ]);
  });

  it('reports a file that is not an export, and leaves an out-of-range time out', () => {
    expect(parseTranscript('[oops', { format: 'chatgpt' }).errors[0]!.message).toMatch(
      /^not valid JSON/u,
    );
    expect(parseTranscript('"text"', { format: 'chatgpt' }).errors[0]).toMatchObject({
      ref: 'file',
      message: 'must be a JSON array of conversations',
    });
    const [lisbon] = chatgptList();
    const [record] = parseTranscript(JSON.stringify([{ ...lisbon, create_time: 1e20 }])).records;
    expect(record!.value.started_at).toBeUndefined();
  });
});

describe('Claude.ai exports', () => {
  it('is detected and read: content parts, else text; attachments named; empty left out', () => {
    expect(detectFormat(CLAUDE)).toBe('claude');
    const parsed = parseTranscript(CLAUDE, { file: '/exports/claude.json' });
    expect(parsed.format).toBe('claude');
    expect(parsed.errors).toEqual([]);
    expect(parsed.records.map((r) => r.ref)).toEqual([
      `conversations[0] (id ${TOMATOES})`,
      `conversations[2] (id ${BIKE})`,
    ]);
    const [tomatoes, bike] = parsed.records.map((r) => r.value);
    expect(tomatoes).toMatchObject({
      id: TOMATOES,
      title: 'Watering the tomato beds',
      agent: 'claude',
      started_at: '2025-04-02T07:30:00.000Z',
      source: { tool: 'claude', file: '/exports/claude.json', original_id: TOMATOES },
    });
    expect(turnsOf(tomatoes!)).toEqual([
      {
        role: 'user',
        text: 'How often should I water the tomato beds in April? My schedule is attached.\n\n[attached: schedule.txt]',
        at: '2025-04-02T07:30:05.000Z',
      },
      { role: 'assistant', text: 'Let me check the forecast.', at: '2025-04-02T07:30:20.000Z' },
      {
        role: 'tool',
        text: 'call web_search: {"query":"April rain forecast"}',
        at: '2025-04-02T07:30:20.000Z',
      },
      {
        role: 'tool',
        text: 'result: Rain expected on Tuesday and Thursday.',
        at: '2025-04-02T07:30:20.000Z',
      },
      {
        role: 'assistant',
        text: 'Water deeply twice a week, skipping rainy days.',
        at: '2025-04-02T07:30:20.000Z',
      },
      {
        role: 'user',
        text: 'Thanks, mornings it is.\n\n[attached: beds.jpg]',
        at: '2025-04-02T07:41:00.000Z',
      },
    ]);
    expect(bike).toMatchObject({ id: BIKE, title: 'Bike chain', agent: 'claude' });
    const bare = parseTranscript(CLAUDE, { tools: false, agent: 'claude-home' }).records[0]!;
    expect(bare.value.agent).toBe('claude-home');
    // Without the tool turns between them, the reply's text parts make one turn.
    expect(turnsOf(bare.value).map((t) => [t.role, t.text.slice(0, 16)])).toEqual([
      ['user', 'How often should'],
      ['assistant', 'Let me check the'],
      ['user', 'Thanks, mornings'],
    ]);
  });

  it('fails a malformed conversation alone, naming its index, id and field', () => {
    const list = JSON.parse(CLAUDE) as Record<string, unknown>[];
    const message = { sender: 'robot', text: 'beep' };
    const bad = [
      { uuid: 'bad-messages', name: 'x', chat_messages: 'none' },
      { uuid: 'bad-sender', chat_messages: [{ sender: 'human', text: 'hi' }, message] },
      { name: 'no id', chat_messages: [null] },
    ];
    const parsed = parseTranscript(JSON.stringify([...bad, ...list]), { format: 'claude' });
    expect(parsed.records.map((r) => r.value.id)).toEqual([TOMATOES, BIKE]);
    expect(parsed.errors.map((e) => [e.ref, e.field, e.message])).toEqual([
      [
        'conversations[0] (id bad-messages)',
        'chat_messages',
        'chat_messages: must be an array of messages',
      ],
      [
        'conversations[1] (id bad-sender)',
        'chat_messages[1].sender',
        'chat_messages[1].sender: must be "human" or "assistant"',
      ],
      ['conversations[2]', 'chat_messages[0]', 'chat_messages[0]: must be a message object'],
    ]);
  });
});

const T0 = Date.parse('2025-06-01T12:00:00Z');

function engramOn(backend: Backend): Engram {
  return testEngram({
    now: () => T0,
    config: { ...backend.fresh(), embedder: { provider: 'none' } },
  });
}

/** Reads a file's transcript and stores its sessions, as `engram sessions import` does. */
async function store(engram: Engram, text: string) {
  const parsed = parseTranscript(text);
  const results = await engram.importSessions(parsed.records.map((r) => r.value));
  return { parsed, results };
}

describe.each(BACKENDS)('exports stored as sessions ($name)', (backend) => {
  it('stores each conversation once with its id and turns, and never a memory item', async () => {
    const engram = engramOn(backend);
    const memory = (await engram.remember({ body: 'Tram 28 is crowded at noon.' })).memory;

    const first = await store(engram, CHATGPT);
    expect(first.results.map((r) => r.ok && [r.id, r.status, r.turns])).toEqual([
      [LISBON, 'created', 6],
      [SOURDOUGH, 'created', 2],
    ]);
    const claude = await store(engram, CLAUDE);
    expect(claude.results.map((r) => r.ok && [r.id, r.status, r.turns])).toEqual([
      [TOMATOES, 'created', 6],
      [BIKE, 'created', 2],
    ]);

    const lisbon = await engram.getSession(LISBON);
    expect(lisbon).toMatchObject({
      agent: 'chatgpt',
      title: 'Three days in Lisbon',
      started_at: '2024-06-01T09:00:00.250Z',
      ended_at: iso(1717232510),
      source: { tool: 'chatgpt', original_id: LISBON },
    });
    expect(lisbon.turns.map((t) => [t.index, t.role])).toEqual([
      [0, 'user'],
      [1, 'assistant'],
      [2, 'user'],
      [3, 'tool'],
      [4, 'tool'],
      [5, 'assistant'],
    ]);
    expect(lisbon.turns[0]!.at).toBe(iso(1717232401.5));
    const tomatoes = await engram.getSession(TOMATOES);
    expect(tomatoes).toMatchObject({ agent: 'claude', title: 'Watering the tomato beds' });
    expect(tomatoes.turns[5]).toMatchObject({ role: 'user', at: '2025-04-02T07:41:00.000Z' });

    const listed = await engram.listSessions();
    expect(listed.sessions.map((s) => s.id).sort()).toEqual(
      [LISBON, SOURDOUGH, TOMATOES, BIKE].sort(),
    );
    const found = await engram.searchSessions({ query: 'tram castle' });
    expect(found.hits.map((h) => h.session_id)).toContain(LISBON);

    // Re-importing finds every conversation already stored.
    const again = await store(engram, CHATGPT);
    expect(again.results.map((r) => r.ok && r.status)).toEqual(['exists', 'exists']);
    const againClaude = await store(engram, CLAUDE);
    expect(againClaude.results.map((r) => r.ok && r.status)).toEqual(['exists', 'exists']);

    // The wall between sessions and memories: only the one memory exists.
    expect((await engram.list()).items.map((m) => m.id)).toEqual([memory.id]);
    expect((await engram.status()).store.items_total).toBe(1);
    const recalled = await engram.recall({ query: 'tram castle Portas do Sol', k: 10 });
    expect(recalled.hits.map((h) => h.id)).toEqual([memory.id]);
  });

  it('stores the other conversations when one is malformed or fails validation', async () => {
    const engram = engramOn(backend);
    const [lisbon, sourdough] = chatgptList();
    const badId = { ...sourdough, conversation_id: 'not a valid id!' };
    const list = [lisbon, { id: 'broken', mapping: null }, badId];
    const { parsed, results } = await store(engram, JSON.stringify(list));
    expect(parsed.errors).toEqual([
      expect.objectContaining({ ref: 'conversations[1] (id broken)', field: 'mapping' }),
    ]);
    expect(parsed.records.map((r) => r.ref)).toEqual([
      `conversations[0] (id ${LISBON})`,
      'conversations[2] (id not a valid id!)',
    ]);
    expect(results[0]).toMatchObject({ ok: true, id: LISBON, status: 'created' });
    expect(results[1]).toMatchObject({ ok: false, error: { field: 'id' } });
    const listed = await engram.listSessions();
    expect(listed.sessions.map((s) => s.id)).toEqual([LISBON]);
    expect((await engram.status()).store.items_total).toBe(0);
  });
});
