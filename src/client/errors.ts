/**
 * The client's one error type: engram's error envelope (`{error: {code, message, details}}`) as
 * the server answered it, with the HTTP status; or, when no engram answer came, a client code
 * saying why (`UNAVAILABLE`, `TIMEOUT`, `ABORTED`, `RATE_LIMITED`, `BAD_RESPONSE`).
 */
import type { ErrorCode, ErrorDetails } from '../domain/errors.js';

/** Codes of failures where the client got no engram answer to report. */
export const CLIENT_ERROR_CODES = [
  'UNAVAILABLE',
  'TIMEOUT',
  'ABORTED',
  'RATE_LIMITED',
  'BAD_RESPONSE',
] as const;

/** A code of {@link CLIENT_ERROR_CODES}. */
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[number];

/** What an EngramClientError's code can be: the server's codes and the client's own. */
export type EngramClientErrorCode = ErrorCode | ClientErrorCode;

/** The fields of an EngramClientError. */
export interface EngramClientErrorInit {
  code: EngramClientErrorCode;
  message: string;
  /** The HTTP status; 0 when no answer came. */
  status: number;
  details?: ErrorDetails;
  /** The server's `X-Request-Id`, naming the request in the server's log. */
  requestId?: string;
  /** Attempts made, retries included. */
  attempts?: number;
  cause?: unknown;
}

/** A failed client call: engram's error code, message and details, with the HTTP status. */
export class EngramClientError extends Error {
  /** engram's error code (`INVALID_INPUT`, `NOT_FOUND`, ...) or a client code. */
  readonly code: EngramClientErrorCode;
  /** The HTTP status of the answer; 0 when none came. */
  readonly status: number;
  /** The error's details: `field` and `rule` for invalid input, and the like. */
  readonly details: ErrorDetails;
  /** The server's `X-Request-Id`, when it answered. */
  readonly requestId: string | undefined;
  /** Attempts made, retries included. */
  readonly attempts: number;

  constructor(init: EngramClientErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'EngramClientError';
    this.code = init.code;
    this.status = init.status;
    this.details = init.details ?? {};
    this.requestId = init.requestId;
    this.attempts = init.attempts ?? 1;
  }

  /** The error envelope's form: code, message and details (never a stack). */
  toJSON(): { code: EngramClientErrorCode; message: string; details: ErrorDetails } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** True when the value is an EngramClientError (also across module copies). */
export function isEngramClientError(value: unknown): value is EngramClientError {
  return (
    value instanceof EngramClientError ||
    (value instanceof Error && value.name === 'EngramClientError' && 'code' in value)
  );
}

/** The code of an answer that carries no engram envelope (a proxy's page, say), by its status. */
function codeOfStatus(status: number): EngramClientErrorCode {
  if (status === 400 || status === 408) return 'INVALID_INPUT';
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 409) return 'CONFLICT';
  if (status === 413 || status === 431) return 'PAYLOAD_TOO_LARGE';
  if (status === 429) return 'RATE_LIMITED';
  if (status >= 500) return 'UNAVAILABLE';
  return 'BAD_RESPONSE';
}

/** The envelope's error, when the text is one. */
function envelopeOf(
  text: string,
): { code: string; message: string; details?: Record<string, unknown> } | undefined {
  try {
    const error = (JSON.parse(text) as { error?: unknown })?.error;
    if (typeof error !== 'object' || error === null) return undefined;
    const { code, message, details } = error as Record<string, unknown>;
    if (typeof code !== 'string' || typeof message !== 'string') return undefined;
    const fields = typeof details === 'object' && details !== null ? details : undefined;
    return { code, message, details: fields as Record<string, unknown> | undefined };
  } catch {
    return undefined;
  }
}

/** The error an HTTP error answer stands for: its envelope, else its status. */
export function errorFromAnswer(
  status: number,
  text: string,
  requestId: string | undefined,
  attempts: number,
): EngramClientError {
  const envelope = envelopeOf(text);
  if (envelope)
    return new EngramClientError({
      code: envelope.code as EngramClientErrorCode,
      message: envelope.message,
      status,
      details: envelope.details,
      requestId,
      attempts,
    });
  const excerpt = text.replace(/\s+/g, ' ').trim().slice(0, 200);
  return new EngramClientError({
    code: codeOfStatus(status),
    message: `HTTP ${status}${excerpt ? `: ${excerpt}` : ''}`,
    status,
    requestId,
    attempts,
  });
}
