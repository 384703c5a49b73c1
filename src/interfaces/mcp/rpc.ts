/**
 * JSON-RPC errors engram answers itself, outside the SDK's request handlers: the error a handler
 * throws to answer with a given code, and the error response for a message the server rejects
 * before any handler sees it (parse errors, invalid requests, oversized messages, bad params).
 */
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/** A JSON-RPC error response; `id` is null when the request's id could not be read. */
export interface RpcErrorResponse {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string; data?: Record<string, unknown> };
}

/**
 * An error a request handler throws to answer with `code` and exactly `message`. The SDK sends a
 * thrown error's `code`, `message` and `data`; its McpError would put "MCP error <code>:" into the
 * message, and the client's McpError adds the same prefix again.
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

/** The error response with `id` (null if unknown), `code`, `message` and optional `data`. */
export function rpcErrorResponse(
  id: RequestId | null,
  code: number,
  message: string,
  data?: Record<string, unknown>,
): RpcErrorResponse {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data ? { data } : {}) } };
}
