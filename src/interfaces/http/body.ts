/**
 * Request bodies of the HTTP API: JSON bodies read under a byte cap with errors that say what is
 * wrong (size, UTF-8, JSON syntax and where), and JSONL streams split into lines under per-line
 * and total caps, without buffering the whole stream.
 */
import type { MiddlewareHandler } from 'hono';

import { EngramError, isEngramError } from '../../domain/errors.js';
import type { HttpEnv } from './env.js';

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

function tooLarge(what: string, max: number, details: Record<string, unknown> = {}): EngramError {
  return new EngramError('PAYLOAD_TOO_LARGE', `${what} exceeds ${max} bytes`, {
    rule: `at most ${max} bytes`,
    ...details,
  });
}

async function readLimited(chunks: AsyncIterable<Uint8Array>, max: number): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > max) throw tooLarge('request body', max, { field: '(body)' });
    parts.push(chunk);
  }
  return Buffer.concat(parts, size);
}

function decodeUtf8(bytes: Uint8Array, details: Record<string, unknown>): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new EngramError('INVALID_INPUT', 'request body is not valid UTF-8', {
      rule: 'UTF-8',
      ...details,
    });
  }
}

/**
 * Reads a JSON request body (at most `maxBytes`) and checks it parses, so a broken body gets a
 * 400 naming the problem; the route's zod validator then reads the checked text.
 * Bodies of other media types pass through to the route's own media-type check.
 */
export function parseJsonBody(maxBytes: number): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const type = c.req.header('content-type');
    if (!type || !JSON_TYPE.test(type)) {
      if (!type && !announcesBody(c.req.header.bind(c.req))) c.set('emptyBody', true);
      return next();
    }
    // On a Node server, read the request itself: it skips building a web stream for every body.
    const source = c.env?.incoming ?? c.req.raw.body;
    if (!source) return next();
    if (Number(c.req.header('content-length') ?? 0) > maxBytes)
      throw tooLarge('request body', maxBytes, { field: '(body)' });
    const chunks = source as unknown as AsyncIterable<Uint8Array>;
    let text = decodeUtf8(await readLimited(chunks, maxBytes), { field: '(body)' });
    // Some clients send a JSON content type with no body: treat it as an empty object (a route
    // whose fields are all optional then runs; one that needs a field says the body is empty).
    if (text.trim() === '') {
      c.set('emptyBody', true);
      text = '{}';
    }
    try {
      JSON.parse(text);
    } catch (err) {
      throw new EngramError(
        'INVALID_INPUT',
        `request body is not valid JSON: ${(err as Error).message}`,
        { field: '(body)', rule: 'valid JSON' },
      );
    }
    // The route's validator reads the body through Hono's body cache, which holds promises at
    // run time (its type says otherwise): hand it the checked text.
    (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
    await next();
  };
}

/** Whether a request's headers announce body bytes (a length above 0, or a chunked body). */
function announcesBody(header: (name: string) => string | undefined): boolean {
  return Number(header('content-length') ?? 0) > 0 || header('transfer-encoding') !== undefined;
}

interface Issue {
  field: string;
  rule: string;
}

/** A zod rule broken only because the value is absent. */
const isMissing = (issue: Issue) => /received undefined|required/i.test(issue.rule);

/**
 * The error for a request sent without a body that needs one: instead of naming each absent field
 * as if it had been sent wrong, it says the body is empty and which fields it must carry. Other
 * errors, and errors of requests that had a body, pass through unchanged.
 */
export function explainEmptyBody(err: unknown, emptyBody: boolean): unknown {
  if (!emptyBody || !isEngramError(err) || err.code !== 'INVALID_INPUT') return err;
  const { details } = err;
  const issues = (details.issues as Issue[] | undefined) ?? [
    { field: String(details.field ?? ''), rule: String(details.rule ?? '') },
  ];
  if (issues.length === 0 || !issues.every(isMissing)) return err;
  const fields = [...new Set(issues.map((i) => i.field))];
  return new EngramError(
    'INVALID_INPUT',
    `request body is empty: send a JSON object with ${fields.join(', ')} (Content-Type: application/json)`,
    { field: '(body)', rule: 'a JSON object', missing: fields },
  );
}

/** Caps of a JSONL stream. */
export interface LineLimits {
  maxBytes: number;
  maxLineBytes: number;
}

/**
 * Splits a UTF-8 byte stream into lines (without `\n` or a trailing `\r`). Throws
 * PAYLOAD_TOO_LARGE when a line or the whole stream exceeds its cap, and INVALID_INPUT for a line
 * that is not UTF-8; the error names the line.
 */
export async function* ndjsonLines(
  stream: ReadableStream<Uint8Array> | null,
  limits: LineLimits,
): AsyncGenerator<string> {
  if (!stream) return;
  let pieces: Buffer[] = [];
  let pending = 0;
  let total = 0;
  let line = 1;
  const finish = (last: Buffer): string => {
    const bytes = pieces.length ? Buffer.concat([...pieces, last]) : last;
    pieces = [];
    pending = 0;
    const text = decodeUtf8(bytes, { line });
    line++;
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  };
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > limits.maxBytes) throw tooLarge('import stream', limits.maxBytes, { line });
    let data = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let nl = data.indexOf(0x0a); nl !== -1; nl = data.indexOf(0x0a)) {
      if (pending + nl > limits.maxLineBytes)
        throw tooLarge(`line ${line}`, limits.maxLineBytes, { line });
      yield finish(data.subarray(0, nl));
      data = data.subarray(nl + 1);
    }
    pending += data.byteLength;
    if (pending > limits.maxLineBytes)
      throw tooLarge(`line ${line}`, limits.maxLineBytes, { line });
    if (data.byteLength) pieces.push(Buffer.from(data));
  }
  if (pending > 0) yield finish(Buffer.alloc(0));
}
