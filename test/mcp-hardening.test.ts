/**
 * The MCP stdio server survives what a client can throw at it: a malformed line, a message that is
 * not JSON-RPC, tool arguments of the wrong shape, an unknown tool and a message larger than the
 * read limit. Each gets a clear JSON-RPC error (or, when its id cannot be recovered, a warning on
 * stderr) and the next request is still answered. Drives the built `engram mcp` with raw lines.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { recoverId } from '../src/interfaces/mcp/decode.js';
import { LineReader } from '../src/interfaces/mcp/line-reader.js';
import { testCacheDir } from './cache-dir.js';
import { tempDir } from './helpers.js';

const CLI = resolve(import.meta.dirname, '..', 'dist', 'bin', 'engram.js');

type Id = string | number | null;
interface RpcError {
  code: number;
  message: string;
  data?: Record<string, unknown>;
}
interface Answer {
  id: Id;
  result?: Record<string, unknown>;
  error?: RpcError;
}

/** A spawned `engram mcp` spoken to in raw JSON-RPC lines. */
class RawMcp {
  readonly stderr: string[] = [];
  private readonly answers: Answer[] = [];
  private readonly waiters: (() => void)[] = [];
  private readonly exited: Promise<number | null>;

  constructor(private readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      this.answers.push(JSON.parse(line) as Answer);
      for (const wake of this.waiters.splice(0)) wake();
    });
    child.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk.toString()));
    // A write after the server died is reported by answer(), not as an unhandled EPIPE.
    child.stdin.on('error', () => undefined);
    this.exited = new Promise((done) => child.once('exit', (code) => done(code)));
    void this.exited.then(() => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Writes one line (a newline is appended). */
  write(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  /** Sends a request and waits for the answer with its id. */
  async request(id: number, method: string, params: object = {}): Promise<Answer> {
    this.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return this.answer(id);
  }

  /** Waits for the next answer with `id` not yet taken (fails if the server exits first). */
  async answer(id: Id): Promise<Answer> {
    for (;;) {
      const at = this.answers.findIndex((a) => a.id === id);
      if (at >= 0) return this.answers.splice(at, 1)[0]!;
      if (this.child.exitCode !== null) {
        throw new Error(`server exited (${this.child.exitCode}): ${this.stderr.join('')}`);
      }
      await new Promise<void>((wake) => this.waiters.push(wake));
    }
  }

  /** Closes stdin and returns the exit code. */
  async close(): Promise<number | null> {
    this.child.stdin.end();
    return this.exited;
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill();
  }
}

const running: RawMcp[] = [];
afterEach(() => {
  while (running.length) running.pop()!.kill();
});

async function startMcp(): Promise<RawMcp> {
  expect(existsSync(CLI), `${CLI} is missing: run npm run build`).toBe(true);
  const dir = tempDir();
  const config = join(dir, 'engram.yaml');
  writeFileSync(
    config,
    stringify({ store: { path: join(dir, 'engram.db') }, embedder: { cache_dir: testCacheDir() } }),
  );
  // No ENGRAM_LOG_LEVEL: what must be seen is logged at the default level.
  const child = spawn(process.execPath, [CLI, '--config', config, 'mcp'], {
    env: { PATH: process.env.PATH ?? '', HOME: dir },
  });
  const mcp = new RawMcp(child);
  running.push(mcp);
  const init = await mcp.request(1, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'engram-hardening', version: '1.0.0' },
  });
  expect(init.result?.serverInfo).toMatchObject({ name: 'engram' });
  mcp.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return mcp;
}

/** The server still answers: tools/list with a fresh id. */
async function stillUp(mcp: RawMcp, id: number): Promise<void> {
  const listed = await mcp.request(id, 'tools/list');
  expect(listed.error).toBeUndefined();
  expect((listed.result?.tools as unknown[]).length).toBeGreaterThan(0);
}

describe('engram mcp over stdio survives bad input', () => {
  it('answers a malformed line with -32700 and a non-JSON-RPC message with -32600', async () => {
    const mcp = await startMcp();
    mcp.write('{"jsonrpc":"2.0","id":2,"method":');
    const parse = await mcp.answer(null);
    expect(parse.error).toMatchObject({
      code: -32700,
      message: expect.stringMatching(/^Parse error/),
    });
    await stillUp(mcp, 3);

    mcp.write(JSON.stringify({ id: 4, hello: 'world' }));
    const invalid = await mcp.answer(4);
    expect(invalid.error).toMatchObject({ code: -32600 });
    await stillUp(mcp, 5);
    expect(await mcp.close()).toBe(0);
  });

  it('answers tool arguments of the wrong shape with -32602 naming the field', async () => {
    const mcp = await startMcp();
    const answer = await mcp.request(2, 'tools/call', { name: 'recall', arguments: [1, 2] });
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(/arguments/);
    expect(answer.error?.message.length).toBeLessThan(120);
    expect(answer.error?.data).toMatchObject({ field: 'arguments' });
    await stillUp(mcp, 3);

    const nameless = await mcp.request(4, 'tools/call', { arguments: {} });
    expect(nameless.error).toMatchObject({ code: -32602, data: { field: 'name' } });
    await stillUp(mcp, 5);
    expect(await mcp.close()).toBe(0);
  });

  it('says an unknown tool once, without a repeated prefix', async () => {
    const mcp = await startMcp();
    const answer = await mcp.request(2, 'tools/call', { name: 'teleport', arguments: {} });
    expect(answer.error).toEqual({ code: -32602, message: 'unknown tool teleport' });
    await stillUp(mcp, 3);
    expect(await mcp.close()).toBe(0);
  });

  it('answers a message larger than the read limit and stays up', async () => {
    const mcp = await startMcp();
    const body = 'x'.repeat(11 * 1024 * 1024);
    const call = { name: 'remember', arguments: { body } };
    mcp.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: call }));
    const answer = await mcp.answer(2);
    expect(answer.error?.code).toBe(-32600);
    expect(answer.error?.message).toMatch(/exceeds .*limit/);
    await stillUp(mcp, 3);

    // The id comes after the oversized params: it cannot be recovered, so the drop is logged.
    mcp.write(`{"jsonrpc":"2.0","method":"tools/call","params":${JSON.stringify(call)},"id":4}`);
    await stillUp(mcp, 5);
    expect(await mcp.close()).toBe(0);
    expect(mcp.stderr.join('')).toMatch(/engram warn: MCP message of \d+ bytes .*dropped/);
  });
});

describe('reading oversized messages', () => {
  it('recovers only the top-level id from the beginning of a message', () => {
    expect(recoverId('{"jsonrpc":"2.0","id":7,"params":{"x":"')).toBe(7);
    expect(recoverId('{"id" : "a\\"b","params":')).toBe('a"b');
    expect(recoverId('{"params":{"id":3,"body":"xx')).toBeUndefined();
    expect(recoverId('{"params":{"body":"\\"id\\":4, {[ ')).toBeUndefined();
    expect(recoverId('{"method":"x","params":{"a":[1,{"id":5}]},"id":6}')).toBe(6);
  });

  it('splits lines across chunks and skips an oversized one to its newline', () => {
    const reader = new LineReader(8);
    expect(reader.push(Buffer.from('{"a":1}\r\n{"id":2,'))).toEqual([{ text: '{"a":1}' }]);
    expect(reader.push(Buffer.from('"long":"xxxx'))).toEqual([]);
    expect(reader.push(Buffer.from('xx"}\n\n[]\n'))).toEqual([
      { oversized: { bytes: 24, head: '{"id":2,"long":"xxxx' } },
      { text: '[]' },
    ]);
  });
});
