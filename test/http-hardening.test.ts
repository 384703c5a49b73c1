/**
 * What the Node HTTP parser rejects before the app runs, on a real socket: oversized headers or
 * URL answer 431 with the JSON error envelope (not Node's empty body), and a client that sends
 * its headers slowly is answered 408 and cut off after `server.headers_timeout_ms`. Also: the
 * graph component of `/v1/health` (SPEC §13).
 */
import { connect } from 'node:net';

import { describe, expect, it } from 'vitest';

import { loadConfig } from '../src/config/load.js';
import { serverTimeouts } from '../src/interfaces/http/client-errors.js';
import { HealthSchema } from '../src/interfaces/responses/status.js';
import { startTestService } from './http-helpers.js';

/** A raw HTTP reply: status, headers and body. */
interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parseReply(raw: string): RawReply {
  const [head = '', ...rest] = raw.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: rest.join('\r\n\r\n'),
  };
}

/** Writes raw bytes and reads until the server closes the connection. */
function rawRequest(url: string, text: string) {
  const { hostname, port } = new URL(url);
  return new Promise<RawReply>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(text));
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => resolve(parseReply(Buffer.concat(chunks).toString('utf8'))));
  });
}

describe('HTTP parser errors', () => {
  it('answers a 20 KB header with 431 and the JSON error envelope', async () => {
    const s = await startTestService();
    const head = `GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`;
    const reply = await rawRequest(s.url, head);
    expect(reply.status).toBe(431);
    expect(reply.headers['content-type']).toContain('application/json');
    const body = JSON.parse(reply.body) as {
      error: { code: string; message: string; details: object };
    };
    expect(body.error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: { field: 'headers' },
    });
    expect(body.error.message).toContain('headers');
  });

  it('answers an oversized URL with 431 and the JSON error envelope', async () => {
    const s = await startTestService();
    const reply = await rawRequest(
      s.url,
      `GET /v1/health?q=${'b'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(reply.status).toBe(431);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('answers a malformed request with 400 and the JSON error envelope', async () => {
    const s = await startTestService();
    const reply = await rawRequest(s.url, 'NOT HTTP AT ALL\r\n\r\n');
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: 'INVALID_INPUT' } });
  });

  it('cuts off a client that sends its headers too slowly', async () => {
    const s = await startTestService({ server: { headers_timeout_ms: 1_000 } });
    // The headers never end: only the server's timeout can close the connection (without it the
    // test runs into its own timeout).
    const reply = await rawRequest(s.url, 'GET /v1/health HTTP/1.1\r\nHost: x\r\n');
    expect(reply.status).toBe(408);
    expect(JSON.parse(reply.body)).toMatchObject({ error: { code: 'INVALID_INPUT' } });
  });

  it('defaults to a 10 s header timeout and a request timeout longer than it', () => {
    const { server } = loadConfig({ env: {} });
    expect(server).toMatchObject({ headers_timeout_ms: 10_000, request_timeout_ms: 1_800_000 });
    expect(serverTimeouts(server)).toMatchObject({
      headersTimeout: 10_000,
      requestTimeout: 1_800_000,
    });
    expect(() =>
      loadConfig({
        env: {},
        overrides: { server: { headers_timeout_ms: 20_000, request_timeout_ms: 5_000 } },
      }),
    ).toThrow(/request_timeout_ms/u);
  });
});

describe('GET /v1/health graph component', () => {
  it('reports the graph as on and supported by the store', async () => {
    const s = await startTestService({ server: { tokens: [] } });
    const res = await s.request('GET', '/v1/health');
    expect(res.status).toBe(200);
    const health = HealthSchema.parse(res.body);
    expect(health.components.graph).toEqual({ status: 'ok', enabled: true, supported: true });
  });

  it('reports the graph as off when graph.enabled is false, without degrading health', async () => {
    const s = await startTestService({ server: { tokens: [] }, graph: { enabled: false } });
    const res = await s.request('GET', '/v1/health');
    expect(res.status).toBe(200);
    const health = HealthSchema.parse(res.body);
    expect(health.components.graph).toEqual({ status: 'off', enabled: false, supported: true });
    expect(health.status).not.toBe('down');
  });
});
