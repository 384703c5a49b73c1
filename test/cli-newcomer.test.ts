/**
 * The first hour with engram, through the built CLI: `npm test` says once how to run the
 * PostgreSQL tests it skips; the CLI finds the `./engram.yaml` that `engram init` writes (after
 * --config and $ENGRAM_CONFIG, before the defaults; the library does not look there); reading
 * commands refuse a store that does not exist instead of creating an empty one, while writing
 * commands still create it; and a body piped on stdin loses the newline the pipe adds. Every run
 * has its own directory, working directory and HOME.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { EXIT_CODES } from '../src/interfaces/error-codes.js';
import { testCacheDir } from './cache-dir.js';
import { runCli } from './cli-run.js';
import { tempDir } from './helpers.js';
import { closedPort } from './postgres-helpers.js';
import { PG_START_COMMAND, postgresNotice } from './postgres-notice.js';

const ROOT = resolve(import.meta.dirname, '..');

/** A fresh working directory and HOME; `cli` runs the built CLI there. */
function sandbox() {
  const dir = tempDir();
  const home = join(dir, 'home');
  const work = join(dir, 'work');
  mkdirSync(home);
  mkdirSync(work);
  const defaultStore = join(home, '.local', 'share', 'engram', 'engram.db');
  const cli = (
    args: string[],
    options: { input?: string; env?: Record<string, string>; cwd?: string } = {},
  ) =>
    runCli(args, {
      cwd: options.cwd ?? work,
      input: options.input,
      env: { HOME: home, ...options.env },
    });
  /** A configuration file for a store at `store` (which need not exist). */
  const config = (name: string, store: string) => {
    const file = join(dir, name);
    writeFileSync(file, stringify({ store: { path: store } }));
    return file;
  };
  return { dir, home, work, defaultStore, cli, config };
}

const memoryOf = (stdout: string) =>
  (JSON.parse(stdout) as { memory: { id: string; body: string } }).memory;

describe('npm test: the PostgreSQL tests it skips', () => {
  it('prints one line naming ENGRAM_TEST_PG_URL and the command that sets it', () => {
    const notice = postgresNotice({});
    expect(notice).toContain('PostgreSQL tests skipped');
    expect(notice).toContain('ENGRAM_TEST_PG_URL');
    expect(notice).toContain(PG_START_COMMAND);
    expect(notice).not.toContain('\n');
    expect(postgresNotice({ ENGRAM_TEST_PG_URL: 'postgres://u:p@127.0.0.1:1/db' })).toBeUndefined();
    // The global setup (run once per `npm test`) prints it.
    const setup = readFileSync(join(ROOT, 'test', 'global-setup.ts'), 'utf8');
    expect(setup).toMatch(/const notice = postgresNotice\(process\.env\);\s+if \(notice\)/);
  });

  it('describes what scripts/ci/postgres.sh start prints, as the README does', () => {
    // `eval` works because `start` prints only `export` lines on stdout.
    const script = readFileSync(join(ROOT, 'scripts', 'ci', 'postgres.sh'), 'utf8');
    expect(script).toContain('printf \'export ENGRAM_TEST_PG_URL=%q\\n\' "$PG_URL"');
    expect(script).toMatch(/^ {2}start\) start ;;$/m);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain(`\`${PG_START_COMMAND}\``);
    expect(readme).toContain('ENGRAM_TEST_PG_URL');
  });
});

describe('the CLI finds ./engram.yaml', () => {
  it('init, then remember and list in the same folder use the store init wrote', async () => {
    const { work, defaultStore, cli } = sandbox();
    const init = await cli(['init']);
    expect(init.code, init.stderr).toBe(0);
    expect(init.stdout).toContain(`wrote ${join(work, 'engram.yaml')}\n`);
    expect(init.stdout).toContain('next: engram remember "..."\n');
    const remembered = await cli(['--json', 'remember', 'Alex prefers TypeScript']);
    expect(remembered.code, remembered.stderr).toBe(0);
    const listed = await cli(['--json', 'list']);
    expect(listed.code, listed.stderr).toBe(0);
    const items = (JSON.parse(listed.stdout) as { items: { id: string }[] }).items;
    expect(items.map((i) => i.id)).toEqual([memoryOf(remembered.stdout).id]);
    const status = JSON.parse((await cli(['--json', 'status'])).stdout) as {
      store: { location: string };
    };
    expect(status.store.location).toBe(join(work, 'engram.db'));
    expect(existsSync(defaultStore)).toBe(false);
  });

  it('reads --config, then $ENGRAM_CONFIG, then ./engram.yaml, then the defaults', async () => {
    const { dir, work, defaultStore, cli, config } = sandbox();
    const local = join(dir, 'local.db');
    writeFileSync(join(work, 'engram.yaml'), stringify({ store: { path: local } }));
    const flagged = join(dir, 'flag.db');
    const fromEnv = join(dir, 'env.db');
    const flagConfig = config('flag.yaml', flagged);
    const envConfig = config('env.yaml', fromEnv);
    const env = { ENGRAM_CONFIG: envConfig };

    expect((await cli(['--config', flagConfig, 'remember', 'one'], { env })).code).toBe(0);
    expect([existsSync(flagged), existsSync(fromEnv), existsSync(local)]).toEqual([
      true,
      false,
      false,
    ]);
    expect((await cli(['remember', 'two'], { env })).code).toBe(0);
    expect([existsSync(fromEnv), existsSync(local)]).toEqual([true, false]);
    expect((await cli(['remember', 'three'])).code).toBe(0);
    expect(existsSync(local)).toBe(true);
    expect(existsSync(defaultStore)).toBe(false);
    // Elsewhere (no engram.yaml there): the built-in defaults, under HOME.
    expect((await cli(['remember', 'four'], { cwd: dir })).code).toBe(0);
    expect(existsSync(defaultStore)).toBe(true);
  });

  it('init keeps --config in its hint when $ENGRAM_CONFIG names another file', async () => {
    const { dir, work, cli, config } = sandbox();
    const other = config('other.yaml', join(dir, 'other.db'));
    const init = await cli(['init'], { env: { ENGRAM_CONFIG: other } });
    expect(init.code, init.stderr).toBe(0);
    const file = join(work, 'engram.yaml');
    expect(init.stdout).toContain(`next: engram --config ${file} remember "..."\n`);
  });

  it('leaves the library alone: createEngram without a file ignores ./engram.yaml', () => {
    const { work, home, defaultStore } = sandbox();
    writeFileSync(join(work, 'engram.yaml'), stringify({ store: { path: './here.db' } }));
    const app = join(ROOT, 'dist', 'app.js');
    const script = `const { createEngram } = await import(${JSON.stringify(app)});
const engram = createEngram({ background: false });
process.stdout.write(engram.config.store.path);
await engram.close();`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: work,
      env: { PATH: process.env.PATH ?? '', HOME: home, ENGRAM_EMBEDDER_CACHE_DIR: testCacheDir() },
      encoding: 'utf8',
    });
    expect(out).toBe(defaultStore);
    expect(existsSync(join(work, 'here.db'))).toBe(false);
  });
});

/** Every command that only reads, with arguments it accepts. */
const READING: string[][] = [
  ['status'],
  ['list'],
  ['search', 'billing'],
  ['get', '01J00000000000000000000000'],
  ['history', '01J00000000000000000000000'],
  ['export'],
  ['sessions', 'list'],
  ['sessions', 'show', 'sess-1'],
  ['sessions', 'search', 'login'],
  ['models', 'status'],
  ['embedder', 'status'],
  ['jobs'],
  ['jobs', '--state', 'failed'],
  ['jobs', 'show', '01J00000000000000000000000'],
  ['graph', 'stats'],
  ['graph', 'neighbors', 'Alex'],
  ['graph', 'entities'],
  ['graph', 'hubs'],
  ['auto-recall', 'analyze', 'what does Alex like?'],
  ['auto-recall', 'stats'],
  ['dormant', 'review'],
  ['dormant', 'calibrate'],
  ['review'],
  ['maintain', '--dry-run'],
];

describe('reading commands refuse a store that does not exist', () => {
  it('every reading command exits 6 naming the path, and creates nothing', async () => {
    const { dir, cli, config } = sandbox();
    const store = join(dir, 'missing', 'engram.db');
    const file = config('engram.yaml', store);
    for (const args of READING) {
      const r = await cli(['--config', file, ...args]);
      expect({ args, code: r.code, stderr: r.stderr, stdout: r.stdout }).toEqual({
        args,
        code: EXIT_CODES.STORE_UNAVAILABLE,
        stderr: `engram: no store at ${store}: run \`engram init\` or give --config\n`,
        stdout: '',
      });
    }
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('answers in JSON with --json, and refuses the default store and ENGRAM_STORE_PATH too', async () => {
    const { dir, defaultStore, cli, config } = sandbox();
    const store = join(dir, 'nope.db');
    const json = await cli(['--config', config('engram.yaml', store), '--json', 'status']);
    expect(json.code).toBe(EXIT_CODES.STORE_UNAVAILABLE);
    expect(JSON.parse(json.stderr)).toEqual({
      error: {
        code: 'STORE_UNAVAILABLE',
        message: `no store at ${store}: run \`engram init\` or give --config`,
        details: { field: 'store.path', rule: 'existing store' },
      },
    });
    const fresh = await cli(['list']);
    expect(fresh.code).toBe(EXIT_CODES.STORE_UNAVAILABLE);
    expect(fresh.stderr).toContain(`no store at ${defaultStore}:`);
    const byEnv = await cli(['search', 'x'], { env: { ENGRAM_STORE_PATH: store } });
    expect(byEnv.code).toBe(EXIT_CODES.STORE_UNAVAILABLE);
    expect(existsSync(defaultStore) || existsSync(store)).toBe(false);
    // An in-memory store is always there.
    const memory = await cli(['--config', config('memory.yaml', ':memory:'), 'status']);
    expect(memory.code, memory.stderr).toBe(0);
  });

  it('writing commands still create the store; reading it works afterwards', async () => {
    const { dir, cli, config } = sandbox();
    const notes = join(dir, 'notes.jsonl');
    writeFileSync(notes, `${JSON.stringify({ body: 'Billing ships on Tuesdays' })}\n`);
    const transcript = join(dir, 'chat.jsonl');
    writeFileSync(
      transcript,
      `${JSON.stringify({ id: 'sess-1', turns: [{ role: 'user', text: 'the login test fails' }] })}\n`,
    );
    const writes: [string, string[]][] = [
      ['remember', ['remember', 'Alex prefers TypeScript']],
      ['import', ['import', notes]],
      ['sessions-import', ['sessions', 'import', transcript]],
    ];
    for (const [name, args] of writes) {
      const store = join(dir, `${name}.db`);
      const file = config(`${name}.yaml`, store);
      const wrote = await cli(['--config', file, ...args]);
      expect(wrote.code, `${name}: ${wrote.stderr}`).toBe(0);
      expect(existsSync(store)).toBe(true);
      const status = await cli(['--config', file, 'status']);
      expect(status.code, `${name}: ${status.stderr}`).toBe(0);
    }
  });

  it('leaves a PostgreSQL store to its server: no "no store" refusal', async () => {
    const { cli } = sandbox();
    const url = `postgres://engram:secret@127.0.0.1:${await closedPort()}/engram`;
    const r = await cli(['status'], {
      env: {
        ENGRAM_STORE_BACKEND: 'postgres',
        ENGRAM_STORE_URL: url,
        ENGRAM_STORE_SSL_MODE: 'disable',
      },
    });
    // The server is not there: the connection fails, not the existence check.
    expect(r.code).toBe(EXIT_CODES.STORE_UNAVAILABLE);
    expect(r.stderr).not.toContain('no store at');
  });
});

describe('a body piped on stdin keeps no trailing newline', () => {
  it('stores what echo pipes as the same text given as an argument', async () => {
    const { dir, cli, config } = sandbox();
    const file = config('engram.yaml', join(dir, 'engram.db'));
    const cases: [string, string][] = [
      ['Alex likes tea\n', 'Alex likes tea'],
      ['Windows line\r\n', 'Windows line'],
      ['several\n\n\n', 'several'],
      ['  indented\nsecond line\r\n\r\n', '  indented\nsecond line'],
    ];
    for (const [input, body] of cases) {
      const piped = await cli(['--config', file, '--json', 'remember'], { input });
      expect(piped.code, piped.stderr).toBe(0);
      expect(memoryOf(piped.stdout).body).toBe(body);
    }
    const dash = await cli(['--config', file, '--json', 'remember', '-'], { input: 'dash\n' });
    expect(memoryOf(dash.stdout).body).toBe('dash');
    // The argument form is an exact duplicate of the piped one.
    const argument = await cli(['--config', file, '--json', 'remember', 'Alex likes tea']);
    const result = JSON.parse(argument.stdout) as { created: boolean; memory: { id: string } };
    expect(result.created).toBe(false);
    const stored = await cli(['--config', file, '--json', 'get', result.memory.id]);
    expect((JSON.parse(stored.stdout) as { body: string }).body).toBe('Alex likes tea');
  });

  it('revise and review revise read their body from stdin the same way', async () => {
    const { dir, cli, config } = sandbox();
    const file = config('engram.yaml', join(dir, 'engram.db'));
    const id = memoryOf(
      (await cli(['--config', file, '--json', 'remember', 'Deploys happen on Fridays'])).stdout,
    ).id;
    const revised = await cli(['--config', file, '--json', 'revise', id, '-'], {
      input: 'Deploys happen on Tuesdays\n',
    });
    expect(revised.code, revised.stderr).toBe(0);
    expect((JSON.parse(revised.stdout) as { body: string }).body).toBe(
      'Deploys happen on Tuesdays',
    );
    const reviewed = await cli(['--config', file, '--json', 'review', 'revise', id, '-'], {
      input: 'Deploys happen on Wednesdays\r\n',
    });
    expect(reviewed.code, reviewed.stderr).toBe(0);
    const got = await cli(['--config', file, '--json', 'get', id]);
    expect((JSON.parse(got.stdout) as { body: string }).body).toBe('Deploys happen on Wednesdays');
  });
});
