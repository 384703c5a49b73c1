/**
 * The CLI loads only what a command uses. `--version` and `--help` load neither the service nor a
 * heavy library; `search` and `remember` on SQLite load no PostgreSQL driver, HTTP framework or
 * MCP SDK, and `search` does not load the language model. Proved on the built CLI by the modules
 * its process loads or, inside the bundled CLI, runs (test/cli-trace.ts), never by timing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { runCli } from './cli-run.js';
import { traceCli } from './cli-trace.js';
import { tempDir } from './helpers.js';

/** Modules a short command must not load, by what they are. */
const HEAVY = {
  service: /\/dist\/app\.js$/,
  'language model': /\/dist\/(graph|autorecall)\/nlp\.js$|\/node_modules\/wink-/,
  hnswlib: /\/node_modules\/hnswlib-node\//,
  'PostgreSQL driver': /\/node_modules\/(pg|pg-[a-z-]+|pgpass|pgvector)\//,
  'HTTP framework': /\/node_modules\/(hono|@hono\/[^/]+)\//,
  'MCP SDK': /\/node_modules\/@modelcontextprotocol\//,
} as const;

/**
 * The language model itself (the wrapper modules load with the service; the model does not): the
 * library, or any of the model's parts (its core is read from JSON by graph/english-model.ts, beside
 * the parts it requires). The stemmer of the same package is not the model.
 */
const MODEL = /\/node_modules\/(wink-nlp\/|wink-eng-lite-web-model\/dist\/(?!porter-stemmer\.js$))/;

/** The loaded modules matching each of the named kinds. */
function loaded(modules: string[], kinds: (keyof typeof HEAVY)[]): Record<string, string[]> {
  return Object.fromEntries(kinds.map((k) => [k, modules.filter((m) => HEAVY[k].test(m))]));
}

const NONE_OF = (kinds: (keyof typeof HEAVY)[]) => Object.fromEntries(kinds.map((k) => [k, []]));
const ALL = Object.keys(HEAVY) as (keyof typeof HEAVY)[];
const BACKENDS_AND_INTERFACES: (keyof typeof HEAVY)[] = [
  'PostgreSQL driver',
  'HTTP framework',
  'MCP SDK',
];

describe('engram CLI loads lazily (built binary, traced)', () => {
  it('prints --version and --help without loading the service or any heavy library', async () => {
    const dir = tempDir();
    const version = await traceCli(dir, ['--version']);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout).toBe('0.1.0\n');
    // The tracer works: it saw the CLI's command table and its command parser.
    expect(version.modules.some((m) => m.endsWith('/dist/interfaces/cli/program.js'))).toBe(true);
    expect(version.modules.some((m) => m.includes('/node_modules/commander/'))).toBe(true);
    expect(loaded(version.modules, ALL)).toEqual(NONE_OF(ALL));

    for (const args of [['--help'], ['search', '--help'], ['graph', 'neighbors', '--help']]) {
      const help = await traceCli(dir, args);
      expect(help.code, args.join(' ')).toBe(0);
      expect(help.stdout).toContain('Usage: engram');
      expect(loaded(help.modules, ALL), args.join(' ')).toEqual(NONE_OF(ALL));
    }
  });

  it('runs search and remember on SQLite without the PostgreSQL driver, HTTP or MCP', async () => {
    const dir = tempDir();
    const config = join(dir, 'engram.yaml');
    writeFileSync(config, `store:\n  path: ${join(dir, 'engram.db')}\n`);
    const seeded = await runCli(['--config', config, 'remember', 'Alice Johnson leads Phoenix']);
    expect(seeded.code, seeded.stderr).toBe(0);

    const search = await traceCli(dir, [
      '--config',
      config,
      '--json',
      'search',
      'who leads Phoenix',
    ]);
    expect(search.code, search.stderr).toBe(0);
    expect(JSON.parse(search.stdout).hits).toHaveLength(1);
    // The tracer works: the service and the SQLite driver were loaded.
    expect(search.modules.some((m) => HEAVY.service.test(m))).toBe(true);
    expect(search.modules.some((m) => m.includes('/node_modules/better-sqlite3/'))).toBe(true);
    expect(loaded(search.modules, BACKENDS_AND_INTERFACES)).toEqual(
      NONE_OF(BACKENDS_AND_INTERFACES),
    );
    // A search reads the graph by the query's words; it never needs the language model.
    expect(search.modules.filter((m) => MODEL.test(m))).toEqual([]);

    const remember = await traceCli(dir, ['--config', config, 'remember', 'Bob runs billing']);
    expect(remember.code, remember.stderr).toBe(0);
    expect(remember.modules.some((m) => HEAVY.service.test(m))).toBe(true);
    expect(loaded(remember.modules, BACKENDS_AND_INTERFACES)).toEqual(
      NONE_OF(BACKENDS_AND_INTERFACES),
    );
  });

  it('answers a user-prompt hook with the language model loaded in a worker thread, never the main one', async () => {
    const dir = tempDir();
    const config = join(dir, 'engram.yaml');
    writeFileSync(
      config,
      `store:\n  path: ${join(dir, 'engram.db')}\nauto_recall:\n  enabled: true\n`,
    );
    const seeded = await runCli([
      '--config',
      config,
      'remember',
      'The billing service deploys from the release branch every Friday',
    ]);
    expect(seeded.code, seeded.stderr).toBe(0);
    const event = JSON.stringify({
      session_id: 'lazy-hook',
      hook_event_name: 'UserPromptSubmit',
      prompt: 'How does the billing service deploy?',
    });
    const hook = await traceCli(dir, ['--config', config, 'hook', 'user-prompt'], {}, event);
    expect(hook.code, hook.stderr).toBe(0);
    // The prompt was analysed (a question about the billing service) and answered...
    expect(hook.stdout).toContain('release branch');
    expect(hook.modules.some((m) => HEAVY.service.test(m))).toBe(true);
    // ...with no part of the model in the main thread: the entry's parse thread parsed it.
    expect(hook.modules.filter((m) => MODEL.test(m))).toEqual([]);
  });
});
