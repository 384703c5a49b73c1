/**
 * The one mapping of error codes at each edge: CLI exit codes, HTTP statuses. MCP returns tool
 * errors (`isError: true`) carrying the code, so it needs no table.
 */
import type { ErrorCode } from '../domain/errors.js';

/** CLI exit codes. 0 is success; 10 means some items of a batch failed while the rest were applied. */
export const EXIT_CODES: Readonly<Record<ErrorCode | 'OK' | 'USAGE' | 'PARTIAL', number>> = {
  OK: 0,
  INTERNAL: 1,
  USAGE: 2,
  INVALID_INPUT: 2,
  PAYLOAD_TOO_LARGE: 2,
  NOT_FOUND: 3,
  CONFLICT: 4,
  CONFIG_INVALID: 5,
  STORE_UNAVAILABLE: 6,
  STORE_READ_ONLY: 6,
  STORE_BUSY: 7,
  EMBEDDER_UNAVAILABLE: 8,
  UNAUTHORIZED: 9,
  FORBIDDEN: 9,
  PARTIAL: 10,
};

/** HTTP statuses for error codes. */
export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  INVALID_INPUT: 400,
  CONFIG_INVALID: 500,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  STORE_BUSY: 503,
  STORE_UNAVAILABLE: 503,
  STORE_READ_ONLY: 503,
  EMBEDDER_UNAVAILABLE: 503,
  INTERNAL: 500,
};
