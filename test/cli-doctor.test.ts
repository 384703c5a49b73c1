/**
 * `engram doctor` through the built CLI: on a fresh machine it reports a missing store and creates
 * none; on a working store every check is ok; each broken part (an invalid configuration, a file
 * that is not a database, a damaged store, a missing word-vector cache, a failed job, a busy port,
 * an unreachable PostgreSQL) is named with what to do, and a failure sets the exit code of its
 * error code. `--json` prints one stable object. PostgreSQL checks run when ENGRAM_TEST_PG_URL
 * names a server.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { loadConfig } from '../src/config/load.js';
import type { ConfigInput } from '../src/config/schema.js';
import { silentLogger } from '../src/domain/log.js';
import { EXIT_CODES } from '../src/interfaces/error-codes.js';
import { startHttpService } from '../src/interfaces/http/service.js';
import { CHECK_NAMES, type DoctorReport } from '../src/service/doctor/doctor.js';
import { openStore } from '../src/store/open.js';
import { testCacheDir } from './cache-dir.js';
import { runCli } from './cli-run.js';
import { tempDir } from './helpers.js';
import { admin, closedPort, dropSchema, PG_URL, randomSchema } from './postgres-helpers.js';

/** Spawns of the built CLI, each a few hundred ms alone, take seconds on a loaded machine. */
const BUDGET = 120_000;

const servers: Server[] = [];
afterEach(async () => {
  while (servers.length) {
    const server = servers.pop()!;
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A working folder and HOME of its own; `doctor` runs the built CLI's doctor there. */
function sandbox() {
  const dir = tempDir();
  const home = join(dir, 'home');
  const work = join(dir, 'work');
  mkdirSync(home);
  mkdirSync(work);
  const config = (settings: ConfigInput | Record<string, unknown>, name = 'engram.yaml') => {
    const file = join(work, name);
    writeFileSync(file, stringify(settings));
    return file;
  };
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCli(args, { cwd: work, env: { HOME: home, ...env } });
  const doctor = async (args: string[] = [], env: Record<string, string> = {}) => {
    const r = await cli([...args, '--json', 'doctor'], env);
    const report = JSON.parse(r.stdout) as DoctorReport;
    const check = (name: string) => report.checks.find((c) => c.name === name)!;
    return { code: r.code, report, check, stderr: r.stderr };
  };
  return { dir, home, work, config, cli, doctor };
}

/** A configuration on a store in `dir` that uses the tests' word-vector cache. */
const storeConfig = (dir: string, extra: ConfigInput = {}): ConfigInput => ({
  ...extra,
  store: { path: join(dir, 'engram.db'), ...extra.store },
  embedder: { cache_dir: testCacheDir(), ...extra.embedder },
  server: { port: 0, ...extra.server },
});

async function listening(): Promise<number> {
  // It takes connections and drops them at once (the doctor's health probe gets no answer).
  const server = createServer((socket) => socket.destroy());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

describe('engram doctor on a fresh machine', () => {
  it(
    'reports the missing store, creates nothing, and exits 0; the human view has a fix line',
    async () => {
      const { home, work, cli, doctor } = sandbox();
      const cache = join(work, 'no-cache-yet');
      const env = { ENGRAM_EMBEDDER_CACHE_DIR: cache, ENGRAM_SERVER_PORT: '0' };
      const { code, report, check } = await doctor([], env);
      expect(code).toBe(0);
      expect(report.ok).toBe(true);
      expect(report.code).toBeNull();
      expect(report.config_file).toBeNull();
      expect(report.checks.map((c) => c.name)).toEqual([...CHECK_NAMES]);
      for (const c of report.checks)
        expect(Object.keys(c).sort()).toEqual(
          ['code', 'details', 'finding', 'fix', 'ms', 'name', 'status'].sort(),
        );
      expect(check('config')).toMatchObject({ status: 'ok', details: { source: 'defaults' } });
      expect(check('config').finding).toContain('built-in defaults');
      const store = check('store');
      expect(store.status).toBe('warn');
      expect(store.finding).toContain(join(home, '.local', 'share', 'engram', 'engram.db'));
      expect(store.fix).toMatch(/^engram init/);
      // No cache yet: the doctor says a first run builds it and about how long, and builds nothing.
      const embedder = check('embedder');
      expect(embedder.status).toBe('warn');
      expect(embedder.finding).toMatch(/first command that needs it builds it .*roughly \d+ s/);
      expect(embedder.fix).toBe('engram models prepare (builds it now)');
      expect(existsSync(cache)).toBe(false);
      expect(check('graph').status).toBe('ok');
      expect(existsSync(join(home, '.local'))).toBe(false);
      expect(readdirSync(work)).toEqual([]);

      const human = await cli(['doctor'], env);
      expect(human.code).toBe(0);
      const lines = human.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe('engram doctor');
      expect(lines).toContainEqual(expect.stringMatching(/^ {2}warn {2}store {5}no store at /));
      expect(lines).toContainEqual(expect.stringMatching(/^ {18}fix: engram init/));
      expect(lines.at(-1)).toMatch(/^\d checks ok, 2 warnings, no failures$/);
    },
    BUDGET,
  );
});

describe('engram doctor on a working store', () => {
  it(
    'finds every part ok after init and a write, with the file it read',
    async () => {
      const { work, config, cli, doctor } = sandbox();
      config(storeConfig(work));
      expect((await cli(['remember', 'Alex prefers tea over coffee'])).code).toBe(0);
      const { code, report, check } = await doctor();
      expect(report.checks.filter((c) => c.status !== 'ok')).toEqual([]);
      expect(code).toBe(0);
      expect(report.config_file).toBe(join(work, 'engram.yaml'));
      expect(check('config').details).toMatchObject({ source: 'local' });
      expect(check('store').finding).toMatch(/schema \d+, integrity check ok$/);
      expect(check('embedder').finding).toMatch(/^word vectors ready: /);
      expect(check('jobs').finding).toMatch(/^jobs: \d+ queued, 0 running/);
      expect(check('graph').finding).toMatch(/^language model loads in \d+ ms/);
    },
    BUDGET,
  );

  it(
    'names failed jobs and a busy port with what to do, and says when an engram service holds it',
    async () => {
      const { work, config, cli, doctor } = sandbox();
      const busy = await listening();
      const file = config(storeConfig(work, { server: { port: busy } }));
      expect((await cli(['remember', 'The deploy runs on Fridays'])).code).toBe(0);
      const store = openStore(loadConfig({ file, env: {} }), silentLogger);
      const { job } = await store.jobs!.enqueue({ kind: 'graph.rebuild', space: 'default' });
      await store.jobs!.claim('doctor-test', { leaseMs: 60_000, ids: [job.id] });
      await store.jobs!.finish(job.id, 'doctor-test', {
        state: 'failed',
        error: 'the test made it fail',
        retryInMs: null,
      });
      await store.close();

      const { code, check } = await doctor();
      expect(code).toBe(0);
      expect(check('jobs')).toMatchObject({ status: 'warn', finding: '1 failed job' });
      expect(check('jobs').fix).toBe(
        'engram jobs --state failed (why), then engram jobs retry JOB_ID',
      );
      expect(check('port').status).toBe('warn');
      expect(check('port').finding).toContain(
        `address in use: another program listens on 127.0.0.1:${busy}`,
      );
      expect(check('port').fix).toBe(`engram serve --port ${busy + 1}, or set server.port`);

      const service = await startHttpService({
        config: storeConfig(tempDir()),
        env: {},
        log: silentLogger,
      });
      try {
        const port = Number(new URL(service.url).port);
        const served = await doctor([], { ENGRAM_SERVER_PORT: String(port) });
        expect(served.check('port')).toMatchObject({ status: 'ok' });
        expect(served.check('port').finding).toMatch(
          /^an engram service \(.+\) already answers at/,
        );
      } finally {
        await service.close();
      }
    },
    BUDGET,
  );
});

describe('engram doctor on broken parts', () => {
  it(
    'an invalid configuration fails with exit 5; the other checks are not run',
    async () => {
      const { config, doctor } = sandbox();
      const file = config({ store: { pathh: 'x.db' } }, 'bad.yaml');
      const { code, report, check } = await doctor(['--config', file]);
      expect(code).toBe(EXIT_CODES.CONFIG_INVALID);
      expect(report).toMatchObject({ ok: false, code: 'CONFIG_INVALID', config_file: file });
      expect(check('config')).toMatchObject({ status: 'fail', code: 'CONFIG_INVALID' });
      expect(check('config').finding).toContain('store.pathh');
      expect(check('config').fix).toBe(
        `edit ${file} (every key: docs/configuration.md), then engram --config ${file} doctor`,
      );
      for (const name of CHECK_NAMES.slice(1))
        expect(check(name)).toMatchObject({
          status: 'warn',
          finding: 'not checked: the configuration is invalid',
        });
    },
    BUDGET,
  );

  it(
    'a file that is not a database, and a damaged store, fail with exit 6 and change nothing',
    async () => {
      const { work, config, cli, doctor } = sandbox();
      config(storeConfig(work));
      writeFileSync(join(work, 'engram.db'), 'not a database, just text. '.repeat(200));
      const text = await doctor();
      expect(text.code).toBe(EXIT_CODES.STORE_UNAVAILABLE);
      expect(text.check('store')).toMatchObject({ status: 'fail', code: 'STORE_UNAVAILABLE' });
      expect(text.check('store').finding).toContain('is not an engram database');

      const damaged = join(work, 'damaged.db');
      const other = config(storeConfig(work, { store: { path: damaged } }), 'damaged.yaml');
      expect((await cli(['--config', other, 'remember', 'Invoices are sent nightly'])).code).toBe(
        0,
      );
      const db = new Database(damaged);
      db.pragma('wal_checkpoint(TRUNCATE)');
      const { rootpage } = db
        .prepare(
          "SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'items' LIMIT 1",
        )
        .get() as { rootpage: number };
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      db.close();
      const fd = openSync(damaged, 'r+');
      writeSync(
        fd,
        Buffer.alloc(pageSize - 100, 0x5a),
        0,
        pageSize - 100,
        (rootpage - 1) * pageSize + 100,
      );
      closeSync(fd);
      const broken = await doctor(['--config', other]);
      expect(broken.code).toBe(EXIT_CODES.STORE_UNAVAILABLE);
      expect(broken.check('store').finding).toMatch(
        /^SQLite's integrity check found problems in .*damaged\.db: /,
      );
      expect(broken.check('store').fix).toContain('export --all-spaces rescue.jsonl');
      expect(broken.check('jobs').finding).toMatch(/^not read/);
    },
    BUDGET,
  );

  it(
    'an unreachable PostgreSQL fails with exit 6 naming host and port',
    async () => {
      const { config, doctor } = sandbox();
      const port = await closedPort();
      const file = config({
        store: {
          backend: 'postgres',
          url: `postgres://engram:secret@127.0.0.1:${port}/engram`,
          connect_timeout_ms: 2_000,
        },
        server: { port: 0 },
      });
      const { code, check, report } = await doctor(['--config', file]);
      expect(code).toBe(EXIT_CODES.STORE_UNAVAILABLE);
      expect(check('store')).toMatchObject({ status: 'fail', code: 'STORE_UNAVAILABLE' });
      expect(check('store').finding).toContain(`127.0.0.1:${port}`);
      expect(check('store').fix).toBe(
        `start PostgreSQL at 127.0.0.1:${port}, or correct store.url (host, port, user, password)`,
      );
      expect(JSON.stringify(report)).not.toContain('secret');
    },
    BUDGET,
  );
});

describe.skipIf(!PG_URL)('engram doctor on PostgreSQL', () => {
  it(
    'reports a schema not created yet (and creates none), then the created one with pgvector',
    async () => {
      const { config, cli, doctor } = sandbox();
      const schema = randomSchema('engram_doctor');
      config({
        store: { backend: 'postgres', url: PG_URL, schema },
        embedder: { cache_dir: testCacheDir() },
        server: { port: 0 },
      });
      try {
        const before = await doctor();
        expect(before.code).toBe(0);
        expect(before.check('store').status).toBe('warn');
        expect(before.check('store').finding).toMatch(
          new RegExp(`^PostgreSQL [\\d.]+ at .+ answers; schema ${schema} is not created yet`),
        );
        expect(before.check('store').fix).toBe(
          'engram status (the first command that opens the store creates the schema)',
        );
        const found = await admin('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
        expect(found).toEqual([]);

        expect((await cli(['status'])).code).toBe(0);
        const after = await doctor();
        expect(after.check('store').status).toBe('ok');
        expect(after.check('store').finding).toMatch(
          new RegExp(`schema ${schema} at version \\d+, pgvector [\\d.]+$`),
        );
        expect(after.check('jobs').finding).toMatch(/^jobs: /);
      } finally {
        await dropSchema(schema);
      }
    },
    BUDGET,
  );
});
