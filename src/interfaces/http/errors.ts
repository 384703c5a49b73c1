/**
 * The HTTP edge of the error rule (../error-codes.ts): every failure becomes
 * `{error: {code, message, details}}` with the status of its code. Server faults are logged with
 * the request id; INTERNAL is reported without its message or stack; secrets are never echoed.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

import { EngramError } from '../../domain/errors.js';
import type { Logger } from '../../domain/log.js';
import { edgeError, ERROR_RULES } from '../error-codes.js';
import type { ErrorBody } from '../responses/errors.js';
import { explainEmptyBody } from './body.js';
import type { HttpEnv } from './env.js';

/** Framework exceptions (raised before engram code runs) as engram errors; others unchanged. */
function fromHttpException(err: unknown): unknown {
  if (!(err instanceof HTTPException)) return err;
  if (err.status === 413) return new EngramError('PAYLOAD_TOO_LARGE', 'request body is too large');
  if (err.status === 415)
    return new EngramError('INVALID_INPUT', 'Content-Type must be application/json', {
      field: 'Content-Type',
      rule: 'application/json',
    });
  if (err.status === 400)
    return new EngramError('INVALID_INPUT', err.message || 'bad request', {
      rule: 'valid request',
    });
  return err;
}

/** Maps anything thrown to an engram error safe to show the caller, logging server faults. */
export function publicError(err: unknown, log: Logger, requestId: string): EngramError {
  const { error, log: serverFault } = edgeError(fromHttpException(err), `request ${requestId}`);
  if (serverFault)
    log.error('request failed', {
      request_id: requestId,
      code: error.code,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
  return error;
}

/** The error response for anything thrown while handling a request. */
export function errorResponse(c: Context<HttpEnv>, err: unknown, log: Logger): Response {
  const requestId = c.get('requestId') ?? '-';
  if (c.req.raw.signal.aborted) {
    // The client left mid-request (its body never arrived whole): nobody to answer, no fault.
    log.info('client left before the response', { request_id: requestId });
    return c.body(null, 400);
  }
  const e = publicError(explainEmptyBody(err, c.get('emptyBody') === true), log, requestId);
  const body: ErrorBody = { error: e.toJSON() };
  if (e.code === 'UNAUTHORIZED') c.header('WWW-Authenticate', 'Bearer realm="engram"');
  return c.json(body, ERROR_RULES[e.code].http as ContentfulStatusCode);
}
