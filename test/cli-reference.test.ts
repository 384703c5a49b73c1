/**
 * docs/cli.md is generated from the CLI's command table (scripts/cli-reference.ts, then
 * prettier); this test fails when a command, argument, option, choice or default changed without
 * regenerating it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { format } from 'prettier';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

describe('CLI reference', () => {
  it('docs/cli.md matches the command table (regenerate: npx tsx scripts/cli-reference.ts > docs/cli.md && npx prettier --write docs/cli.md)', async () => {
    const generated = execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/cli-reference.ts'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    const expected = await format(generated, { parser: 'markdown', filepath: 'cli.md' });
    expect(readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8')).toBe(expected);
  });

  it('lists every leaf command with its help pointer', () => {
    const text = readFileSync(join(ROOT, 'docs', 'cli.md'), 'utf8');
    expect(text).toContain('### engram models use \\<model>');
    expect(text).toContain('Help: `engram models use --help`');
    expect(text).toContain('## engram graph');
  });
});
