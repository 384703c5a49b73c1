/**
 * The one rule for errors at every edge. Each error code says who must act on it — the caller
 * (fix the request) or the server's operator (its configuration, store, embedder or code) — and
 * what each edge answers: the HTTP status, the CLI exit code and the MCP outcome.
 *
 * - A server fault is logged where the edge catches it; a caller fault is not (it is the answer).
 * - The caller sees the code, message and details of every error except INTERNAL: INTERNAL wraps
 *   whatever was thrown (driver text, paths, secrets), so its message stays in the server log.
 *   Every other message is written by engram for its reader and names a field and a rule.
 * - MCP: a tool that ran and failed answers with a tool result `isError: true` carrying
 *   `{error: {code, message, details}}`, caller and server faults alike. The model reads it and can
 *   act (fix an argument, try again after STORE_BUSY, tell the user the configuration is wrong);
 *   the SDK's own tool server turns every failure of a tool into such a result as well. JSON-RPC
 *   errors are left to requests that reach no tool: an unknown tool is InvalidParams (-32602, the
 *   caller's fault); anything that escapes the tool wrapper is InternalError (-32603), never a
 *   caller-fault code.
 */
import { EngramError, type ErrorCode, toEngramError } from '../domain/errors.js';

/** Who must act on an error: the caller (fix the request) or the server's operator. */
export type Fault = 'caller' | 'server';

/** How the MCP edge answers a failed tool call (see the file header). */
export type McpOutcome = 'tool_error';

/** What every edge does with one error code. */
export interface ErrorRule {
  fault: Fault;
  /** HTTP status: 4xx for caller faults, 5xx for server faults. */
  http: number;
  /** CLI exit code. */
  exit: number;
  /** The MCP answer (see the file header). */
  mcp: McpOutcome;
  /**
   * Whether an MCP or HTTP caller sees the message and details, or only the code. The CLI prints
   * every message: its user runs it on their own machine, and its stderr is that user's log.
   */
  shown: boolean;
}

const caller = (http: number, exit: number): ErrorRule => ({
  fault: 'caller',
  http,
  exit,
  mcp: 'tool_error',
  shown: true,
});
const server = (http: number, exit: number, shown = true): ErrorRule => ({
  fault: 'server',
  http,
  exit,
  mcp: 'tool_error',
  shown,
});

/** The rule of every error code. */
export const ERROR_RULES: Readonly<Record<ErrorCode, Readonly<ErrorRule>>> = {
  INVALID_INPUT: caller(400, 2),
  PAYLOAD_TOO_LARGE: caller(413, 2),
  NOT_FOUND: caller(404, 3),
  CONFLICT: caller(409, 4),
  UNAUTHORIZED: caller(401, 9),
  FORBIDDEN: caller(403, 9),
  // The configuration is the operator's, never the request's: a server fault on every edge.
  CONFIG_INVALID: server(500, 5),
  STORE_UNAVAILABLE: server(503, 6),
  STORE_READ_ONLY: server(503, 6),
  STORE_BUSY: server(503, 7),
  EMBEDDER_UNAVAILABLE: server(503, 8),
  // A service cannot listen where its configuration says: another process holds the address.
  ADDRESS_IN_USE: server(500, 11),
  INTERNAL: server(500, 1, false),
};

/** What an edge does with anything thrown: the error its caller sees, and whether to log the original. */
export interface EdgeError {
  error: EngramError;
  /** True for server faults: the edge logs the original error (message and stack) first. */
  log: boolean;
}

/**
 * Applies the rule to anything thrown at an edge. Unknown failures are INTERNAL (a server fault is
 * never the caller's); an error whose message is not shown is replaced by its code and a pointer
 * to the server log, `ref` naming the entry (e.g. the request id).
 */
export function edgeError(err: unknown, ref?: string): EdgeError {
  const error = toEngramError(err);
  const rule = ERROR_RULES[error.code];
  const pointer = `the engram server log has the details${ref ? ` (${ref})` : ''}`;
  return {
    error: rule.shown ? error : new EngramError(error.code, `internal error; ${pointer}`),
    log: rule.fault === 'server',
  };
}

/**
 * CLI exit codes. 0 is success; 10 means some items of a batch failed while the rest were applied.
 * `engram doctor` exits with the code of its first failed check (docs/doctor.md).
 */
export const EXIT_CODES: Readonly<Record<ErrorCode | 'OK' | 'USAGE' | 'PARTIAL', number>> = {
  OK: 0,
  USAGE: 2,
  PARTIAL: 10,
  ...(Object.fromEntries(
    Object.entries(ERROR_RULES).map(([code, rule]) => [code, rule.exit]),
  ) as Record<ErrorCode, number>),
};
