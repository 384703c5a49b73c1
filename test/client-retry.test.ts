/**
 * The typed HTTP client's retries, time limit and abort, against small stand-in HTTP servers on
 * 127.0.0.1 that answer as told (503 then 200, 429 with Retry-After, a dropped connection, no
 * answer at all). Waits between attempts are tiny or injected; the tests wait on the stand-in's
 * signals, never on time.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { EngramClient, EngramClientError, type EngramClientOptions } from '../src/client/index.js';
import { backoffMs, retryAfterMs, retryOptions, sleep } from '../src/client/retry.js';

/** How a stand-in answers one request. */
type Responder = (req: IncomingMessage, res: ServerResponse) => void;

/** A request the stand-in received. */
interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/**
 * A stand-in server answering request n with `responders[n]` (the last one repeats), and a
 * promise per request that resolves when it arrives.
 */
async function standIn(...responders: Responder[]) {
  const seen: Seen[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method!,
        url: req.url!,
        authorization: req.headers.authorization,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      waiters.splice(0).forEach((w) => w());
      responders[Math.min(seen.length, responders.length) - 1]!(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  /** Resolves once `n` requests have arrived. */
  const arrived = async (n: number) => {
    while (seen.length < n) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { url: `http://127.0.0.1:${port}`, seen, arrived };
}

const reply =
  (status: number, body: unknown, headers: Record<string, string> = {}): Responder =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
const busy = (headers: Record<string, string> = {}, status = 503) =>
  reply(
    status,
    { error: { code: 'STORE_BUSY', message: 'the store is busy; try again', details: {} } },
    headers,
  );
const MEMORY = { id: '01MEMORY', body: 'Deploys happen on Thursdays.' };
const drop: Responder = (req) => req.socket.destroy();
const hold: Responder = () => undefined;

/** A client of a stand-in, with tiny back-off and the waits it was asked to make recorded. */
function clientOf(url: string, options: EngramClientOptions = {}) {
  const waits: number[] = [];
  const client = new EngramClient({
    baseUrl: url,
    token: 'tok-stand-in',
    space: 'default',
    retry: { baseDelayMs: 1 },
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return { client, waits };
}

async function failure(call: Promise<unknown>): Promise<EngramClientError> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EngramClientError);
  return err as EngramClientError;
}

describe('EngramClient retries (stand-in servers)', () => {
  it('a stand-in answering 503 then 200: a GET is made again and answers the 200', async () => {
    const s = await standIn(busy(), reply(200, MEMORY));
    const { client } = clientOf(s.url, { sleep });
    expect(await client.get('01MEMORY')).toEqual(MEMORY);
    expect(s.seen.map((r) => [r.method, r.url, r.authorization])).toEqual([
      ['GET', '/v1/spaces/default/memories/01MEMORY', 'Bearer tok-stand-in'],
      ['GET', '/v1/spaces/default/memories/01MEMORY', 'Bearer tok-stand-in'],
    ]);
  });

  it('a stand-in answering 429 and 503 with Retry-After: a remember waits as asked, then succeeds', async () => {
    const created = { memory: MEMORY, created: true };
    const s = await standIn(
      busy({ 'retry-after': '2' }, 429),
      busy({ 'retry-after': '0.5' }),
      reply(201, created),
    );
    const { client, waits } = clientOf(s.url);
    expect(await client.remember({ body: MEMORY.body })).toEqual(created);
    expect(waits).toEqual([2000, 500]);
    expect(s.seen.map((r) => r.body)).toEqual(Array(3).fill(JSON.stringify({ body: MEMORY.body })));
  });

  it('a stand-in that stays 503: bounded attempts with exponential back-off, then its error', async () => {
    const s = await standIn(busy());
    const { client, waits } = clientOf(s.url, {
      retry: { attempts: 4, baseDelayMs: 100, maxDelayMs: 300 },
      random: () => 0,
    });
    const err = await failure(client.list());
    expect([err.code, err.status, err.attempts]).toEqual(['STORE_BUSY', 503, 4]);
    expect(s.seen).toHaveLength(4);
    // base * 2^(n-1), capped at maxDelayMs, times a jitter of 0.5 with random() = 0.
    expect(waits).toEqual([50, 100, 150]);
  });

  it('a stand-in asking for a Retry-After beyond the time limit: the call ends at once', async () => {
    const s = await standIn(busy({ 'retry-after': '60' }));
    const { client, waits } = clientOf(s.url, { timeoutMs: 5_000 });
    const err = await failure(client.recall({ query: 'deploys' }));
    expect([err.code, err.attempts, waits]).toEqual(['STORE_BUSY', 1, []]);
  });

  it('a stand-in that drops the connection: idempotent calls retry, other writes fail UNAVAILABLE', async () => {
    const s = await standIn(drop, reply(200, MEMORY));
    const { client } = clientOf(s.url);
    expect(await client.get('01MEMORY')).toEqual(MEMORY);
    expect(s.seen).toHaveLength(2);
    const t = await standIn(drop, reply(200, { results: [] }));
    expect(await clientOf(t.url).client.importSessions([])).toEqual([]);
    expect(t.seen).toHaveLength(2);
    const u = await standIn(drop, reply(201, { memory: MEMORY, created: true }));
    const err = await failure(clientOf(u.url).client.remember({ body: 'x' }));
    expect([err.code, err.status, err.attempts]).toEqual(['UNAVAILABLE', 0, 1]);
    expect(u.seen).toHaveLength(1);
  });

  it('a stand-in that closed: UNAVAILABLE after the bounded attempts', async () => {
    const s = await standIn(reply(200, MEMORY));
    const server = servers.pop()!;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const err = await failure(clientOf(s.url).client.get('01MEMORY'));
    expect([err.code, err.attempts]).toEqual(['UNAVAILABLE', 3]);
    expect(err.message).toMatch(/ECONNREFUSED/);
  });

  it('a stand-in answering without the envelope: the status decides the code, nothing retried', async () => {
    const s = await standIn((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<h1>Bad gateway</h1>');
    });
    const err = await failure(clientOf(s.url).client.status());
    expect([err.code, err.status, err.message]).toEqual([
      'UNAVAILABLE',
      502,
      'HTTP 502: <h1>Bad gateway</h1>',
    ]);
    const t = await standIn((_req, res) => res.end('not json'));
    expect((await failure(clientOf(t.url).client.status())).code).toBe('BAD_RESPONSE');
    expect(s.seen.length + t.seen.length).toBe(2);
  });
});

describe('EngramClient abort and time limit (stand-in servers)', () => {
  it('an aborted signal ends a call before it starts, while it waits for an answer, or while it backs off', async () => {
    const s = await standIn(hold);
    const { client } = clientOf(s.url);
    expect((await failure(client.get('x', { signal: AbortSignal.abort() }))).code).toBe('ABORTED');
    expect(s.seen).toHaveLength(0);

    const waiting = new AbortController();
    const call = failure(client.get('x', { signal: waiting.signal }));
    await s.arrived(1);
    waiting.abort();
    expect((await call).code).toBe('ABORTED');

    const t = await standIn(busy({ 'retry-after': '30' }));
    let backingOff!: () => void;
    const entered = new Promise<void>((resolve) => (backingOff = resolve));
    const backoff = new AbortController();
    const slow = new EngramClient({
      baseUrl: t.url,
      space: 'default',
      timeoutMs: 0,
      sleep: (ms, signal) => {
        backingOff();
        return sleep(ms, signal);
      },
    });
    const pending = failure(slow.recall({ query: 'x', signal: backoff.signal }));
    await entered;
    backoff.abort();
    const err = await pending;
    expect([err.code, err.status, t.seen.length]).toEqual(['ABORTED', 0, 1]);
  });

  it('a stand-in that never answers: the time limit ends the call with TIMEOUT', async () => {
    const s = await standIn(hold);
    const { client } = clientOf(s.url, { timeoutMs: 60_000 });
    const err = await failure(client.get('x', { timeoutMs: 50 }));
    expect([err.code, err.status]).toEqual(['TIMEOUT', 0]);
    expect(err.message).toMatch(/no answer within 50 ms/);
  });
});

describe('the retry rules', () => {
  it('reads Retry-After in seconds or as an HTTP date', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2_000);
    expect(retryAfterMs('Tue, 01 Jan 2030 00:00:07 GMT', now)).toBe(7_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });

  it('backs off exponentially with jitter in [0.5, 1) of the capped wait', () => {
    const options = retryOptions({ baseDelayMs: 100, maxDelayMs: 1_000 });
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(n, options, () => 0.999))).toEqual([
      100, 200, 400, 800, 1000,
    ]);
    expect(backoffMs(3, options, () => 0)).toBe(200);
    expect(() => retryOptions({ attempts: 0 })).toThrow(
      /retry.attempts: must be a number of at least 1/,
    );
  });
});
