/**
 * Small things a newcomer meets in the first hour: the first run's progress names what it builds;
 * `engram serve` on a port in use says "address in use" and exits with its own code; every
 * dependency's install script is either allowed or refused in package.json (so `npm ci` has none
 * to warn about); and the CI PostgreSQL helper keeps its state per checkout, so two checkouts on
 * one machine never stop each other's server.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { PrepareProgress } from '../src/embed/embedder.js';
import { STATIC_BUILD_PHASE, StaticEmbedder } from '../src/embed/static/static-embedder.js';
import { writeFixture } from '../src/embed/static/test-fixture.js';
import { EXIT_CODES } from '../src/interfaces/error-codes.js';
import { runCli } from './cli-run.js';
import { tempDir } from './helpers.js';

const ROOT = resolve(import.meta.dirname, '..');

describe('the first run builds the word vectors', () => {
  // The CLI labels a progress bar with its phase: `engram: building word vectors (first run): 40%`.
  it('reports its progress as building word vectors, the builder’s phases as steps', async () => {
    const dir = tempDir();
    const fixture = await writeFixture(join(dir, 'source'));
    const events: PrepareProgress[] = [];
    const embedder = new StaticEmbedder({ cacheDir: join(dir, 'cache'), sourcePath: fixture.path });
    await embedder.prepare({ onProgress: (p) => events.push(p) });
    await embedder.close();
    expect(STATIC_BUILD_PHASE).toBe('building word vectors (first run)');
    expect(new Set(events.map((e) => e.phase))).toEqual(new Set([STATIC_BUILD_PHASE]));
    expect(events.map((e) => e.step)).toContain('scan');
    expect(events.at(-1)).toMatchObject({ step: 'done', done: fixture.words.length });
  });
});

describe('engram serve on a port in use', () => {
  let busy: Server | undefined;
  afterEach(async () => {
    await new Promise((done) => (busy ? busy.close(done) : done(undefined)));
  });

  it('says "address in use" with the address and exits 11, not as a configuration error', async () => {
    busy = createServer();
    await new Promise<void>((done) => busy!.listen(0, '127.0.0.1', done));
    const { port } = busy.address() as { port: number };
    const dir = tempDir();
    const config = join(dir, 'engram.yaml');
    writeFileSync(config, `store:\n  path: ${join(dir, 'engram.db')}\n`);
    const r = await runCli(['--config', config, 'serve', '--port', String(port)]);
    expect(EXIT_CODES.ADDRESS_IN_USE).toBe(11);
    expect(r.code).toBe(EXIT_CODES.ADDRESS_IN_USE);
    expect(r.stderr).toContain(
      `engram: address in use: another process already listens on 127.0.0.1:${port}`,
    );
    expect(r.stderr).toContain('engram serve --port <port>');
  }, 120_000);
});

describe('npm install scripts', () => {
  it('package.json allows or refuses the install script of every package that has one', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      allowScripts?: Record<string, boolean>;
    };
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    for (const name of withScripts)
      expect(typeof pkg.allowScripts?.[name], `allowScripts.${name}`).toBe('boolean');
    // The native addons engram loads must build.
    expect(pkg.allowScripts).toMatchObject({ 'better-sqlite3': true, 'hnswlib-node': true });
  });
});

describe('scripts/ci/postgres.sh', () => {
  /** A checkout holding only the script; runs it with the given command in a private TMPDIR. */
  function checkout(tmp: string, name: string) {
    const root = join(tmp, name);
    mkdirSync(join(root, 'scripts', 'ci'), { recursive: true });
    copyFileSync(
      join(ROOT, 'scripts', 'ci', 'postgres.sh'),
      join(root, 'scripts', 'ci', 'postgres.sh'),
    );
    const run = (command: string, cwd = tmp) =>
      spawnSync('bash', [join(root, 'scripts', 'ci', 'postgres.sh'), command], {
        cwd,
        encoding: 'utf8',
        env: { PATH: process.env.PATH, TMPDIR: tmp },
      });
    /** The state file this checkout uses, as `status` names it. */
    const stateFile = () => {
      const r = run('status');
      expect(r.status).toBe(1);
      return /recorded in (\S+)/.exec(r.stderr)![1]!;
    };
    return { run, stateFile };
  }

  it('keeps a state file per checkout: one checkout’s stop leaves another’s server alone', () => {
    const tmp = tempDir();
    const a = checkout(tmp, 'a');
    const b = checkout(tmp, 'b');
    const stateA = a.stateFile();
    expect(stateA).not.toBe(b.stateFile());
    expect(stateA.startsWith(`${tmp}/`)).toBe(true);
    // The same checkout finds its state from any working directory.
    expect(/recorded in (\S+)/.exec(a.run('status', join(tmp, 'b')).stderr)![1]).toBe(stateA);
    // A server recorded for checkout a (stopped: no postmaster.pid, so nothing is run as root).
    const dir = join(tmp, 'engram-pg.test');
    mkdirSync(dir);
    writeFileSync(stateA, `PG_DIR=${dir}\nPG_URL=postgres://u:p@127.0.0.1:1/engram_test\n`);
    expect(b.run('stop').status).toBe(0);
    expect(existsSync(stateA)).toBe(true);
    expect(a.run('stop').status).toBe(0);
    expect(existsSync(stateA)).toBe(false);
  });
});
