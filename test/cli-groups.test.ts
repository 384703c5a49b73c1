/**
 * Command groups given no subcommand (`engram models`, `graph`, `jobs`...) through the built CLI:
 * each prints its status (what its status subcommand prints), then a line naming its subcommands,
 * and exits 0; with --json it prints the status subcommand's JSON alone. A word that is none of a
 * group's subcommands is a usage error naming them, and a group never creates a store.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { buildProgram } from '../src/interfaces/cli/program.js';
import { EXIT_CODES } from '../src/interfaces/error-codes.js';
import { testCacheDir } from './cache-dir.js';
import { runCli } from './cli-run.js';
import { tempDir } from './helpers.js';

/** Spawns of the built CLI, each a few hundred ms alone, take seconds on a loaded machine. */
const BUDGET = 120_000;

/**
 * Each group, and the subcommand (with its arguments) whose output its status is; null for a group
 * whose status is its own listing (`jobs` and `areas` had one before, with options of their own).
 */
const GROUPS: [group: string, status: string[] | null][] = [
  ['models', ['models', 'status']],
  ['embedder', ['embedder', 'status']],
  ['graph', ['graph', 'stats']],
  ['auto-recall', ['auto-recall', 'stats']],
  ['hook', ['auto-recall', 'stats']],
  ['dormant', ['dormant', 'review', '--limit', '5']],
  ['dream', ['dream', 'runs', '--limit', '5']],
  ['sessions', ['sessions', 'list', '--limit', '10']],
  ['jobs', null],
  ['areas', null],
];

/** The hint line of a group: its subcommands, as the command tree has them. */
function hint(group: string): string {
  const command = buildProgram().commands.find((c) => c.name() === group)!;
  const names = command.commands.map((c) => c.name()).filter((n) => n !== 'help');
  return `engram ${group} <command>: ${names.join(', ')} (--help on any)`;
}

let cli: (args: string[]) => ReturnType<typeof runCli>;

// One store for the whole file (tempDir() of helpers.ts is removed after each test).
const dir = mkdtempSync(join(tmpdir(), 'engram-groups-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const config = join(dir, 'engram.yaml');
  writeFileSync(
    config,
    stringify({ store: { path: join(dir, 'engram.db') }, embedder: { cache_dir: testCacheDir() } }),
  );
  cli = (args) => runCli(['--config', config, ...args]);
  const r = await cli(['remember', 'Alex moved the billing service to Lisbon', '--area', 'ops']);
  expect(r.code, r.stderr).toBe(0);
}, BUDGET);

describe('a group given no subcommand prints its status', () => {
  it('the command table gives every group a status', () => {
    const groups = buildProgram().commands.filter((c) => c.commands.length > 0);
    expect(groups.map((c) => c.name()).sort()).toEqual(GROUPS.map(([g]) => g).sort());
  });

  it.each(GROUPS)(
    '%s: the status, then its subcommands; exit 0',
    async (group, status) => {
      const alone = await cli([group]);
      expect(alone.code, alone.stderr).toBe(0);
      expect(alone.stdout.endsWith(`\n\n${hint(group)}\n`)).toBe(true);
      const json = await cli(['--json', group]);
      expect(json.code, json.stderr).toBe(0);
      expect(() => JSON.parse(json.stdout)).not.toThrow();
      if (status === null) return;
      const expected = await cli(status);
      expect(expected.code, expected.stderr).toBe(0);
      expect(alone.stdout).toBe(`${expected.stdout}\n${hint(group)}\n`);
      const expectedJson = await cli(['--json', ...status]);
      // The same JSON as the status subcommand, and nothing else (times aside).
      const stable = (text: string) => text.replace(/"(age_ms|ms|duration_ms)": \d+/g, '"$1": 0');
      expect(stable(json.stdout)).toBe(stable(expectedJson.stdout));
    },
    BUDGET,
  );
});

describe('a group given an unknown word', () => {
  it(
    'is a usage error naming its commands, for groups with and without a status of their own',
    async () => {
      for (const group of ['models', 'jobs']) {
        const r = await cli([group, 'statuss']);
        expect(r.code).toBe(EXIT_CODES.USAGE);
        expect(r.stderr).toContain(
          `unknown command 'statuss' for 'engram ${group}' (its commands: `,
        );
        expect(r.stdout).toBe('');
      }
    },
    BUDGET,
  );

  it(
    'never creates a store: a group in a folder without one exits 6',
    async () => {
      const dir = tempDir();
      const r = await runCli(['graph'], { cwd: dir, env: { HOME: dir } });
      expect(r.code).toBe(EXIT_CODES.STORE_UNAVAILABLE);
      expect(r.stderr).toContain('no store at');
      expect(existsSync(join(dir, '.local'))).toBe(false);
    },
    BUDGET,
  );
});
