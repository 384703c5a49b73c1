/** Helpers of the in-process MCP tests: an SDK client linked to engram's server, closed after each test. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach } from 'vitest';

import type { Engram } from '../src/app.js';
import { type Logger, silentLogger } from '../src/domain/log.js';
import { createMcpServer } from '../src/interfaces/mcp/server.js';
import type { ToolGroup } from '../src/interfaces/mcp/tool.js';

const clients: Client[] = [];
afterEach(async () => {
  while (clients.length) await clients.pop()!.close();
});

/** A client connected over InMemoryTransport to an MCP server on `engram` (closed after the test). */
export async function connectMcp(
  engram: Engram,
  options: { groups?: readonly ToolGroup[]; name?: string; log?: Logger } = {},
): Promise<Client> {
  const server = createMcpServer(engram, {
    log: options.log ?? silentLogger,
    groups: options.groups,
  });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: options.name ?? 'engram-test', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  clients.push(client);
  return client;
}

/** Calls one tool and returns its raw result. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
