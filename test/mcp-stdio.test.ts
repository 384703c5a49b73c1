/**
 * End to end: spawns the built `engram mcp` and drives it with the SDK's real stdio client.
 * Needs `dist/` (npm test builds it first).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { testCacheDir } from './cache-dir.js';
import { tempDir } from './helpers.js';

const CLI = resolve(import.meta.dirname, '..', 'dist', 'bin', 'engram.js');

function payload(result: CallToolResult): Record<string, unknown> {
  return JSON.parse((result.content[0] as { text: string }).text);
}

describe('engram mcp over stdio (spawned process, real SDK stdio client)', () => {
  it('lists tools, remembers, recalls, rejects invalid arguments and exits when the client closes', async () => {
    expect(existsSync(CLI), `${CLI} is missing: run npm run build`).toBe(true);
    const dir = tempDir();
    const config = join(dir, 'engram.yaml');
    writeFileSync(
      config,
      stringify({
        store: { path: join(dir, 'engram.db') },
        embedder: { cache_dir: testCacheDir() },
      }),
    );
    const stderr: string[] = [];
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, '--config', config, 'mcp'],
      env: { PATH: process.env.PATH ?? '', HOME: dir, ENGRAM_LOG_LEVEL: 'info' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const client = new Client({ name: 'engram-e2e', version: '1.0.0' });
    await client.connect(transport);
    const pid = transport.pid;
    expect(client.getServerVersion()?.name).toBe('engram');
    expect(client.getInstructions()).toMatch(/recall/);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['remember', 'recall', 'status']),
    );

    const remembered = (await client.callTool({
      name: 'remember',
      arguments: {
        body: 'The staging database password rotates every 30 days.',
        kind: 'rule',
        area: 'ops',
      },
    })) as CallToolResult;
    expect(remembered.isError ?? false).toBe(false);
    const id = (payload(remembered).memory as { id: string }).id;

    const recalled = (await client.callTool({
      name: 'recall',
      arguments: { query: 'how often does the staging password rotate' },
    })) as CallToolResult;
    expect(recalled.isError ?? false).toBe(false);
    expect(recalled.structuredContent).toEqual(payload(recalled));
    const hits = (payload(recalled).hits as { id: string }[]).map((h) => h.id);
    expect(hits[0]).toBe(id);

    const invalid = (await client.callTool({
      name: 'recall',
      arguments: { query: 42 },
    })) as CallToolResult;
    expect(invalid.isError).toBe(true);
    expect(payload(invalid)).toMatchObject({
      error: { code: 'INVALID_INPUT', details: { field: 'query' } },
    });

    await client.close();
    // The server exits on its own once stdin closes, closing the store cleanly.
    await expect.poll(() => pid !== null && !isAlive(pid), { timeout: 10_000 }).toBe(true);
    expect(stderr.join('')).toMatch(/MCP server stopping \(stdin closed\)/);
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
