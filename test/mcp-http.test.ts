/**
 * MCP over HTTP at `/mcp` on a real server on 127.0.0.1, through the SDK's Streamable HTTP client:
 * the same tools as stdio, one write session per MCP session, the same bearer tokens, spaces and
 * roles as `/v1`, the transport's answers for unknown sessions, the body cap of `/v1`, a bounded
 * number of sessions, a clean close with sessions open, and `engram serve` from the built CLI.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';

import { serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { silentLogger } from '../src/domain/log.js';
import { createHttpApp } from '../src/interfaces/http/app.js';
import { hashToken } from '../src/interfaces/http/auth.js';
import { McpHttpSessions } from '../src/interfaces/mcp/http.js';
import { testCacheDir } from './cache-dir.js';
import { tempDir, testEngram } from './helpers.js';
import { startTestService, TOKEN_CONFIG, TOKENS } from './http-helpers.js';
import { connectMcp } from './mcp-helpers.js';

const CLI = resolve(import.meta.dirname, '..', 'dist', 'bin', 'engram.js');
const ACCEPT = 'application/json, text/event-stream';

const open: Client[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
});

interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** Settles once the server has answered the client's GET stream request. */
  streamOpened: Promise<void>;
  /** Settles once the body of that GET stream has ended. */
  streamEnded: Promise<void>;
}

/**
 * An SDK client connected to `${url}/mcp`, with `token` as its bearer token. Its fetch is watched
 * so a test can wait for the server's GET stream to open and to end.
 */
async function connectHttp(url: string, token?: string): Promise<Connected> {
  let opened!: () => void;
  let ended!: () => void;
  const streamOpened = new Promise<void>((r) => (opened = r));
  const streamEnded = new Promise<void>((r) => (ended = r));
  const watched: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if ((init?.method ?? 'GET') !== 'GET' || !res.ok || !res.body) return res;
    opened();
    const body = res.body.pipeThrough(new TransformStream({ flush: () => ended() }));
    return new Response(body, { status: res.status, headers: res.headers });
  };
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    fetch: watched,
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
    // The server ends GET streams only when it closes: do not reconnect to a closed server.
    reconnectionOptions: {
      maxRetries: 0,
      initialReconnectionDelay: 1,
      maxReconnectionDelay: 1,
      reconnectionDelayGrowFactor: 1,
    },
  });
  const client = new Client({ name: 'engram-http-test', version: '1.0.0' });
  client.onerror = () => undefined;
  await client.connect(transport);
  open.push(client);
  return { client, transport, streamOpened, streamEnded };
}

/** Calls a tool; returns its structured content and whether it is an error. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { isError: result.isError === true, content: result.structuredContent as any };
}

/** A raw POST of one JSON-RPC message to `/mcp`. */
function post(url: string, message: unknown, headers: Record<string, string> = {}) {
  return fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: ACCEPT, ...headers },
    body: JSON.stringify(message),
  });
}

const LIST = { jsonrpc: '2.0', id: 7, method: 'tools/list' };

describe('MCP over HTTP', () => {
  it('lists the same tools as the stdio server of the same factory', async () => {
    const s = await startTestService();
    const { client } = await connectHttp(s.url);
    const overHttp = (await client.listTools()).tools;
    const inProcess = (await (await connectMcp(s.service.engram)).listTools()).tools;
    expect(overHttp.map((t) => t.name)).toEqual(inProcess.map((t) => t.name));
    expect(overHttp).toEqual(inProcess);
    expect(overHttp.map((t) => t.name)).toEqual(expect.arrayContaining(['remember', 'recall']));
  });

  it('remembers, then recalls what it remembered', async () => {
    const s = await startTestService();
    const { client } = await connectHttp(s.url);
    const stored = await call(client, 'remember', {
      body: 'The billing service deploys every Tuesday at noon.',
      kind: 'fact',
    });
    expect(stored.isError).toBe(false);
    expect(stored.content.created).toBe(true);
    const found = await call(client, 'recall', { query: 'when does billing deploy' });
    expect(found.isError).toBe(false);
    expect(found.content.hits[0].id).toBe(stored.content.memory.id);
    const again = await s.service.engram.get(stored.content.memory.id);
    expect(again.body).toBe('The billing service deploys every Tuesday at noon.');
  });

  it('makes each MCP session one write session', async () => {
    const s = await startTestService();
    const a = await connectHttp(s.url);
    const b = await connectHttp(s.url);
    expect(a.transport.sessionId).toBeDefined();
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
    const a1 = await call(a.client, 'remember', { body: 'First turn of conversation A.' });
    const b1 = await call(b.client, 'remember', { body: 'First turn of conversation B.' });
    const a2 = await call(a.client, 'remember', { body: 'Second turn of conversation A.' });
    const sourceOf = (r: { content: { memory: { source: unknown } } }) =>
      r.content.memory.source as { session: string; turn: number };
    expect(sourceOf(a2).session).toBe(sourceOf(a1).session);
    expect(sourceOf(a2).turn).toBe(sourceOf(a1).turn + 1);
    expect(sourceOf(b1).session).not.toBe(sourceOf(a1).session);
  });

  it('answers an unknown session id with 404, and a request without one with 400', async () => {
    const s = await startTestService();
    const unknown = await post(s.url, LIST, { 'mcp-session-id': 'no-such-session' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 } });
    const get = await fetch(`${s.url}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(400);
    const notInitialized = await post(s.url, LIST);
    expect(notInitialized.status).toBe(400);
  });

  it('ends a session on DELETE', async () => {
    const s = await startTestService();
    const { client, transport } = await connectHttp(s.url);
    const id = transport.sessionId!;
    expect((await post(s.url, LIST, { 'mcp-session-id': id })).status).toBe(200);
    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
    const after = await post(s.url, LIST, { 'mcp-session-id': id });
    expect(after.status).toBe(404);
    await expect(client.listTools()).rejects.toThrow();
  });

  it('caps a body as /v1 does, with the same error', async () => {
    const s = await startTestService({ server: { max_body_bytes: 4_096 } });
    const big = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: 'x'.repeat(5_000) } };
    const mcp = await post(s.url, big);
    const v1 = await s.request('POST', '/v1/spaces/default/memories', {
      json: { body: 'x'.repeat(5_000) },
    });
    expect(mcp.status).toBe(413);
    expect(v1.status).toBe(413);
    expect(await mcp.json()).toEqual(v1.body);
  });

  it('refuses a browser origin that is neither loopback nor configured', async () => {
    const s = await startTestService();
    const evil = await post(s.url, LIST, { origin: 'http://attacker.example:8765' });
    expect(evil.status).toBe(403);
    expect(await evil.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    const local = await post(s.url, LIST, { origin: 'http://localhost:5173' });
    expect(local.status).toBe(400); // past the origin check: no session, not an initialize
  });
});

describe('MCP over HTTP: tokens, spaces and roles', () => {
  const withTokens = () => startTestService({ server: { tokens: TOKEN_CONFIG } });

  it('refuses a missing or unknown token with the 401 of /v1', async () => {
    const s = await withTokens();
    const none = await post(s.url, LIST);
    const v1 = await s.request('GET', '/v1/spaces/team-a/memories');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await none.json()).toEqual(v1.body);
    const wrong = await post(s.url, LIST, { authorization: 'Bearer not-a-real-token-xyz' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain('not-a-real-token-xyz');
    await expect(connectHttp(s.url)).rejects.toMatchObject({ code: 401 });
  });

  it('refuses a token of space A in space B, naming the space, and acts in its own space by default', async () => {
    const s = await withTokens();
    const { client } = await connectHttp(s.url, TOKENS.writerA);
    const foreign = await call(client, 'remember', { body: 'Sneaking into B.', space: 'team-b' });
    expect(foreign.isError).toBe(true);
    expect(foreign.content.error.code).toBe('FORBIDDEN');
    expect(foreign.content.error.message).toContain('team-b');
    const recall = await call(client, 'recall', { query: 'anything', space: 'team-b' });
    expect(recall.content.error.code).toBe('FORBIDDEN');
    expect((await s.service.engram.list({ space: 'team-b' })).items).toHaveLength(0);

    const own = await call(client, 'remember', { body: 'Team A ships on Mondays.' });
    expect(own.isError).toBe(false);
    expect(own.content.memory.space).toBe('team-a');
    // The token's name is the actor of its changes, as on /v1.
    const history = await s.service.engram.history(own.content.memory.id, { space: 'team-a' });
    expect(JSON.stringify(history)).toContain('writer-a');
  });

  it('lets a read-only token read but not write, and keeps admin work for admins', async () => {
    const s = await withTokens();
    await s.service.engram.remember({ body: 'Team A uses PostgreSQL 16.', space: 'team-a' });
    const reader = (await connectHttp(s.url, TOKENS.readerA)).client;
    const write = await call(reader, 'remember', { body: 'Readers cannot write this.' });
    expect(write.isError).toBe(true);
    expect(write.content.error).toMatchObject({ code: 'FORBIDDEN' });
    expect(write.content.error.message).toContain('write');
    const read = await call(reader, 'recall', { query: 'PostgreSQL' });
    expect(read.isError).toBe(false);
    expect(read.content.hits).toHaveLength(1);
    const settings = await call(reader, 'configure_auto_recall', {});
    expect(settings.isError).toBe(false);
    expect((await call(reader, 'configure_auto_recall', { enabled: true })).isError).toBe(true);

    const writer = (await connectHttp(s.url, TOKENS.writerA)).client;
    const dream = await call(writer, 'dream_run', { dry_run: true });
    expect(dream.content.error).toMatchObject({ code: 'FORBIDDEN' });
    const admin = (await connectHttp(s.url, TOKENS.admin)).client;
    expect((await call(admin, 'dream_run', { dry_run: true, space: 'team-a' })).isError).toBe(
      false,
    );
  });

  it('shows store-wide facts in status only to an admin of every space', async () => {
    const s = await withTokens();
    const reader = (await connectHttp(s.url, TOKENS.readerA)).client;
    const scoped = await call(reader, 'status');
    expect(scoped.content.space).toBe('team-a');
    expect(scoped.content.store).not.toHaveProperty('location');
    expect(scoped.content).not.toHaveProperty('jobs');
    const admin = (await connectHttp(s.url, TOKENS.admin)).client;
    expect((await call(admin, 'status')).content.store).toHaveProperty('location');
  });

  it('keeps a session to the token that opened it', async () => {
    const s = await withTokens();
    const { transport } = await connectHttp(s.url, TOKENS.writerA);
    const id = transport.sessionId!;
    const asOwner = await post(s.url, LIST, {
      'mcp-session-id': id,
      authorization: `Bearer ${TOKENS.writerA}`,
    });
    expect(asOwner.status).toBe(200);
    const asOther = await post(s.url, LIST, {
      'mcp-session-id': id,
      authorization: `Bearer ${TOKENS.writerB}`,
    });
    expect(asOther.status).toBe(404);
  });
});

describe('MCP over HTTP: session bounds and shutdown', () => {
  it('closes the least recently used session past the limit', async () => {
    const engram = testEngram();
    const sessions = new McpHttpSessions(engram, { log: silentLogger, maxSessions: 2 });
    const app = createHttpApp(engram, { log: silentLogger, mcp: sessions });
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }) as unknown as Server;
    await new Promise<void>((r) => server.once('listening', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const first = await connectHttp(url);
      const second = await connectHttp(url);
      // Once both GET streams are open, a call makes the first the least recently used.
      await Promise.all([first.streamOpened, second.streamOpened]);
      await second.client.listTools();
      const third = await connectHttp(url);
      expect(sessions.size).toBe(2);
      const stale = await post(url, LIST, { 'mcp-session-id': first.transport.sessionId! });
      expect(stale.status).toBe(404);
      expect((await second.client.listTools()).tools.length).toBeGreaterThan(0);
      expect((await third.client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await sessions.close();
      expect(sessions.size).toBe(0);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('closes with sessions and their streams open, and refuses MCP afterwards', async () => {
    const s = await startTestService();
    const a = await connectHttp(s.url);
    const b = await connectHttp(s.url);
    await Promise.all([a.streamOpened, b.streamOpened]);
    await call(a.client, 'remember', { body: 'Stored before the server stops.' });
    await s.service.close();
    // The server ended both GET streams itself: nothing is left running.
    await Promise.all([a.streamEnded, b.streamEnded]);
    await expect(fetch(`${s.url}/mcp`)).rejects.toThrow();
  });
});

describe('MCP over HTTP: engram serve (built CLI)', () => {
  it('serves /mcp with tokens from its configuration and stops on SIGTERM', async () => {
    const dir = tempDir();
    const config = join(dir, 'engram.yaml');
    writeFileSync(
      config,
      stringify({
        store: { path: join(dir, 'engram.db') },
        embedder: { cache_dir: testCacheDir() },
        server: {
          port: 0,
          tokens: [
            { name: 'agent', hash: hashToken(TOKENS.writerA), role: 'write', spaces: ['team-a'] },
          ],
        },
      }),
    );
    const { child, url, stdout } = await startServe(config, dir);
    try {
      expect(stdout()).toContain(`MCP: ${url}/mcp`);
      await expect(connectHttp(url)).rejects.toMatchObject({ code: 401 });
      const { client } = await connectHttp(url, TOKENS.writerA);
      const stored = await call(client, 'remember', { body: 'The CLI server speaks MCP.' });
      expect(stored.content.memory.space).toBe('team-a');
      const found = await call(client, 'recall', { query: 'CLI server MCP' });
      expect(found.content.hits[0].id).toBe(stored.content.memory.id);
      const refused = await call(client, 'recall', { query: 'x', space: 'team-b' });
      expect(refused.content.error.code).toBe('FORBIDDEN');
    } finally {
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});

/** Starts `engram --config FILE serve` and resolves with its URL once it listens. */
function startServe(
  config: string,
  home: string,
): Promise<{ child: ChildProcess; url: string; stdout: () => string }> {
  const child = spawn(process.execPath, [CLI, '--config', config, 'serve'], {
    env: { PATH: process.env.PATH ?? '', HOME: home },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolvePromise, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(out)?.[1];
      if (url) resolvePromise({ child, url, stdout: () => out });
    });
    child.once('exit', (code) => reject(new Error(`engram serve exited with ${code}: ${err}`)));
  });
}
