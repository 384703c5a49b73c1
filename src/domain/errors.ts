/**
 * Typed errors of engram. Every failure that reaches a caller is an EngramError with a string
 * code; each edge (CLI, MCP, HTTP) maps the code once, in its own error mapping.
 */

/** Error codes, one per kind of failure a caller can act on. */
export const ERROR_CODES = [
  'INVALID_INPUT',
  'NOT_FOUND',
  'CONFLICT',
  'CONFIG_INVALID',
  'STORE_UNAVAILABLE',
  'STORE_BUSY',
  'STORE_READ_ONLY',
  'EMBEDDER_UNAVAILABLE',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'PAYLOAD_TOO_LARGE',
  'ADDRESS_IN_USE',
  'INTERNAL',
] as const;

/** One of the error codes in {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Structured details attached to an error: the offending field, the rule, or ids. */
export interface ErrorDetails {
  field?: string;
  rule?: string;
  id?: string;
  line?: number;
  [key: string]: unknown;
}

/** The one error type engram throws to callers. */
export class EngramError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails;

  constructor(
    code: ErrorCode,
    message: string,
    details: ErrorDetails = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'EngramError';
    this.code = code;
    this.details = details;
  }

  /** A plain JSON form for edges: code, message and details, never a stack. */
  toJSON(): { code: ErrorCode; message: string; details: ErrorDetails } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** Shorthand for an INVALID_INPUT error naming the field and the rule it broke. */
export function invalidInput(field: string, rule: string, message?: string): EngramError {
  return new EngramError('INVALID_INPUT', message ?? `${field}: ${rule}`, { field, rule });
}

/** Shorthand for a NOT_FOUND error about a memory or other object id. */
export function notFound(what: string, id: string): EngramError {
  return new EngramError('NOT_FOUND', `${what} ${id} not found`, { id });
}

/** True when the value is an EngramError (also across module copies). */
export function isEngramError(value: unknown): value is EngramError {
  return (
    value instanceof EngramError ||
    (value instanceof Error && value.name === 'EngramError' && 'code' in value)
  );
}

/**
 * Wraps anything thrown into an EngramError. Unknown failures become INTERNAL: a server fault is
 * never reported as the caller's fault.
 */
export function toEngramError(value: unknown): EngramError {
  if (isEngramError(value)) return value;
  const message = value instanceof Error ? value.message : String(value);
  return new EngramError('INTERNAL', `internal error: ${message}`, {}, { cause: value });
}
