/**
 * What the Node HTTP server does before a request reaches the app: its timeouts (a client that
 * sends its headers slowly, or its body forever, is cut off) and its answer to requests the HTTP
 * parser rejects (oversized headers or URL, a malformed request, a timeout). Those answers carry
 * the same JSON error envelope as every other error, instead of Node's empty body.
 */
import { randomUUID } from 'node:crypto';
import { maxHeaderSize, type ServerOptions } from 'node:http';
import type { Duplex } from 'node:stream';

import type { Config } from '../../config/schema.js';
import { EngramError } from '../../domain/errors.js';
import type { Logger } from '../../domain/log.js';
import type { ErrorBody } from '../responses/errors.js';

/** How often Node checks its connections against the header and request timeouts. */
const CHECK_INTERVAL_MS = 1_000;

/** Node server options from `server.*`: header and request timeouts, checked every second. */
export function serverTimeouts(settings: Config['server']): ServerOptions {
  return {
    headersTimeout: settings.headers_timeout_ms,
    requestTimeout: settings.request_timeout_ms,
    connectionsCheckingInterval: CHECK_INTERVAL_MS,
  };
}

/** The parser's error as an HTTP status and an engram error naming the problem. */
function parserError(err: NodeJS.ErrnoException, settings: Config['server']) {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        error: new EngramError(
          'PAYLOAD_TOO_LARGE',
          `request headers (with the URL) are too large: at most ${maxHeaderSize} bytes`,
          { field: 'headers', rule: `at most ${maxHeaderSize} bytes` },
        ),
      };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return {
        status: 413,
        error: new EngramError('PAYLOAD_TOO_LARGE', 'request chunk extensions are too large', {
          field: 'body',
          rule: 'chunk extensions within limits',
        }),
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        error: new EngramError('INVALID_INPUT', 'the request did not arrive in time', {
          rule: `headers within ${settings.headers_timeout_ms} ms, the whole request within ${settings.request_timeout_ms} ms`,
        }),
      };
    default:
      return {
        status: 400,
        error: new EngramError('INVALID_INPUT', 'malformed HTTP request', {
          rule: 'valid HTTP/1.1',
        }),
      };
  }
}

/** A complete HTTP/1.1 response with a JSON error body, after which the connection closes. */
function rawResponse(status: number, error: EngramError): string {
  const body: ErrorBody = { error: error.toJSON() };
  const json = JSON.stringify(body);
  return [
    `HTTP/1.1 ${status} ${reason(status)}`,
    'Content-Type: application/json; charset=UTF-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    `X-Request-Id: ${randomUUID()}`,
    'Connection: close',
    '',
    json,
  ].join('\r\n');
}

function reason(status: number): string {
  const reasons: Record<number, string> = {
    400: 'Bad Request',
    408: 'Request Timeout',
    413: 'Payload Too Large',
    431: 'Request Header Fields Too Large',
  };
  return reasons[status] ?? 'Bad Request';
}

/**
 * The server's `clientError` listener: answers with the JSON envelope when nothing was written on
 * the connection yet (as Node's own handler would with an empty body), then closes it.
 */
export function clientErrorHandler(settings: Config['server'], log: Logger) {
  return (err: NodeJS.ErrnoException, socket: Duplex): void => {
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, error } = parserError(err, settings);
    log.info('request rejected by the HTTP parser', { status, code: err.code ?? 'unknown' });
    const written = (socket as Duplex & { bytesWritten?: number }).bytesWritten ?? 0;
    if (written > 0) {
      socket.destroy();
      return;
    }
    socket.end(rawResponse(status, error));
  };
}
