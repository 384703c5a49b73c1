/**
 * The built `engram` runs its bundled CLI with a V8 code cache (src/interfaces/cli/code-cache.ts):
 * the first run of a command writes the cache (a folder and a file only its user may read), later
 * runs use it, a cache V8 refuses or that others may write is written again, `ENGRAM_CODE_CACHE`
 * turns it off or moves it, and a cache that cannot be written leaves the command working. What
 * became of the cache is read from the line `ENGRAM_DEBUG` adds on stderr; never from timing.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { commandWord } from '../src/interfaces/cli/code-cache.js';
import { runCli } from './cli-run.js';
import { tempDir } from './helpers.js';

/** The build named on the bundle's first line. */
function build(): string {
  const bundle = join(import.meta.dirname, '..', 'dist', 'bin', 'engram-cli.cjs');
  return /^\/\/engram-build:([0-9a-f]+) /u.exec(readFileSync(bundle, 'utf8'))![1]!;
}

/** `engram --version` with HOME in `home` (the cache under its .cache) and the cache's line shown. */
async function version(home: string, env: Record<string, string> = {}) {
  const r = await runCli(['--version'], { env: { HOME: home, ENGRAM_DEBUG: '1', ...env } });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toBe('0.1.0\n');
  return r.stderr;
}

describe('the CLI code cache', () => {
  it('is written by the first run of a command, only for its user, and used by the next', async () => {
    const home = tempDir();
    const dir = join(home, '.cache', 'engram', 'code', build());
    const file = join(dir, '_.bin');
    expect(await version(home)).toMatch(
      /code cache missing or not trusted: .*_\.bin \(written at exit if the command succeeds\)/,
    );
    expect(statSync(file).size).toBeGreaterThan(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(await version(home)).toBe(`engram: code cache used: ${file}\n`);
    // One cache per command word: another command writes its own.
    const help = await runCli(['--json', 'completion', 'bash'], {
      env: { HOME: home, ENGRAM_DEBUG: '1' },
    });
    expect(help.code, help.stderr).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['_.bin', 'completion.bin']);
  });

  it('is written only by a run that succeeds and was not asked for help', async () => {
    const home = tempDir();
    const dir = join(home, '.cache', 'engram', 'code', build());
    const config = join(home, 'engram.yaml');
    writeFileSync(config, `store:\n  path: ${join(home, 'engram.db')}\n`);
    const run = (args: string[]) =>
      runCli(['--config', config, ...args], { env: { HOME: home, ENGRAM_DEBUG: '1' } });
    const help = await run(['get', '--help']);
    expect(help.code, help.stderr).toBe(0);
    const missing = await run(['get', '01ARZ3NDEKTSV4RRFFQ69G5FAV']);
    expect(missing.code).not.toBe(0);
    expect(existsSync(join(dir, 'get.bin'))).toBe(false);
    const remembered = await run(['--json', 'remember', 'The cache is written by this run']);
    expect(remembered.code, remembered.stderr).toBe(0);
    const { id } = (JSON.parse(remembered.stdout) as { memory: { id: string } }).memory;
    const found = await run(['get', id]);
    expect(found.code, found.stderr).toBe(0);
    expect(found.stderr).toMatch(/code cache missing or not trusted: .*get\.bin/);
    expect(statSync(join(dir, 'get.bin')).size).toBeGreaterThan(0);
    expect((await run(['get', id])).stderr).toMatch(/code cache used: .*get\.bin/);
  });

  it('writes again a cache V8 refuses, and one that others may write', async () => {
    const home = tempDir();
    const file = join(home, '.cache', 'engram', 'code', build(), '_.bin');
    await version(home);
    writeFileSync(file, Buffer.alloc(4096, 7));
    expect(await version(home)).toMatch(
      /code cache refused by V8: .*\(written at exit if the command succeeds\)/,
    );
    expect(readFileSync(file).equals(Buffer.alloc(4096, 7))).toBe(false);
    expect(await version(home)).toMatch(/code cache used/);
    chmodSync(file, 0o666);
    expect(await version(home)).toMatch(/code cache missing or not trusted/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('is off with ENGRAM_CODE_CACHE=off, elsewhere with a path, and never fails a command', async () => {
    const home = tempDir();
    expect(await version(home, { ENGRAM_CODE_CACHE: 'off' })).toBe('engram: code cache off\n');
    expect(existsSync(join(home, '.cache'))).toBe(false);
    const elsewhere = join(tempDir(), 'code');
    await version(home, { ENGRAM_CODE_CACHE: elsewhere });
    expect(readdirSync(join(elsewhere, build()))).toEqual(['_.bin']);
    // A file where the cache folder would be: nothing can be written, the command still runs.
    const blocked = tempDir();
    writeFileSync(join(blocked, 'code'), 'not a folder');
    await version(home, { ENGRAM_CODE_CACHE: join(blocked, 'code') });
    expect(await version(home, { ENGRAM_CODE_CACHE: join(blocked, 'code') })).toMatch(
      /missing or not trusted/,
    );
  });

  it('keeps one cache per command word, whatever the options and arguments', () => {
    const words = new Set(['search', 'hook', 'list']);
    expect(commandWord(['--config', 'x.yaml', 'search', 'what now'], words)).toBe('search');
    expect(commandWord(['-c', 'x.yaml', '--space', 'a', 'hook', 'user-prompt'], words)).toBe(
      'hook',
    );
    expect(commandWord(['--json', 'list', '--limit', '5'], words)).toBe('list');
    expect(commandWord(['--version'], words)).toBe('_');
    // Not a command (a typo, a body given first): no cache of its own.
    expect(commandWord(['serch', 'x'], words)).toBe('_');
    expect(commandWord([], words)).toBe('_');
  });
});
