/**
 * `engram mcp --print-config CLIENT` (built CLI, spawned): each client's entry has the client's
 * shape and absolute paths, and the entry it prints starts an MCP server that the SDK's real stdio
 * client can use, from another working directory, on the store of the configuration named.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { testCacheDir } from './cache-dir.js';
import { tempDir } from './helpers.js';

const CLI = resolve(import.meta.dirname, '..', 'dist', 'bin', 'engram.js');

interface Entry {
  type?: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

function printed(dir: string, args: string[]): { json: Record<string, unknown> } {
  const env = { PATH: process.env.PATH ?? '', HOME: dir };
  const stdout = execFileSync(process.execPath, [CLI, ...args], { cwd: dir, env, stdio: 'pipe' });
  return { json: JSON.parse(stdout.toString()) as Record<string, unknown> };
}

function entryOf(json: Record<string, unknown>): Entry {
  const servers = (json.mcpServers ?? json.servers) as Record<string, Entry>;
  return servers.engram!;
}

describe('engram mcp --print-config', () => {
  it("prints each client's entry in its shape, with absolute paths and the config read", () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'engram.yaml'), stringify({ store: { path: join(dir, 'a.db') } }));
    for (const client of ['claude-desktop', 'claude-code', 'cursor', 'vscode']) {
      // The config found in the working directory is named by its absolute path.
      const { json } = printed(dir, ['mcp', '--print-config', client]);
      expect(Object.keys(json)).toEqual([client === 'vscode' ? 'servers' : 'mcpServers']);
      const entry = entryOf(json);
      expect(entry.command).toBe(process.execPath);
      expect(isAbsolute(entry.args[0]!)).toBe(true);
      expect(entry.args.slice(1)).toEqual(['mcp', '--config', join(dir, 'engram.yaml')]);
      if (client === 'vscode' || client === 'claude-code') expect(entry.type).toBe('stdio');
    }
    const spaced = entryOf(
      printed(dir, ['--space', 'work', 'mcp', '--print-config', 'cursor']).json,
    );
    expect(spaced.args.slice(-2)).toEqual(['--space', 'work']);
  });

  it('refuses a client it does not know, naming the choices', () => {
    const dir = tempDir();
    let message = '';
    try {
      printed(dir, ['mcp', '--print-config', 'notepad']);
    } catch (err) {
      message = String((err as { stderr?: Buffer }).stderr);
    }
    expect(message).toMatch(/notepad/);
    expect(message).toMatch(/claude-desktop/);
  });

  it('the printed entry starts a server the SDK client uses, from any working directory', async () => {
    const dir = tempDir();
    const config = join(dir, 'engram.yaml');
    writeFileSync(
      config,
      stringify({
        store: { path: join(dir, 'engram.db') },
        embedder: { cache_dir: testCacheDir() },
      }),
    );
    const entry = entryOf(printed(dir, ['mcp', '--print-config', 'claude-desktop']).json);
    const elsewhere = tempDir();
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      cwd: elsewhere,
      env: { PATH: process.env.PATH ?? '', HOME: elsewhere },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'print-config-e2e', version: '1.0.0' });
    await client.connect(transport);
    try {
      await client.callTool({ name: 'remember', arguments: { body: 'Ada drinks green tea' } });
    } finally {
      await client.close();
    }
    // Stored in the store of the configuration the entry names, not in the working directory's.
    const listed = execFileSync(process.execPath, [CLI, '--config', config, 'list', '--json'], {
      cwd: elsewhere,
      env: { PATH: process.env.PATH ?? '', HOME: elsewhere },
    }).toString();
    expect(listed).toContain('Ada drinks green tea');
  });
});
