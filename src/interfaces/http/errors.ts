/**
 * The HTTP edge of the error mapping: every failure becomes `{error: {code, message, details}}`
 * with the status of HTTP_STATUS[code]. Server faults are logged with the request id and reported
 * as INTERNAL without their message or stack; secrets are never echoed.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

import { EngramError, type ErrorCode, isEngramError } from '../../domain/errors.js';
import type { Logger } from '../../domain/log.js';
import { HTTP_STATUS } from '../error-codes.js';
import type { HttpEnv } from './env.js';

/** The JSON body of every error response. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; details: Record<string, unknown> };
}

/** Framework exceptions (raised before engram code runs) as engram errors. */
function fromHttpException(e: HTTPException): EngramError {
  if (e.status === 413) return new EngramError('PAYLOAD_TOO_LARGE', 'request body is too large');
  if (e.status === 415)
    return new EngramError('INVALID_INPUT', 'Content-Type must be application/json', {
      field: 'Content-Type',
      rule: 'application/json',
    });
  if (e.status === 400)
    return new EngramError('INVALID_INPUT', e.message || 'bad request', { rule: 'valid request' });
  return new EngramError('INTERNAL', 'internal error');
}

/** Maps anything thrown to an engram error safe to show the caller, logging server faults. */
export function publicError(err: unknown, log: Logger, requestId: string): EngramError {
  if (isEngramError(err) && err.code !== 'INTERNAL' && err.code !== 'CONFIG_INVALID') return err;
  if (err instanceof HTTPException) {
    const mapped = fromHttpException(err);
    if (mapped.code !== 'INTERNAL') return mapped;
  }
  log.error('request failed', {
    request_id: requestId,
    error: err instanceof Error ? (err.stack ?? err.message) : String(err),
  });
  return new EngramError(
    'INTERNAL',
    `internal error; the engram server log has the details (request ${requestId})`,
  );
}

/** The error response for anything thrown while handling a request. */
export function errorResponse(c: Context<HttpEnv>, err: unknown, log: Logger): Response {
  const requestId = c.get('requestId') ?? '-';
  if (c.req.raw.signal.aborted) {
    // The client left mid-request (its body never arrived whole): nobody to answer, no fault.
    log.info('client left before the response', { request_id: requestId });
    return c.body(null, 400);
  }
  const e = publicError(err, log, requestId);
  const body: ErrorBody = { error: e.toJSON() };
  if (e.code === 'UNAUTHORIZED') c.header('WWW-Authenticate', 'Bearer realm="engram"');
  return c.json(body, HTTP_STATUS[e.code] as ContentfulStatusCode);
}
