/**
 * The built CLI against hostile or broken input: a store path whose directory cannot be made,
 * bytes that are not UTF-8 (stdin, import files), control characters in memory text shown on a
 * terminal, and import lines that name another space.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { EXIT_CODES } from '../src/interfaces/error-codes.js';
import { testCacheDir } from './cache-dir.js';
import { CLI, type CliResult, runCli } from './cli-run.js';
import { tempDir } from './helpers.js';

/** A configuration file for a fresh store in a temporary directory, and a runner on it. */
function setup(storePath?: string) {
  const dir = tempDir();
  const config = join(dir, 'engram.yaml');
  writeFileSync(config, `store:\n  path: ${storePath ?? join(dir, 'engram.db')}\n`);
  const cli = (args: string[], input?: string) => runCli(['--config', config, ...args], { input });
  return { dir, config, cli };
}

/** Runs the CLI with stdin read from a file of raw bytes (runCli's input is text). */
function runWithStdinBytes(args: string[], bytes: Buffer, dir: string): Promise<CliResult> {
  const file = join(dir, 'stdin.bin');
  writeFileSync(file, bytes);
  return new Promise((resolve, reject) => {
    const stdin = openSync(file, 'r');
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: dir, ENGRAM_EMBEDDER_CACHE_DIR: testCacheDir() },
      stdio: [stdin, 'pipe', 'pipe'],
    });
    closeSync(stdin); // the child holds its own copy
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const bodies = async (cli: ReturnType<typeof setup>['cli'], space?: string) => {
  const args = [...(space ? ['--space', space] : []), '--json', 'list'];
  const page = JSON.parse((await cli(args)).stdout) as { items: { body: string }[] };
  return page.items.map((i) => i.body).sort();
};

describe('store path whose directory cannot be created', () => {
  it('fails with the store exit code and names the path instead of hanging', async () => {
    const { config } = setup('/proc/forbidden/x.db');
    // Before the fix Node's recursive mkdir looped forever here: the run is killed, code null.
    // Writing commands, as only they create a store (a reading one stops at "no store at").
    const r = await runCli(['--config', config, 'remember', 'x'], { timeoutMs: 20_000 });
    expect(r.code, r.stderr).toBe(EXIT_CODES.STORE_UNAVAILABLE);
    expect(r.stderr).toContain('/proc/forbidden');
    const json = await runCli(['--config', config, '--json', 'remember', 'y'], {
      timeoutMs: 20_000,
    });
    expect(json.code).toBe(6);
    expect(JSON.parse(json.stderr).error).toMatchObject({
      code: 'STORE_UNAVAILABLE',
      details: { field: 'store.path' },
    });
  });
});

describe('invalid UTF-8', () => {
  it('from stdin is refused with exit 2 and the offset of the bad byte, and nothing is stored', async () => {
    const { dir, config } = setup();
    const bytes = Buffer.concat([
      Buffer.from('hé there '),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(' end'),
    ]);
    const r = await runWithStdinBytes(['--config', config, 'remember'], bytes, dir);
    expect(r.code, r.stderr).toBe(EXIT_CODES.INVALID_INPUT);
    expect(r.stderr).toMatch(/not valid UTF-8.*offset 10/);
    const truncated = Buffer.concat([Buffer.from('ok '), Buffer.from([0xe2, 0x82])]);
    const t = await runWithStdinBytes(
      ['--config', config, '--json', 'remember', '-'],
      truncated,
      dir,
    );
    expect(t.code).toBe(2);
    expect(JSON.parse(t.stderr).error).toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: '(stdin)', rule: 'UTF-8', offset: 3 },
    });
    // Refused before the store opens: not even an empty store was created.
    expect(existsSync(join(dir, 'engram.db'))).toBe(false);
  });

  it('in an import file fails that line alone, naming its line and byte offset', async () => {
    const { dir, cli } = setup();
    const file = join(dir, 'in.jsonl');
    writeFileSync(
      file,
      Buffer.concat([
        Buffer.from('{"body":"first line is fine"}\n{"body":"bad '),
        Buffer.from([0xc3, 0x28]), // a lead byte without its continuation
        Buffer.from('"}\r\n{"body":"third line is fine too"}\n'),
      ]),
    );
    const r = await cli(['import', file]);
    expect(r.code, r.stderr).toBe(EXIT_CODES.PARTIAL);
    expect(r.stderr).toMatch(/line 2: not valid UTF-8: invalid byte at offset 13 of the line/);
    expect(r.stderr).toMatch(/offset 43 of the file/);
    expect(r.stdout).toMatch(/imported 3 lines: 2 created.*1 errors/);
    expect(await bodies(cli)).toEqual(['first line is fine', 'third line is fine too']);

    const again = await cli(['--json', 'import', file]);
    const lines = again.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.status ?? 'summary')).toEqual([
      'duplicate',
      'error',
      'duplicate',
      'summary',
    ]);
    expect(lines[1]).toMatchObject({ line: 2, error: { code: 'INVALID_INPUT', field: '(line)' } });
    expect(lines[3].summary).toMatchObject({ lines: 3, duplicate: 2, error: 1 });
  });
});

describe('control characters in human output', () => {
  const BODY = 'alarm \u001b[31mred\u001b[0m bell\u0007 back\r over\u009b2J rtl\u202e end';
  // eslint-disable-next-line no-control-regex -- raw control characters must not reach the output
  const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/u;

  it('are shown escaped by get, list, search and history; JSON keeps the text', async () => {
    const { cli } = setup();
    const made = await cli(['--json', 'remember', BODY, '--title', 'ti\u001b]0;pwned\u0007tle']);
    expect(made.code, made.stderr).toBe(0);
    const id = (JSON.parse(made.stdout) as { memory: { id: string } }).memory.id;
    await cli(['revise', id, `${BODY}\nsecond line\twith a tab`]);
    for (const args of [['get', id], ['list'], ['search', 'alarm red bell'], ['history', id]]) {
      const r = await cli(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout, args.join(' ')).not.toMatch(RAW);
      expect(r.stdout, args.join(' ')).toContain('\\x1b[31mred');
    }
    const get = (await cli(['get', id])).stdout;
    expect(get).toContain('\\x07 back\\r over\\x9b2J rtl\\u202e end\nsecond line\twith a tab');
    expect(get).toContain('ti\\x1b]0;pwned\\x07tle');
    const json = JSON.parse((await cli(['--json', 'get', id])).stdout) as { body: string };
    expect(json.body).toBe(`${BODY}\nsecond line\twith a tab`);
  });
});

describe('import lines naming a space', () => {
  it('fail alone unless --allow-spaces, as over HTTP', async () => {
    const { dir, cli } = setup();
    const file = join(dir, 'spaces.jsonl');
    writeFileSync(
      file,
      [
        '{"body":"a memory without a space"}',
        '{"body":"a memory for the other space","space":"other"}',
        '{"body":"a memory naming the default space","space":"default"}',
      ].join('\n'),
    );
    const r = await cli(['import', file]);
    expect(r.code, r.stderr).toBe(EXIT_CODES.PARTIAL);
    expect(r.stderr).toMatch(/line 2: space: this import is confined to space default/);
    expect(r.stderr).toMatch(/--allow-spaces/);
    expect(await bodies(cli, 'other')).toEqual([]);
    expect(await bodies(cli)).toHaveLength(2);

    const allowed = await cli(['import', '--allow-spaces', file]);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toMatch(/1 created, 2 duplicates/);
    expect(await bodies(cli, 'other')).toEqual(['a memory for the other space']);

    const scoped = await cli(['--space', 'other', '--json', 'import', file]);
    expect(scoped.code).toBe(EXIT_CODES.PARTIAL);
    const statuses = scoped.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).status);
    expect(statuses.slice(0, 3)).toEqual(['created', 'duplicate', 'error']);
    expect(await bodies(cli, 'other')).toEqual([
      'a memory for the other space',
      'a memory without a space',
    ]);
  });
});
