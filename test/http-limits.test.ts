/**
 * Bad input over HTTP on a real server: body and batch limits (413), malformed JSON, bad UTF-8,
 * unknown fields, wrong types and media types (400), streamed import caps, clients that leave
 * mid-request, and server faults that must not leak.
 */
import { connect } from 'node:net';

import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { silentLogger } from '../src/domain/log.js';
import { createHttpApp } from '../src/interfaces/http/app.js';
import { testEngram } from './helpers.js';
import { jsonLines, startTestService } from './http-helpers.js';

const M = '/v1/spaces/default/memories';

/** One HTTP/1.1 chunk of a chunked body. */
function chunk(text: string): string {
  return `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
}

/** Sends raw bytes on a socket, then drops the connection without waiting for an answer. */
async function sendAndHangUp(url: string, head: string, body: string): Promise<void> {
  const { hostname, port } = new URL(url);
  await new Promise<void>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(head + body, () => {
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
    });
    socket.on('error', reject);
  });
}

describe('HTTP limits', () => {
  it('rejects a body over server.max_body_bytes with 413, with or without Content-Length', async () => {
    const s = await startTestService({ server: { max_body_bytes: 2_048 } });
    const big = { body: 'x'.repeat(3_000) };
    const declared = await s.request('POST', M, { json: big });
    expect(declared.status).toBe(413);
    expect(declared.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const bytes = new TextEncoder().encode(JSON.stringify(big));
    const chunked = await fetch(`${s.url}${M}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(c) {
          c.enqueue(bytes.slice(0, 1_500));
          c.enqueue(bytes.slice(1_500));
          c.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await s.service.engram.list()).items).toHaveLength(0);
  });

  it('rejects a batch over limits.max_batch_items with 413 and stores nothing', async () => {
    const s = await startTestService({ limits: { max_batch_items: 3 } });
    const items = Array.from({ length: 4 }, (_, i) => ({ body: `item ${i}` }));
    const res = await s.request('POST', `${M}/batch`, { json: { items } });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      details: { field: 'items' },
    });
    expect((await s.service.engram.list()).items).toHaveLength(0);
  });

  it('a memory body over limits.max_body_bytes is INVALID_INPUT naming body', async () => {
    const s = await startTestService({ limits: { max_body_bytes: 100 } });
    const res = await s.request('POST', M, { json: { body: 'y'.repeat(101) } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      details: { field: 'body', rule: 'must be at most 100 bytes' },
    });
  });
});

describe('HTTP bad input', () => {
  it('malformed JSON and bad UTF-8 are 400 with a message saying what is wrong', async () => {
    const s = await startTestService();
    const broken = await s.request('POST', M, {
      body: '{"body": "x",',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    expect(broken.body.error.message).toMatch(/^request body is not valid JSON: .*position/);
    const utf8 = await s.request('POST', M, {
      body: Buffer.from([0x7b, 0x22, 0x62, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      headers: { 'content-type': 'application/json' },
    });
    expect(utf8.status).toBe(400);
    expect(utf8.body.error.message).toBe('request body is not valid UTF-8');
    const array = await s.request('POST', M, { json: ['not', 'an', 'object'] });
    expect(array.status).toBe(400);
    const empty = await s.request('POST', M, {
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    // An empty body is named as such, not as a `body` field sent wrong.
    expect(empty.body.error).toMatchObject({
      code: 'INVALID_INPUT',
      message:
        'request body is empty: send a JSON object with body (Content-Type: application/json)',
      details: { field: '(body)', missing: ['body'] },
    });
    const none = await s.request('POST', M);
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(/^request body is empty: send a JSON object with body/);
    const recall = await s.request('POST', '/v1/spaces/default/recall');
    expect(recall.body.error.details).toMatchObject({ field: '(body)', missing: ['query'] });
    // A body that was sent still has its fields named.
    const sent = await s.request('POST', M, { json: { title: 'no body' } });
    expect(sent.body.error.details.field).toBe('body');
    const id = (await s.request('POST', M, { json: { body: 'pin me' } })).body.memory.id;
    const pin = await s.request('POST', `${M}/${id}/pin`, {
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(pin.body.pinned).toBe(true);
  });

  it('unknown fields, wrong types and bad path values are 400 naming the field', async () => {
    const s = await startTestService();
    const unknown = await s.request('POST', M, { json: { body: 'x', colour: 'red' } });
    expect(unknown.body.error).toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'colour' },
    });
    const spaceInBody = await s.request('POST', M, { json: { body: 'x', space: 'other' } });
    expect(spaceInBody.body.error.details.field).toBe('space');
    const type = await s.request('POST', '/v1/spaces/default/recall', {
      json: { query: 'x', k: '5' },
    });
    expect(type.body.error).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'k' } });
    const query = await s.request('GET', `${M}?limit=0`);
    expect(query.body.error.details.field).toBe('limit');
    const unknownQuery = await s.request('GET', `${M}?colour=red`);
    expect(unknownQuery.body.error.details.field).toBe('colour');
    const space = await s.request('GET', '/v1/spaces/-bad!/memories');
    expect(space.status).toBe(400);
    expect(space.body.error.details.field).toBe('space');
    const id = await s.request('GET', `${M}/not%20an%20id`);
    expect(id.body.error.details.field).toBe('id');
  });

  it('a JSON route refuses another media type with a clear message', async () => {
    const s = await startTestService();
    const res = await s.request('POST', M, {
      body: 'body=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Content-Type must be application/json');
  });
});

describe('HTTP streamed import caps', () => {
  it('a line over max_import_line_bytes stops the import with an error line; earlier batches stay', async () => {
    const s = await startTestService({ server: { max_import_line_bytes: 1_024 } });
    const lines = [
      ...Array.from({ length: 3 }, (_, i) => JSON.stringify({ body: `line ${i + 1}` })),
      JSON.stringify({ body: 'z'.repeat(2_000) }),
      JSON.stringify({ body: 'never read' }),
    ];
    const res = await fetch(`${s.url}/v1/spaces/default/import`, {
      method: 'POST',
      body: `${lines.join('\n')}\n`,
    });
    const out = jsonLines(await res.text());
    expect(out.at(-1)).toMatchObject({
      error: { code: 'PAYLOAD_TOO_LARGE', details: { line: 4 } },
    });
    const committed = out.filter((r) => r.status === 'created').length;
    const stored = (await s.service.engram.list()).items.map((m) => m.body);
    expect(stored).toHaveLength(committed);
    expect(stored).not.toContain('never read');
  });

  it('a declared import stream over max_import_bytes is 413 before reading', async () => {
    const s = await startTestService({ server: { max_import_bytes: 1_024 } });
    const res = await s.request('POST', '/v1/spaces/default/import', {
      body: `${JSON.stringify({ body: 'q'.repeat(2_000) })}\n`,
    });
    expect(res.status).toBe(413);
  });
});

describe('HTTP clients that leave mid-request', () => {
  it('a JSON body cut short writes nothing and the server keeps serving', async () => {
    const s = await startTestService();
    await sendAndHangUp(
      s.url,
      `POST ${M} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n`,
      '{"body": "half a memo',
    );
    await sendAndHangUp(
      s.url,
      `POST /v1/spaces/default/import HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n`,
      chunk('{"body": "import line one"}\n{"body": "cut sh'),
    );
    const health = await s.request('GET', '/v1/health');
    expect(health.status).toBe(200);
    const stored = (await s.service.engram.list()).items.map((m) => m.body);
    expect(stored.every((b) => b === 'import line one')).toBe(true);
    expect(stored).not.toContain('half a memo');
    expect((await s.request('POST', M, { json: { body: 'still works' } })).status).toBe(201);
  });
});

describe('HTTP server faults', () => {
  it('are INTERNAL (500) without their message (test double service that throws)', async () => {
    const engram = testEngram();
    const faulty = Object.create(engram) as Engram;
    faulty.recall = async () => {
      throw new Error('sqlite at /home/secret/engram.db: password=hunter2');
    };
    const app = createHttpApp(faulty, { log: silentLogger });
    const res = await app.request('/v1/spaces/default/recall', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'anything' }),
    });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text).error.code).toBe('INTERNAL');
    expect(text).not.toMatch(/hunter2|secret|sqlite/);
  });

  it('health is 503 "down" when the store does not answer (test double health)', async () => {
    const engram = testEngram();
    const broken = Object.create(engram) as Engram;
    broken.health = async () => ({
      store: { ok: false, backend: 'sqlite', reason: 'STORE_UNAVAILABLE' },
      embedder: { available: false, reason: 'no embedder configured (embedder.provider: none)' },
    });
    const res = await createHttpApp(broken, { log: silentLogger }).request('/v1/health');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      status: 'down',
      components: {
        store: { status: 'down' },
        embedder: { status: 'off' },
        worker: { status: 'off' },
      },
    });
  });
});
