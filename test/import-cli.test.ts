/**
 * `engram import --from FORMAT PATH` through the built CLI, as users run it: a dry run that
 * creates no store, the import with its progress and summary line, the re-run that creates
 * nothing, --json result lines and summary, a malformed file (exit code PARTIAL, each record named
 * on stderr), a missing path (exit code of INVALID_INPUT), and a ChatGPT export routed to sessions.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { EXIT_CODES } from '../src/interfaces/error-codes.js';
import { runCli } from './cli-run.js';
import { tempDir } from './helpers.js';
import { fixture } from './import-helpers.js';

function setup() {
  const dir = tempDir();
  const config = join(dir, 'engram.yaml');
  const store = join(dir, 'engram.db');
  writeFileSync(config, stringify({ store: { path: store }, embedder: { provider: 'none' } }));
  return { dir, store, cli: (args: string[]) => runCli(['--config', config, ...args]) };
}

const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('engram import --from (built CLI)', () => {
  it('dry-runs without a store, imports with progress and a summary, and re-runs idempotently', async () => {
    const { store, cli } = setup();
    const notes = fixture('markdown');

    const dry = await cli(['import', '--from', 'markdown', notes, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(EXIT_CODES.OK);
    expect(dry.stdout).toBe(
      'checked 4 records from markdown (dry run, nothing written): 3 valid, 1 skipped, 0 errors; relations: 5 valid, 1 unresolved\n',
    );
    expect(dry.stderr).toContain('engram: empty.md: skipped: empty note');
    expect(existsSync(store)).toBe(false);

    const first = await cli(['import', '--from', 'markdown', notes]);
    expect(first.code, first.stderr).toBe(EXIT_CODES.OK);
    expect(first.stdout).toBe(
      'imported 4 records from markdown: 3 created, 0 duplicates, 0 already present, 0 updated, 1 skipped, 0 errors; relations: 5 created, 0 already present, 1 unresolved\n',
    );
    expect(first.stderr).toContain('engram import --from markdown: 100%');
    expect(first.stderr).toContain(
      'engram: projects/ledgerline.md: note: link [[Northwind Bank]] matches no note: left out',
    );

    const again = await cli(['--json', 'import', '--from', 'markdown', notes]);
    expect(again.code, again.stderr).toBe(EXIT_CODES.OK);
    const lines = jsonLines(again.stdout);
    expect(lines.at(-1)).toEqual({
      summary: {
        format: 'markdown',
        dry_run: false,
        records: 4,
        created: 0,
        duplicate: 0,
        exists: 3,
        updated: 0,
        valid: 0,
        skipped: 1,
        error: 0,
        warned: 1,
        relations: { valid: 5, created: 0, exists: 5, unresolved: 1, error: 0 },
      },
    });
    expect(lines.slice(0, -1).map((l) => [l.record, l.status])).toEqual([
      ['empty.md', 'skipped'],
      ['index.md', 'exists'],
      ['projects/ledgerline.md', 'exists'],
      ['runbooks/Payments Runbook.md', 'exists'],
    ]);

    const list = await cli(['--json', 'list']);
    expect(list.code, list.stderr).toBe(EXIT_CODES.OK);
    expect(list.stdout).toContain('Payments Runbook');
  });

  it('imports what it can of a malformed file, names each bad record, and exits PARTIAL', async () => {
    const { cli } = setup();
    const out = await cli(['import', '--from', 'mcp-memory', fixture('mcp-memory-bad.jsonl')]);
    expect(out.code).toBe(EXIT_CODES.PARTIAL);
    expect(out.stdout).toBe(
      'imported 9 records from mcp-memory: 2 created, 0 duplicates, 0 already present, 0 updated, 0 skipped, 7 errors\n',
    );
    expect(out.stderr).toContain(
      'engram: line 1 observations[1]: observations[1]: must be a string',
    );
    expect(out.stderr).toContain('engram: line 3: relationType: must be a string');

    const mem0 = await cli([
      '--json',
      'import',
      '--from',
      'mem0',
      fixture('mem0-bad.json'),
      '--dry-run',
    ]);
    expect(mem0.code).toBe(EXIT_CODES.PARTIAL);
    const results = jsonLines(mem0.stdout);
    expect(results.filter((r) => r.status === 'error').map((r) => r.record)).toEqual([
      'entry 2 (id m-2)',
      'entry 3 (id m-3)',
      'entry 4 (id m-4)',
      'entry 5',
      'entry 6 (id m-1)',
    ]);
    expect(results.at(-1)).toMatchObject({ summary: { dry_run: true, valid: 1, error: 5 } });
  });

  it('refuses a missing path and --dry-run without --from', async () => {
    const { dir, cli } = setup();
    const missing = await cli(['import', '--from', 'mem0', join(dir, 'nope.json')]);
    expect(missing.code).toBe(EXIT_CODES.INVALID_INPUT);
    expect(missing.stderr).toContain('does not exist or is not a file');
    const jsonl = join(dir, 'notes.jsonl');
    writeFileSync(jsonl, '{"body": "x"}\n');
    const dry = await cli(['import', jsonl, '--dry-run']);
    expect(dry.code).toBe(EXIT_CODES.INVALID_INPUT);
    expect(dry.stderr).toContain('--dry-run: needs --from FORMAT');
  });

  it('takes a ChatGPT export as sessions, as `sessions import --format chatgpt` does', async () => {
    const { dir, cli } = setup();
    const file = join(dir, 'conversations.json');
    const node = (id: string, parent: string | null, role: string | null, text: string) => ({
      id,
      parent,
      children: [],
      message: role && {
        id,
        author: { role },
        create_time: 1_717_000_000,
        content: { content_type: 'text', parts: [text] },
      },
    });
    writeFileSync(
      file,
      JSON.stringify([
        {
          id: 'conv-1',
          title: 'Payout schedule',
          create_time: 1_717_000_000,
          current_node: 'b',
          mapping: {
            root: node('root', null, null, ''),
            a: node('a', 'root', 'user', 'When do payouts run?'),
            b: node('b', 'a', 'assistant', 'Every night at two.'),
          },
        },
      ]),
    );
    const out = await cli(['--json', 'import', '--from', 'chatgpt', file, '--dry-run']);
    expect(out.code, out.stderr).toBe(EXIT_CODES.OK);
    expect(JSON.parse(out.stdout).summary).toMatchObject({
      format: 'chatgpt',
      dry_run: true,
      sessions: 1,
      valid: 1,
      error: 0,
    });
  });
});
