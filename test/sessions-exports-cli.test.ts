/**
 * `engram sessions import` of chat apps' data exports through the built CLI, as users run it on
 * the `conversations.json` of a ChatGPT or Claude.ai export: detected without `--format`, stored
 * as sessions with their ids (a re-import finds them all), the agent overridable, a malformed
 * conversation failing alone with its index, id and field (exit code PARTIAL), and no memory made.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { EXIT_CODES } from '../src/interfaces/error-codes.js';
import { runCli } from './cli-run.js';
import { tempDir } from './helpers.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'transcripts');
const CHATGPT_FILE = join(FIXTURES, 'chatgpt-conversations.json');
const CLAUDE_FILE = join(FIXTURES, 'claude-conversations.json');

function setup() {
  const dir = tempDir();
  const config = join(dir, 'engram.yaml');
  writeFileSync(
    config,
    stringify({ store: { path: join(dir, 'engram.db') }, embedder: { provider: 'none' } }),
  );
  return { dir, cli: (args: string[]) => runCli(['--config', config, ...args]) };
}

describe('engram sessions import of app exports (built CLI)', () => {
  it('imports ChatGPT and Claude.ai exports as sessions, idempotently, never as memories', async () => {
    const { dir, cli } = setup();
    const chatgpt = await cli(['sessions', 'import', CHATGPT_FILE]);
    expect(chatgpt.code, chatgpt.stderr).toBe(0);
    expect(chatgpt.stdout).toBe(
      'imported 2 sessions (chatgpt): 2 created, 0 already present, 0 errors\n',
    );
    const claude = await cli([
      '--json',
      'sessions',
      'import',
      CLAUDE_FILE,
      '--format',
      'claude',
      '--agent',
      'claude-home',
    ]);
    expect(claude.code, claude.stderr).toBe(0);
    expect(JSON.parse(claude.stdout).summary).toMatchObject({
      format: 'claude',
      sessions: 2,
      created: 2,
      error: 0,
    });
    const again = await cli(['sessions', 'import', CHATGPT_FILE]);
    expect(again.stdout).toContain('0 created, 2 already present, 0 errors');

    const listed = JSON.parse((await cli(['--json', 'sessions', 'list'])).stdout) as {
      sessions: { id: string; agent: string; title: string | null; turn_count: number }[];
    };
    expect(listed.sessions.map((s) => [s.agent, s.title, s.turn_count])).toEqual([
      ['claude-home', 'Bike chain', 2],
      ['claude-home', 'Watering the tomato beds', 6],
      ['chatgpt', 'Sourdough starter', 2],
      ['chatgpt', 'Three days in Lisbon', 6],
    ]);
    const shown = await cli(['sessions', 'show', '6a1f0c2e-0000-4000-8000-00000000c001']);
    expect(shown.stdout).toContain('Take tram 28 to Portas do Sol, then walk up.');
    expect(shown.stdout).not.toContain('regenerated away');
    const memories = JSON.parse((await cli(['--json', 'list'])).stdout) as { items: unknown[] };
    expect(memories.items).toEqual([]);

    // A malformed conversation fails alone; the others are stored.
    const broken = join(dir, 'conversations.json');
    const list = [
      { id: 'broken-1', title: 'Broken', mapping: [] },
      {
        id: 'fine-1',
        title: 'Fine',
        current_node: 'u',
        mapping: {
          u: {
            id: 'u',
            parent: null,
            children: [],
            message: {
              author: { role: 'user' },
              create_time: 1717232401,
              content: { content_type: 'text', parts: ['A fine question.'] },
            },
          },
        },
      },
    ];
    writeFileSync(broken, JSON.stringify(list));
    const partial = await cli(['sessions', 'import', broken]);
    expect(partial.code).toBe(EXIT_CODES.PARTIAL);
    expect(partial.stderr).toBe(
      'engram: conversations[0] (id broken-1): mapping: must be an object of message nodes\n',
    );
    expect(partial.stdout).toBe(
      'imported 2 sessions (chatgpt): 1 created, 0 already present, 1 errors\n',
    );
  });
});
