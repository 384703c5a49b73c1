/**
 * Transcript readers of `engram sessions import` (§1.4, §2): engram JSONL (a session per line, or
 * a turn per line grouped by session), a JSON array of chat messages (OpenAI and Anthropic
 * content parts), and Claude Code session logs; format detection; ids derived from content when
 * a file names none, so a re-import finds the same sessions. Fixtures are written here.
 */
import { describe, expect, it } from 'vitest';

import { readClaudeCode } from '../src/transfer/claude-code.js';
import { detectFormat, parseTranscript } from '../src/transfer/transcripts.js';

const jsonl = (...lines: unknown[]) => lines.map((l) => JSON.stringify(l)).join('\n');

describe('engram JSONL transcripts', () => {
  it('reads a session per line and turn lines grouped by session, in file order', () => {
    const text = [
      JSON.stringify({ session: 'conv-b', role: 'user', text: 'Where do backups go?' }),
      JSON.stringify({
        id: 'conv-a',
        title: 'Deploy plan',
        turns: [
          { role: 'user', text: 'Plan the deploy', at: '2024-05-01T09:00:00Z' },
          { role: 'assistant', text: 'Friday is frozen; deploy Thursday.' },
        ],
      }),
      '',
      '{not json',
      JSON.stringify({ session: 'conv-b', role: 'assistant', text: 'To the cold bucket.' }),
      JSON.stringify({ session: 42, role: 'user', text: 'bad session id' }),
    ].join('\n');
    const parsed = parseTranscript(text, { agent: 'helper', file: '/tmp/t.jsonl' });
    expect(parsed.format).toBe('jsonl');
    expect(parsed.records.map((r) => r.ref)).toEqual(['lines 1-5', 'line 2']);
    expect(parsed.records[0]!.value).toEqual({
      id: 'conv-b',
      agent: 'helper',
      source: { tool: 'engram-jsonl', file: '/tmp/t.jsonl', original_id: 'conv-b' },
      turns: [
        { role: 'user', text: 'Where do backups go?' },
        { role: 'assistant', text: 'To the cold bucket.' },
      ],
    });
    expect(parsed.records[1]!.value).toMatchObject({
      id: 'conv-a',
      title: 'Deploy plan',
      agent: 'helper',
      source: { tool: 'engram-jsonl', original_id: 'conv-a' },
    });
    expect(parsed.errors).toEqual([
      expect.objectContaining({
        ref: 'line 4',
        message: expect.stringMatching(/^not valid JSON/u),
      }),
      expect.objectContaining({ ref: 'line 6', field: 'session' }),
    ]);
  });

  it('gives a session line without an id the same derived id on every read', () => {
    const line = { turns: [{ role: 'user', text: 'remember the blue door' }] };
    const a = parseTranscript(jsonl(line)).records[0]!.value.id;
    const b = parseTranscript(jsonl(line)).records[0]!.value.id;
    const other = parseTranscript(jsonl({ turns: [{ role: 'user', text: 'the red door' }] }))
      .records[0]!.value.id;
    expect(a).toMatch(/^[0-9a-f]{32}$/u);
    expect(b).toBe(a);
    expect(other).not.toBe(a);
  });
});

describe('chat message arrays', () => {
  it('makes one session of string and part contents, tool calls and results as tool turns', () => {
    const messages = [
      { role: 'system', content: 'You are terse.' },
      { role: 'developer', content: 'Answer in English.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 't1', name: 'weather', input: { city: 'Oslo' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 't1',
            content: [{ type: 'text', text: '4 C, rain' }],
          },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c2', function: { name: 'umbrella', arguments: '{"need":true}' } }],
      },
      { role: 'tool', content: 'yes' },
      {
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Rainy, 4 C: take an umbrella.' }],
      },
    ];
    const parsed = parseTranscript(JSON.stringify(messages), { file: 'chat.json' });
    expect(parsed.format).toBe('messages');
    expect(parsed.errors).toEqual([]);
    const [record] = parsed.records;
    expect(record!.ref).toBe('messages');
    expect(record!.value.turns).toEqual([
      { role: 'system', text: 'You are terse.', at: null },
      { role: 'system', text: 'Answer in English.', at: null },
      { role: 'user', text: 'Weather in Oslo?', at: null },
      { role: 'assistant', text: 'Checking.', at: null },
      { role: 'tool', text: 'call weather: {"city":"Oslo"}', at: null },
      { role: 'tool', text: 'result: 4 C, rain', at: null },
      { role: 'tool', text: 'call umbrella: {"need":true}', at: null },
      { role: 'tool', text: 'yes', at: null },
      { role: 'assistant', text: 'Rainy, 4 C: take an umbrella.', at: null },
    ]);
    expect(record!.value.source).toEqual({ tool: 'messages', file: 'chat.json' });
    expect(record!.value.id).toMatch(/^[0-9a-f]{32}$/u);
    // Without tools, the calls and results are left out.
    const bare = parseTranscript(JSON.stringify(messages), { tools: false }).records[0]!;
    expect((bare.value.turns as { role: string }[]).map((t) => t.role)).toEqual([
      'system',
      'system',
      'user',
      'assistant',
      'assistant',
    ]);
  });

  it('reads an object with messages and its own id and title; refuses a non-object message', () => {
    const wrapped = { id: 'thread_9', title: 'Trip', messages: [{ role: 'user', content: 'hi' }] };
    expect(detectFormat(JSON.stringify(wrapped))).toBe('messages');
    const [record] = parseTranscript(JSON.stringify(wrapped), { agent: 'gpt' }).records;
    expect(record!.value).toEqual({
      id: 'thread_9',
      title: 'Trip',
      agent: 'gpt',
      source: { tool: 'messages', original_id: 'thread_9' },
      turns: [{ role: 'user', text: 'hi', at: null }],
    });
    const bad = parseTranscript('[{"role":"user","content":"a"}, 7]');
    expect(bad.records).toEqual([]);
    expect(bad.errors[0]).toMatchObject({ ref: 'messages[1]', field: 'messages[1]' });
    expect(parseTranscript('[oops', { format: 'messages' }).errors[0]!.message).toMatch(
      /^not valid JSON/u,
    );
  });
});

/** A small Claude Code session log: what the reader keeps and what it skips. */
function claudeLog(): string {
  const base = { cwd: '/work/app', gitBranch: 'main', version: '2.0.1', userType: 'external' };
  return jsonl(
    { type: 'summary', summary: 'Fix flaky login test', leafUuid: 'u5' },
    { type: 'file-history-snapshot', messageId: 'x', snapshot: {} },
    {
      ...base,
      type: 'user',
      sessionId: 'sess-1',
      uuid: 'u1',
      parentUuid: null,
      timestamp: '2025-03-01T10:00:00.000Z',
      message: { role: 'user', content: 'The login test fails sometimes.' },
    },
    {
      ...base,
      type: 'user',
      isMeta: true,
      sessionId: 'sess-1',
      uuid: 'm1',
      timestamp: '2025-03-01T10:00:00.500Z',
      message: { role: 'user', content: 'Caveat: injected by the tool' },
    },
    {
      ...base,
      type: 'assistant',
      sessionId: 'sess-1',
      uuid: 'u2',
      parentUuid: 'u1',
      timestamp: '2025-03-01T10:00:02.000Z',
      message: {
        id: 'msg_1',
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'private reasoning' },
          { type: 'text', text: 'Let me read the test.' },
        ],
      },
    },
    {
      ...base,
      type: 'assistant',
      sessionId: 'sess-1',
      uuid: 'u3',
      parentUuid: 'u2',
      timestamp: '2025-03-01T10:00:02.100Z',
      message: {
        id: 'msg_1',
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'tu1', name: 'Read', input: { file_path: 'login.spec.ts' } },
        ],
      },
    },
    {
      ...base,
      type: 'user',
      sessionId: 'sess-1',
      uuid: 'u4',
      parentUuid: 'u3',
      timestamp: '2025-03-01T10:00:03.000Z',
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'tu1', content: 'x'.repeat(2_500) }],
      },
    },
    {
      ...base,
      type: 'assistant',
      isSidechain: true,
      sessionId: 'sess-1',
      uuid: 's1',
      timestamp: '2025-03-01T10:00:03.500Z',
      message: {
        id: 'msg_side',
        role: 'assistant',
        content: [{ type: 'text', text: 'sub-agent' }],
      },
    },
    {
      ...base,
      type: 'assistant',
      sessionId: 'sess-1',
      uuid: 'u5',
      parentUuid: 'u4',
      timestamp: '2025-03-01T10:00:05.000Z',
      message: {
        id: 'msg_2',
        role: 'assistant',
        content: [{ type: 'text', text: 'The test waits on a timer; ' }],
      },
    },
    {
      ...base,
      type: 'assistant',
      sessionId: 'sess-1',
      uuid: 'u6',
      parentUuid: 'u5',
      timestamp: '2025-03-01T10:00:05.200Z',
      message: {
        id: 'msg_2',
        role: 'assistant',
        content: [{ type: 'text', text: 'use fake timers instead.' }],
      },
    },
    {
      type: 'user',
      sessionId: 'sess-2',
      uuid: 'v1',
      timestamp: '2025-03-02T08:00:00.000Z',
      message: { role: 'user', content: [{ type: 'text', text: 'Second session here.' }] },
    },
  );
}

describe('Claude Code session logs', () => {
  it('is detected and read: a session per sessionId, skipped lines, merged pieces, tool turns', () => {
    const text = claudeLog();
    expect(detectFormat(text)).toBe('claude-code');
    const { records, errors } = parseTranscript(text, { file: '/logs/sess-1.jsonl' });
    expect(errors).toEqual([]);
    expect(records.map((r) => r.value.id)).toEqual(['sess-1', 'sess-2']);
    const [first, second] = records;
    expect(first!.ref).toBe('lines 3-10');
    expect(first!.value).toMatchObject({
      agent: 'claude-code',
      title: 'Fix flaky login test',
      source: {
        tool: 'claude-code',
        file: '/logs/sess-1.jsonl',
        original_id: 'sess-1',
        cwd: '/work/app',
        git_branch: 'main',
        version: '2.0.1',
      },
    });
    const turns = first!.value.turns as { role: string; text: string; at: string }[];
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(turns[0]!.text).toBe('The login test fails sometimes.');
    expect(turns[1]!.text).toBe('Let me read the test.');
    expect(turns[2]!.text).toBe('call Read: {"file_path":"login.spec.ts"}');
    // The message written as two lines (same message id) is one turn.
    expect(turns[4]!.text).toBe('The test waits on a timer; \n\nuse fake timers instead.');
    expect(turns[0]!.at).toBe('2025-03-01T10:00:00.000Z');
    // A long tool result is clipped, saying how much was left out.
    expect(turns[3]!.text).toBe(`result: ${'x'.repeat(2_000)}… [500 more characters]`);
    expect(second!.value).toMatchObject({ id: 'sess-2', agent: 'claude-code' });
    expect(second!.value.title).toBeUndefined();
  });

  it('leaves tool turns out on request, names the agent, and reports a broken line', () => {
    const text = `${claudeLog()}\n{"type":"user","sessionId":"sess-2"`;
    const { records, errors } = readClaudeCode(text, { tools: false, agent: 'cc-laptop' });
    const turns = records[0]!.value.turns as { role: string }[];
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'assistant']);
    expect(records[0]!.value.agent).toBe('cc-laptop');
    expect(errors).toEqual([expect.objectContaining({ ref: 'line 12', field: '(line)' })]);
  });
});
