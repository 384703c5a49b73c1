/**
 * `engram sessions import|list|show|search|purge` through the built CLI, as users run them: a
 * Claude Code log and an engram JSONL file imported (dry run first, then for real, then again:
 * idempotent), human and --json output, a bad record failing alone with its line and field (exit
 * code PARTIAL), purge refused without --yes and then audited, memory search never returning a
 * turn, and `engram export` carrying the sessions.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { EXIT_CODES } from '../src/interfaces/error-codes.js';
import { runCli } from './cli-run.js';
import { tempDir } from './helpers.js';

const jsonl = (...lines: unknown[]) => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;

function setup() {
  const dir = tempDir();
  const config = join(dir, 'engram.yaml');
  writeFileSync(
    config,
    stringify({ store: { path: join(dir, 'engram.db') }, embedder: { provider: 'none' } }),
  );
  return { dir, cli: (args: string[]) => runCli(['--config', config, ...args]) };
}

/** A Claude Code log with two sessions. */
const CLAUDE_LOG = jsonl(
  { type: 'summary', summary: 'Flaky login test', leafUuid: 'a2' },
  {
    type: 'user',
    sessionId: 'sess-1',
    uuid: 'a1',
    timestamp: '2025-03-01T10:00:00Z',
    message: { role: 'user', content: 'The login test fails sometimes.' },
  },
  {
    type: 'assistant',
    sessionId: 'sess-1',
    uuid: 'a2',
    timestamp: '2025-03-01T10:00:04Z',
    message: {
      id: 'm1',
      role: 'assistant',
      content: [{ type: 'text', text: 'It waits on real timers; use fake timers.' }],
    },
  },
  {
    type: 'user',
    sessionId: 'sess-2',
    uuid: 'b1',
    timestamp: '2025-03-02T09:00:00Z',
    message: { role: 'user', content: 'Rename the payments module.' },
  },
);

describe('engram sessions (built CLI)', () => {
  it('imports, lists, shows, searches and purges sessions', async () => {
    const { dir, cli } = setup();
    const log = join(dir, 'claude.jsonl');
    writeFileSync(log, CLAUDE_LOG);

    const dry = await cli(['--json', 'sessions', 'import', log, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout).summary).toEqual({
      format: 'claude-code',
      dry_run: true,
      sessions: 2,
      created: 0,
      exists: 0,
      purged: 0,
      valid: 2,
      error: 0,
    });
    expect((await cli(['sessions', 'list'])).stdout).toContain('no sessions');

    const imported = await cli(['sessions', 'import', log]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toBe(
      'imported 2 sessions (claude-code): 2 created, 0 already present, 0 errors\n',
    );
    const again = await cli(['sessions', 'import', log]);
    expect(again.stdout).toContain('0 created, 2 already present, 0 errors');

    const listed = JSON.parse((await cli(['--json', 'sessions', 'list'])).stdout) as {
      sessions: { id: string; agent: string; title: string | null; turn_count: number }[];
    };
    expect(listed.sessions.map((s) => [s.id, s.agent, s.title, s.turn_count])).toEqual([
      ['sess-2', 'claude-code', null, 1],
      ['sess-1', 'claude-code', 'Flaky login test', 2],
    ]);
    const table = (await cli(['sessions', 'list', '--limit', '1'])).stdout;
    expect(table).toMatch(/sess-2.*2025-03-02 09:00:00Z.*claude-code/u);
    expect(table).toContain('more: --cursor ');

    const shown = await cli(['sessions', 'show', 'sess-1']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('title    Flaky login test');
    expect(shown.stdout).toContain(
      '[1] assistant · 2025-03-01 10:00:04Z\nIt waits on real timers; use fake timers.',
    );
    const json = JSON.parse((await cli(['--json', 'sessions', 'show', 'sess-1'])).stdout);
    expect(json).toMatchObject({ id: 'sess-1', source: { tool: 'claude-code', file: log } });
    const missing = await cli(['sessions', 'show', 'sess-9']);
    expect(missing.code).toBe(EXIT_CODES.NOT_FOUND);

    const found = await cli(['sessions', 'search', 'fake', 'timers']);
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toMatch(/^1\. session sess-1 "Flaky login test" turn 1 \(assistant/u);
    expect(found.stdout).toContain('**timers**');
    const hits = JSON.parse((await cli(['--json', 'sessions', 'search', 'payments'])).stdout);
    expect(hits.hits.map((h: { session_id: string }) => h.session_id)).toEqual(['sess-2']);

    // Memory search never returns a turn; session search never returns a memory.
    expect((await cli(['remember', 'The payments module is owned by Dana.'])).code).toBe(0);
    const memories = JSON.parse((await cli(['--json', 'search', 'payments module'])).stdout);
    expect(memories.hits.map((h: { body: string }) => h.body)).toEqual([
      'The payments module is owned by Dana.',
    ]);
    const turns = JSON.parse((await cli(['--json', 'sessions', 'search', 'payments'])).stdout);
    expect(turns.hits).toHaveLength(1);

    const refused = await cli(['sessions', 'purge', 'sess-2']);
    expect(refused.code).toBe(EXIT_CODES.INVALID_INPUT);
    expect(refused.stderr).toContain('add --yes');
    const purged = await cli([
      '--json',
      'sessions',
      'purge',
      'sess-2',
      '--yes',
      '--reason',
      'gdpr',
    ]);
    expect(purged.code, purged.stderr).toBe(0);
    expect(JSON.parse(purged.stdout)).toMatchObject({
      id: 'sess-2',
      purged: true,
      audit: { reason: 'gdpr', space: 'default' },
    });
    const after = await cli(['sessions', 'import', log]);
    expect(after.stdout).toContain(
      '0 created, 1 already present, 1 purged before (not stored again), 0 errors',
    );

    const exported = (await cli(['export'])).stdout.trim().split('\n');
    const types = exported.map((l) => (JSON.parse(l) as { type: string }).type);
    expect(types.filter((t) => t.startsWith('session'))).toEqual(['session', 'session_purge']);
  });

  it('fails a bad record alone, naming its line and field, with exit code PARTIAL', async () => {
    const { dir, cli } = setup();
    const file = join(dir, 'sessions.jsonl');
    writeFileSync(
      file,
      jsonl(
        { id: 'ok-1', turns: [{ role: 'user', text: 'first' }] },
        { id: 'bad-1', turns: [{ role: 'robot', text: 'second' }] },
        { session: 'ok-2', role: 'user', text: 'a turn line' },
      ),
    );
    const result = await cli(['sessions', 'import', file, '--agent', 'bot']);
    expect(result.code).toBe(EXIT_CODES.PARTIAL);
    expect(result.stderr).toBe(
      'engram: line 2: turns[0].role: must be one of user, assistant, system, tool\n',
    );
    expect(result.stdout).toContain('2 created, 0 already present, 1 errors');
    const listed = JSON.parse((await cli(['--json', 'sessions', 'list', '--agent', 'bot'])).stdout);
    expect(listed.sessions.map((s: { id: string }) => s.id).sort()).toEqual(['ok-1', 'ok-2']);
    const json = await cli(['--json', 'sessions', 'import', file]);
    const report = JSON.parse(json.stdout) as { results: { ref: string; ok: boolean }[] };
    expect(report.results.map((r) => [r.ref, r.ok])).toEqual([
      ['line 1', true],
      ['line 2', false],
      ['line 3', true],
    ]);
    const missing = await cli(['sessions', 'import', join(dir, 'nope.jsonl')]);
    expect(missing.code).toBe(EXIT_CODES.INVALID_INPUT);
  });
});
