/**
 * Turns one line read from MCP stdio into a JSON-RPC message, or into the error response the
 * server answers instead: -32700 for a line that is not JSON, -32600 for JSON that is not a
 * JSON-RPC 2.0 message. Also reads the id of a message too large to parse from its beginning.
 */
import {
  ErrorCode,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

import { type RpcErrorResponse, rpcErrorResponse } from './rpc.js';

/** A decoded line: the message, or the error response that answers it. */
export type Decoded = { message: JSONRPCMessage } | { reject: RpcErrorResponse };

/** Decodes one line of the stdio stream (without its newline). */
export function decodeLine(line: string): Decoded {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { reject: rpcErrorResponse(null, ErrorCode.ParseError, `Parse error: ${why}`) };
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) return { message: parsed.data };
  return {
    reject: rpcErrorResponse(
      idOf(value),
      ErrorCode.InvalidRequest,
      'Invalid Request: not a JSON-RPC 2.0 request, notification or response',
    ),
  };
}

function idOf(value: unknown): RequestId | null {
  if (typeof value !== 'object' || value === null || !('id' in value)) return null;
  const { id } = value as { id: unknown };
  return isRequestId(id) ? id : null;
}

function isRequestId(id: unknown): id is RequestId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
}

const ID_VALUE = /^\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/;

/**
 * The top-level `id` of a JSON object from the first part of its text, if that part holds it;
 * keys and strings nested deeper are skipped, so a nested `id` is never taken for the request's.
 */
export function recoverId(head: string): RequestId | undefined {
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head[i];
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === '"') {
      const end = closingQuote(head, i);
      if (end < 0) return undefined;
      if (depth === 1 && head.slice(i, end + 1) === '"id"') {
        const match = ID_VALUE.exec(head.slice(end + 1, end + 1 + 1024));
        if (match) return idFrom(match[1]!);
      }
      i = end;
    }
  }
  return undefined;
}

function idFrom(token: string): RequestId | undefined {
  try {
    const id: unknown = JSON.parse(token);
    return isRequestId(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The index of the quote closing the string opened at `open`, or -1 if the text ends first. */
function closingQuote(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}
