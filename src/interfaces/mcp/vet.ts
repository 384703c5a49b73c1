/**
 * Checks the shape of `tools/call` params before the SDK does. The SDK parses a request against
 * its schema before any handler runs, and a mismatch (say `"arguments": [1, 2]`) comes back as
 * -32603 Internal error carrying the whole validation dump. engram answers -32602 Invalid params
 * naming the field instead, on any transport: VettedTransport wraps the one the server connects.
 */
import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  isJSONRPCRequest,
  type JSONRPCMessage,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';

import { type RpcErrorResponse, rpcErrorResponse } from './rpc.js';

/** The field of `tools/call` params that breaks its shape, and the rule it breaks. */
function badCallField(params: Record<string, unknown>): { field: string; rule: string } | null {
  if (typeof params.name !== 'string') return { field: 'name', rule: 'must be a string' };
  const args = params.arguments;
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
    return { field: 'arguments', rule: 'must be an object of named arguments' };
  return null;
}

/** The -32602 answer to a `tools/call` request whose params have the wrong shape, else null. */
export function vetToolCall(message: JSONRPCMessage): RpcErrorResponse | null {
  if (!isJSONRPCRequest(message) || message.method !== 'tools/call') return null;
  const bad = badCallField(message.params ?? {});
  if (!bad) return null;
  return rpcErrorResponse(
    message.id,
    ErrorCode.InvalidParams,
    `invalid tools/call params: ${bad.field} ${bad.rule}`,
    { field: bad.field },
  );
}

/** A transport that answers malformed `tools/call` requests itself and passes on the rest. */
export class VettedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  constructor(private readonly inner: Transport) {}

  /** The inner transport's session id. */
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  /** Links the inner transport's events to this one's, then starts it. */
  async start(): Promise<void> {
    this.inner.onclose = () => this.onclose?.();
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onmessage = (message, extra) => this.receive(message, extra);
    await this.inner.start();
  }

  /** Sends through the inner transport. */
  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  /** Closes the inner transport. */
  close(): Promise<void> {
    return this.inner.close();
  }

  /** Passes the negotiated protocol version on. */
  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  private receive(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    const rejected = vetToolCall(message);
    if (!rejected) return this.onmessage?.(message, extra);
    // The SDK's error response type has no null id; a vetted request always has its id.
    this.send(rejected as JSONRPCMessage).catch((error: unknown) =>
      this.onerror?.(error instanceof Error ? error : new Error(String(error))),
    );
  }
}
