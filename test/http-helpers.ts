/** Helpers of the HTTP tests: a real service on an ephemeral 127.0.0.1 port, stopped after each test. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { serve } from '@hono/node-server';
import { afterEach } from 'vitest';

import type { Engram } from '../src/app.js';
import type { ConfigInput } from '../src/config/schema.js';
import { type Logger, silentLogger } from '../src/domain/log.js';
import { createHttpApp } from '../src/interfaces/http/app.js';
import { hashToken } from '../src/interfaces/http/auth.js';
import { type HttpService, startHttpService } from '../src/interfaces/http/service.js';
import { tempDir, testConfig } from './helpers.js';

const running: HttpService[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.close();
});

/** A response as the tests read it. */
export interface Reply {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
}

/** A running test service and a small client for it. */
export interface TestService {
  url: string;
  service: HttpService;
  dir: string;
  request(
    method: string,
    path: string,
    options?: {
      json?: unknown;
      body?: RequestInit['body'];
      token?: string;
      headers?: Record<string, string>;
    },
  ): Promise<Reply>;
}

/** Tokens used by the auth tests: name -> plain token. */
export const TOKENS = {
  readerA: 'tok-reader-a-0123456789',
  writerA: 'tok-writer-a-0123456789',
  writerB: 'tok-writer-b-0123456789',
  admin: 'tok-admin-all-0123456789',
} as const;

/** server.tokens entries for TOKENS (hashed, as in a real configuration). */
export const TOKEN_CONFIG = [
  { name: 'reader-a', hash: hashToken(TOKENS.readerA), role: 'read' as const, spaces: ['team-a'] },
  { name: 'writer-a', hash: hashToken(TOKENS.writerA), role: 'write' as const, spaces: ['team-a'] },
  { name: 'writer-b', hash: hashToken(TOKENS.writerB), role: 'write' as const, spaces: ['team-b'] },
  { name: 'admin', hash: hashToken(TOKENS.admin), role: 'admin' as const, spaces: ['*'] },
];

/** Starts a service on a fresh store at 127.0.0.1 on a free port. */
export async function startTestService(extra: ConfigInput = {}): Promise<TestService> {
  const dir = tempDir();
  const service = await startHttpService({
    config: testConfig(dir, { ...extra, server: { port: 0, ...extra.server } }),
    env: {},
    log: silentLogger,
  });
  running.push(service);
  return { url: service.url, service, dir, request: client(service.url) };
}

/** A small client of a server at `url`: JSON bodies, bearer tokens, parsed JSON replies. */
export function client(url: string): TestService['request'] {
  return async (method, path, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    }
    const res = await fetch(`${url}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = undefined;
    if ((res.headers.get('content-type') ?? '').includes('application/json'))
      parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed, text };
  };
}

/** The HTTP app over a given engram (a test double, say) on a real 127.0.0.1 socket. */
export async function serveEngram(
  engram: Engram,
  log: Logger = silentLogger,
): Promise<{ request: TestService['request']; close(): Promise<void> }> {
  const app = createHttpApp(engram, { log });
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }) as unknown as Server;
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    request: client(`http://127.0.0.1:${port}`),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Parses a JSONL response body. */
export function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
