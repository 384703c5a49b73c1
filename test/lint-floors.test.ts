// The floors of src/ are enforced by the lint rule of record: an upward or sideways import fails
// `npm run lint`, a downward one passes. The rule runs through ESLint with the project's config.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

import { FLOORS, floorViolation } from '../scripts/lint/floors.js';

const root = join(import.meta.dirname, '..');
const fixture = readFileSync(join(root, 'test/fixtures/lint/upward-import.ts.fixture'), 'utf8');

/** The `engram/floors` messages ESLint reports for `code` placed at `path` (relative to root). */
async function floorErrors(code: string, path: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return result!.messages.filter((m) => m.ruleId === 'engram/floors').map((m) => m.message);
}

describe('the floors lint rule', () => {
  it('fails an upward import from the ground floor', async () => {
    const errors = await floorErrors(fixture, 'src/domain/upward-import.ts');
    expect(errors).toEqual([
      'src/domain (floor 0) may not import src/service (floor 7): imports run downward only',
    ]);
  });

  it('fails an import of a sibling capability on the same floor', async () => {
    const code =
      "import { Lifecycle } from '../lifecycle/lifecycle.js';\nexport const x = Lifecycle;\n";
    const errors = await floorErrors(code, 'src/dormant/sideways.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/share floor 5/);
  });

  it('passes the same import from a floor above, and imports within one folder', async () => {
    expect(await floorErrors(fixture, 'src/interfaces/fixture.ts')).toEqual([]);
    const local = "import { newId } from './ids.js';\nexport const x = newId;\n";
    expect(await floorErrors(local, 'src/domain/fixture.ts')).toEqual([]);
  });

  it('gives every top-level entry of src/ a floor', async () => {
    const { readdirSync } = await import('node:fs');
    const entries = readdirSync(join(root, 'src')).filter((e) => !e.endsWith('.test.ts'));
    expect(entries.filter((e) => !(e in FLOORS))).toEqual([]);
    expect(floorViolation('domain', 'domain')).toBeNull();
  });
});
