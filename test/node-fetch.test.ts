/**
 * The CLI's fetch over node:http (what the hooks' client runs on): a request's method, headers and
 * body arrive; the answer's status, headers and text come back; a refused connection rejects as
 * fetch does (a TypeError whose cause names the system error); an abort ends a request that hangs.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach, describe, expect, it } from 'vitest';

import { nodeFetch } from '../src/interfaces/cli/node-fetch.js';

const servers: ReturnType<typeof createServer>[] = [];

afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((ok) => s.close(ok));
  }
});

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('nodeFetch', () => {
  it('sends method, headers and body; answers status, headers and text', async () => {
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        res.writeHead(req.url === '/gone' ? 404 : 201, {
          'content-type': 'application/json',
          'x-request-id': 'r-1',
        });
        res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization, body }));
      });
    });
    const res = await nodeFetch(`${url}/v1/x?a=1`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{"ü":1}',
    });
    expect(res.status).toBe(201);
    expect(res.ok).toBe(true);
    expect(res.headers.get('X-Request-Id')).toBe('r-1');
    expect(res.headers.get('retry-after')).toBeNull();
    expect(JSON.parse(await res.text())).toEqual({
      method: 'POST',
      auth: 'Bearer t',
      body: '{"ü":1}',
    });
    const missing = await nodeFetch(`${url}/gone`);
    expect(missing.ok).toBe(false);
  });

  it('rejects a refused connection as fetch does, and ends a hanging request on abort', async () => {
    const url = await serve(() => undefined);
    const closed = await serve(() => undefined);
    servers.pop()!.close();
    const refused = await nodeFetch(closed).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as { cause: { code: string } }).cause.code).toBe('ECONNREFUSED');
    const controller = new AbortController();
    const hanging = nodeFetch(url, { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort(new Error('stop'));
    expect(((await hanging) as Error).message).toBe('stop');
    const already = await nodeFetch(url, { signal: controller.signal }).catch((e: unknown) => e);
    expect((already as Error).message).toBe('stop');
  });
});
