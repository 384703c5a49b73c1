/**
 * engram's MCP stdio transport: the SDK's Transport interface over stdin/stdout, with the SDK's
 * line framing and message schema, that answers bad input instead of going silent. The SDK's
 * StdioServerTransport drops a line that is not JSON-RPC without a word, and closes the whole
 * connection (the server then exits 0) when one message outgrows its read buffer. Here:
 * - a line that is not JSON is answered with -32700 (id null), one that is not JSON-RPC with -32600;
 * - a message over `maxMessageBytes` is skipped to its newline and answered with -32600 when its
 *   id can be read from its beginning, and logged as a warning either way;
 * - the transport stays open until stdin ends or close() is called.
 */
import type { Readable, Writable } from 'node:stream';

import {
  serializeMessage,
  STDIO_DEFAULT_MAX_BUFFER_SIZE,
} from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

import { type Logger, silentLogger } from '../../domain/log.js';
import { decodeLine, recoverId } from './decode.js';
import { type Line, LineReader } from './line-reader.js';
import { type RpcErrorResponse, rpcErrorResponse } from './rpc.js';

/** Options of EngramStdioTransport. */
export interface StdioTransportOptions {
  stdin?: Readable;
  stdout?: Writable;
  /** The largest message read, in bytes (default: the SDK's stdio limit, 10 MiB). */
  maxMessageBytes?: number;
  /** Where rejected input is reported (default: nowhere). */
  log?: Logger;
}

/** The MCP server transport over stdin/stdout that survives malformed and oversized messages. */
export class EngramStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly stdin: Readable;
  private readonly stdout: Writable;
  private readonly maxBytes: number;
  private readonly log: Logger;
  private readonly reader: LineReader;
  private started = false;

  constructor(options: StdioTransportOptions = {}) {
    this.stdin = options.stdin ?? process.stdin;
    this.stdout = options.stdout ?? process.stdout;
    this.maxBytes = options.maxMessageBytes ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
    this.log = options.log ?? silentLogger;
    this.reader = new LineReader(this.maxBytes);
  }

  /** Starts reading stdin. */
  async start(): Promise<void> {
    if (this.started) throw new Error('EngramStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.ondata);
    this.stdin.on('error', this.onStdinError);
  }

  /** Writes one message as a line on stdout; resolves once it is written or buffered. */
  async send(message: JSONRPCMessage): Promise<void> {
    return this.write(serializeMessage(message));
  }

  /** Stops reading stdin (pausing it when nothing else reads it). */
  async close(): Promise<void> {
    this.stdin.off('data', this.ondata);
    this.stdin.off('error', this.onStdinError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.reader.clear();
    this.onclose?.();
  }

  private readonly ondata = (chunk: Buffer): void => {
    for (const line of this.reader.push(chunk)) this.receive(line);
  };

  private readonly onStdinError = (error: Error): void => {
    this.onerror?.(error);
  };

  private receive(line: Line): void {
    if ('oversized' in line) return this.oversized(line.oversized.bytes, line.oversized.head);
    const decoded = decodeLine(line.text);
    if ('message' in decoded) {
      this.onmessage?.(decoded.message);
      return;
    }
    this.log.info('MCP message rejected', { error: decoded.reject.error.message });
    this.answer(decoded.reject);
  }

  private oversized(bytes: number, head: string): void {
    const id = recoverId(head);
    const limit = this.maxBytes;
    this.log.warn(
      `MCP message of ${bytes} bytes exceeds the limit of ${limit} bytes; dropped` +
        (id === undefined ? ' (no id to answer)' : ', answered with an error'),
      id === undefined ? undefined : { id },
    );
    if (id === undefined) return;
    const message = `message of ${bytes} bytes exceeds the limit of ${limit} bytes`;
    this.answer(rpcErrorResponse(id, ErrorCode.InvalidRequest, message, { bytes, limit }));
  }

  private answer(response: RpcErrorResponse): void {
    void this.write(`${JSON.stringify(response)}\n`);
  }

  private write(line: string): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(line)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }
}
