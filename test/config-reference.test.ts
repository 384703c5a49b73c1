/**
 * docs/configuration.md is generated from the configuration schema (scripts/config-reference.ts,
 * then prettier); this test fails when a key, rule or default changed without regenerating it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { format } from 'prettier';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');

describe('configuration reference', () => {
  it('docs/configuration.md matches the schema (regenerate: npx tsx scripts/config-reference.ts > docs/configuration.md && npx prettier --write docs/configuration.md)', async () => {
    const generated = execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/config-reference.ts'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    const expected = await format(generated, { parser: 'markdown', filepath: 'configuration.md' });
    expect(readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8')).toBe(expected);
  });
});
