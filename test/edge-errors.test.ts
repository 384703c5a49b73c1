/**
 * One table of error cases, checked on every edge against the one error rule
 * (src/interfaces/error-codes.ts): the library raises the code; the CLI (the built binary,
 * spawned) exits with the rule's exit code; MCP (SDK client, in-memory transport) answers the
 * rule's tool error; HTTP (a real socket) answers the rule's status. A case leaves out an edge it
 * cannot be caused from (a CLI user has no batch route, an MCP client no token).
 *
 * Failures no request can cause on a healthy store (a read-only or busy store, an unprepared
 * embedder, a bug) are raised by the library first; a test double of `recall` then throws that
 * very error, so MCP and HTTP are checked on what the library really raises.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ErrorCode as RpcErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { createEngram, type Engram } from '../src/app.js';
import { ERROR_CODES, type ErrorCode, toEngramError } from '../src/domain/errors.js';
import { type Logger, silentLogger } from '../src/domain/log.js';
import { StaticEmbedder } from '../src/embed/static/static-embedder.js';
import { ERROR_RULES, EXIT_CODES } from '../src/interfaces/error-codes.js';
import { ERRORS } from '../src/interfaces/http/routes/common.js';
import { startHttpService } from '../src/interfaces/http/service.js';
import { storeError } from '../src/store/sqlite/database.js';
import { testCacheDir } from './cache-dir.js';
import { runCli } from './cli-run.js';
import { serveEngram, TOKEN_CONFIG, TOKENS } from './http-helpers.js';
import { callTool, connectMcp } from './mcp-helpers.js';

const MEMORIES = '/v1/spaces/default/memories';
const UNKNOWN = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
const SECRET = 'password=hunter2';
/** One item more than the test configuration's limits.max_batch_items. */
const BATCH = [{ body: 'one' }, { body: 'two' }, { body: 'three' }];

/** The stores and memories the cases run against. */
interface World {
  /** A good configuration file (tokens configured, limits.max_batch_items: 2). */
  config: string;
  /** A configuration file with an invalid value. */
  badConfig: string;
  /** A configuration whose store path is a directory. */
  dirConfig: string;
  engram: Engram;
  /** A forgotten memory. */
  forgotten: string;
  /** A port of 127.0.0.1 another server listens on. */
  busyPort: number;
}

/** An HTTP request of a case; `token: null` sends none (default: the admin token). */
interface HttpCall {
  method: string;
  path: string;
  json?: unknown;
  token?: string | null;
}

/** One row of the table: the error, and how each edge can cause it. */
interface ErrorCase {
  name: string;
  code: ErrorCode;
  /** The field the error names, when it names one. */
  field?: string;
  /** The library call that raises it. */
  library?: (w: World) => Promise<unknown>;
  /** Arguments of the spawned CLI. */
  cli?: (w: World) => string[];
  /** The MCP tool call that causes it. */
  mcp?: (w: World) => [tool: string, args: Record<string, unknown>];
  /** The HTTP request that causes it. */
  http?: (w: World) => HttpCall;
  /** MCP and HTTP run on a double whose recall throws what `library` raised. */
  injected?: true;
}

const openEngram = async (configFile: string) =>
  createEngram({ configFile, env: {}, logger: silentLogger, background: false });

/** The error the SQLite adapter raises for a driver failure with this code. */
const driverFailure = async (code: string) => {
  throw storeError(Object.assign(new Error(`driver says ${code}`), { code }), '/srv/engram.db');
};

const CASES: ErrorCase[] = [
  {
    name: 'invalid input naming the field',
    code: 'INVALID_INPUT',
    field: 'body',
    library: (w) => w.engram.remember({ body: '' }),
    cli: (w) => ['--config', w.config, '--json', 'remember', ''],
    mcp: () => ['remember', { body: '' }],
    http: () => ({ method: 'POST', path: MEMORIES, json: { body: '' } }),
  },
  {
    name: 'not found',
    code: 'NOT_FOUND',
    library: (w) => w.engram.get(UNKNOWN),
    cli: (w) => ['--config', w.config, '--json', 'get', UNKNOWN],
    mcp: () => ['get', { id: UNKNOWN }],
    http: () => ({ method: 'GET', path: `${MEMORIES}/${UNKNOWN}` }),
  },
  {
    name: 'not found: an unknown job',
    code: 'NOT_FOUND',
    library: (w) => w.engram.job(UNKNOWN),
    cli: (w) => ['--config', w.config, '--json', 'jobs', 'show', UNKNOWN],
    http: () => ({ method: 'GET', path: `/v1/jobs/${UNKNOWN}` }),
  },
  {
    name: 'conflict: revising a forgotten memory',
    code: 'CONFLICT',
    library: (w) => w.engram.revise(w.forgotten, { body: 'A new text.' }),
    cli: (w) => ['--config', w.config, '--json', 'revise', w.forgotten, 'A new text.'],
    mcp: (w) => ['revise', { id: w.forgotten, body: 'A new text.' }],
    http: (w) => ({
      method: 'PATCH',
      path: `${MEMORIES}/${w.forgotten}`,
      json: { body: 'A new text.' },
    }),
  },
  {
    name: 'payload too large: a batch over limits.max_batch_items',
    code: 'PAYLOAD_TOO_LARGE',
    field: 'items',
    library: (w) => w.engram.rememberMany(BATCH),
    http: () => ({ method: 'POST', path: `${MEMORIES}/batch`, json: { items: BATCH } }),
  },
  {
    name: 'configuration invalid',
    code: 'CONFIG_INVALID',
    field: 'limits.max_batch_items',
    library: (w) => openEngram(w.badConfig),
    cli: (w) => ['--config', w.badConfig, '--json', 'status'],
    injected: true,
  },
  {
    name: 'store unavailable: the store path is a directory',
    code: 'STORE_UNAVAILABLE',
    field: 'store.path',
    library: (w) => openEngram(w.dirConfig),
    cli: (w) => ['--config', w.dirConfig, '--json', 'status'],
    injected: true,
  },
  {
    name: 'store read-only: the database refuses a write',
    code: 'STORE_READ_ONLY',
    field: 'store.path',
    library: () => driverFailure('SQLITE_READONLY'),
    injected: true,
  },
  {
    name: 'store busy: another process holds the write lock',
    code: 'STORE_BUSY',
    library: () => driverFailure('SQLITE_BUSY'),
    injected: true,
  },
  {
    name: 'embedder unavailable: word vectors not loaded',
    code: 'EMBEDDER_UNAVAILABLE',
    library: async () => new StaticEmbedder({ cacheDir: testCacheDir() }).words(),
    injected: true,
  },
  {
    name: 'address in use: serving on a port another process holds',
    code: 'ADDRESS_IN_USE',
    field: 'server.port',
    library: (w) =>
      startHttpService({
        configFile: w.config,
        config: { server: { port: w.busyPort } },
        env: {},
        log: silentLogger,
      }),
    cli: (w) => ['--config', w.config, '--json', 'serve', '--port', String(w.busyPort)],
    injected: true,
  },
  {
    name: 'unauthorised: no bearer token',
    code: 'UNAUTHORIZED',
    http: () => ({ method: 'GET', path: MEMORIES, token: null }),
  },
  {
    name: 'forbidden: a token of another space',
    code: 'FORBIDDEN',
    field: 'space',
    http: () => ({ method: 'GET', path: MEMORIES, token: TOKENS.writerA }),
  },
  {
    name: 'forbidden: jobs with a token that is not an admin of every space',
    code: 'FORBIDDEN',
    http: () => ({ method: 'GET', path: '/v1/jobs', token: TOKENS.writerA }),
  },
  {
    name: 'a server fault that is not an EngramError (a bug)',
    code: 'INTERNAL',
    library: async () => {
      throw new Error(`cannot open /secret/engram.db with ${SECRET}`);
    },
    injected: true,
  },
];

let world: World;
let busy: Server;

// One world for the whole table (tempDir() of helpers.ts is removed after each test).
const dir = mkdtempSync(join(tmpdir(), 'engram-edge-errors-'));

beforeAll(async () => {
  const write = (name: string, config: object) => {
    const file = join(dir, name);
    writeFileSync(file, stringify(config));
    return file;
  };
  const base = { embedder: { cache_dir: testCacheDir() } };
  const config = write('engram.yaml', {
    ...base,
    store: { path: join(dir, 'engram.db') },
    limits: { max_batch_items: 2 },
    server: { tokens: TOKEN_CONFIG },
  });
  const badConfig = write('bad.yaml', { ...base, limits: { max_batch_items: 0 } });
  mkdirSync(join(dir, 'a-directory'));
  const dirConfig = write('dir.yaml', { ...base, store: { path: join(dir, 'a-directory') } });
  const engram = await openEngram(config);
  await engram.prepareModels();
  const forgotten = (await engram.remember({ body: 'The office moved to Lisbon.' })).memory.id;
  await engram.forget(forgotten);
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const busyPort = (busy.address() as { port: number }).port;
  world = { config, badConfig, dirConfig, engram, forgotten, busyPort };
});

afterAll(async () => {
  await new Promise((resolve) => busy?.close(resolve));
  await world?.engram.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What a call rejected with; fails the test when it resolved. */
async function rejection(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (err) {
    return err;
  }
  throw new Error('expected a failure, the call succeeded');
}

/** A logger that keeps the codes of the errors an edge logged. */
function recordingLog(): Logger & { codes: unknown[] } {
  const codes: unknown[] = [];
  return { codes, info() {}, warn() {}, error: (_message, fields) => codes.push(fields?.code) };
}

/** The engram MCP and HTTP run a case on: the world's, or a double throwing the library's error. */
async function engramFor(
  c: ErrorCase,
): Promise<{ engram: Engram; mcp?: [string, Record<string, unknown>]; http?: HttpCall }> {
  if (!c.injected) return { engram: world.engram, mcp: c.mcp?.(world), http: c.http?.(world) };
  const raised = await rejection(() => c.library!(world));
  const double = Object.create(world.engram) as Engram;
  double.recall = async () => {
    throw raised;
  };
  const recall = { query: 'anything' };
  return {
    engram: double,
    mcp: ['recall', recall],
    http: { method: 'POST', path: '/v1/spaces/default/recall', json: recall },
  };
}

/** The checks every edge's error body shares: its code, the field, and a hidden message. */
function expectError(
  error: { code: string; message: string; details: Record<string, unknown> },
  c: ErrorCase,
) {
  expect(error.code).toBe(c.code);
  if (c.field) expect(error.details.field).toBe(c.field);
  if (!ERROR_RULES[c.code].shown) {
    expect(error.message).toMatch(/server log/);
    expect(JSON.stringify(error)).not.toContain(SECRET);
  }
}

describe('the error rule', () => {
  it('names a server fault exactly where HTTP answers 5xx, and gives every code an exit code', () => {
    for (const code of ERROR_CODES) {
      const rule = ERROR_RULES[code];
      expect(rule.fault === 'server', code).toBe(rule.http >= 500);
      expect(rule.http >= 400 && rule.http < 600, code).toBe(true);
      expect(rule.exit, code).toBe(EXIT_CODES[code]);
      expect([0, EXIT_CODES.PARTIAL], code).not.toContain(rule.exit);
      if (!rule.shown) expect(rule.fault, code).toBe('server');
    }
  });

  it('the OpenAPI document names every code under the status of its rule', () => {
    for (const code of ERROR_CODES) {
      const documented = ERRORS[ERROR_RULES[code].http as keyof typeof ERRORS];
      expect(documented?.description, code).toContain(code);
    }
  });

  it('the table covers every error code', () => {
    expect(new Set(CASES.map((c) => c.code))).toEqual(new Set(ERROR_CODES));
  });
});

describe.each(CASES)('$name ($code)', (c) => {
  const rule = ERROR_RULES[c.code];

  if (c.library)
    it('the library raises it', async () => {
      const error = toEngramError(await rejection(() => c.library!(world)));
      expect(error.code).toBe(c.code);
      if (c.field) expect(error.details.field).toBe(c.field);
    });

  if (c.cli)
    it(`the CLI exits ${rule.exit}`, async () => {
      const run = await runCli(c.cli!(world));
      expect(run.code, run.stderr).toBe(rule.exit);
      expectError(JSON.parse(run.stderr).error, c);
    });

  if (c.mcp ?? c.injected)
    it('MCP answers a tool error, logged when it is a server fault', async () => {
      const { engram, mcp } = await engramFor(c);
      const log = recordingLog();
      const client = await connectMcp(engram, { log });
      const [tool, args] = mcp!;
      const result = await callTool(client, tool, args);
      expect(result.isError).toBe(rule.mcp === 'tool_error');
      const body = result.structuredContent as { error: Parameters<typeof expectError>[0] };
      expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(body);
      expectError(body.error, c);
      expect(log.codes).toEqual(rule.fault === 'server' ? [c.code] : []);
    });

  if (c.http ?? c.injected)
    it(`HTTP answers ${rule.http}, logged when it is a server fault`, async () => {
      const { engram, http } = await engramFor(c);
      const log = recordingLog();
      const server = await serveEngram(engram, log);
      try {
        const { method, path, json, token = TOKENS.admin } = http!;
        const res = await server.request(method, path, { json, token: token ?? undefined });
        expect(res.status, res.text).toBe(rule.http);
        expectError(res.body.error, c);
        expect(log.codes).toEqual(rule.fault === 'server' ? [c.code] : []);
      } finally {
        await server.close();
      }
    });
});

describe('MCP protocol errors', () => {
  it('an unknown tool is a JSON-RPC InvalidParams error (the caller’s fault), not a tool result', async () => {
    const client = await connectMcp(world.engram);
    await expect(client.callTool({ name: 'teleport', arguments: {} })).rejects.toMatchObject({
      code: RpcErrorCode.InvalidParams,
    });
  });
});
