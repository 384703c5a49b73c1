/**
 * The engram MCP server: installs the tool table on the SDK's protocol Server. engram validates
 * arguments itself (with the same zod schemas it advertises) so that every failure — invalid
 * arguments included — comes back as one kind of tool error carrying the EngramError code, by the
 * one error rule of every edge (../error-codes.ts).
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  type Tool as ToolListing,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

import type { Engram } from '../../app.js';
import { inputSchemas } from '../../domain/input.js';
import { type Logger, stderrLogger } from '../../domain/log.js';
import { parseWith } from '../../domain/zod.js';
import { once } from '../../service/once.js';
import { EVERYONE, type Principal } from '../access.js';
import { edgeError } from '../error-codes.js';
import { ENGRAM_VERSION } from '../version.js';
import { RpcError } from './rpc.js';
import { scopeCall } from './scope.js';
import type { Tool, ToolContext, ToolGroup } from './tool.js';
import { TOOL_GROUPS } from './tools/index.js';
import { VettedTransport } from './vet.js';

const INSTRUCTIONS = [
  'engram is long-term memory that persists across sessions.',
  'Call recall before answering anything that may depend on earlier sessions (the user, their projects, preferences, decisions, rules).',
  'Call remember for durable knowledge worth keeping: one self-contained statement per memory, with a fitting kind and area.',
  'When a memory turns out wrong, revise it or forget it; when a newer one replaces it, supersede the old one.',
  'When the user refers to an earlier conversation that recall does not cover, call sessions_search (past conversations, kept apart from memories).',
].join(' ');

/** Options of createMcpServer. */
export interface McpServerOptions {
  /** Tool groups to install (default: every group of TOOL_GROUPS). */
  groups?: readonly ToolGroup[];
  /** Where failures are logged (default: stderr; never stdout, which carries the protocol). */
  log?: Logger;
  /** Who calls through this server: the token of an MCP session over HTTP (default: everyone). */
  principal?: Principal;
}

/** The SDK's Server, whose transports answer malformed `tools/call` params themselves (./vet.ts). */
class EngramMcpServer extends Server {
  override connect(transport: Transport): Promise<void> {
    return super.connect(new VettedTransport(transport));
  }
}

/** Builds the MCP server for one engram; connect it to a transport to serve. */
export function createMcpServer(engram: Engram, options: McpServerOptions = {}): Server {
  const log = options.log ?? stderrLogger();
  const principal = options.principal ?? EVERYONE;
  const { tools, listing } = toolTable(engram, options.groups ?? TOOL_GROUPS);
  const server = new EngramMcpServer(
    { name: 'engram', title: 'engram memory', version: ENGRAM_VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  // One server serves one connection: its writes are one conversation (sessions without asking).
  const session = once(() => engram.writeSession());
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...listing] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.get(request.params.name);
    if (!tool) throw new RpcError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}`);
    return callTool(tool, request.params.arguments ?? {}, { engram, log, session, principal });
  });
  return server;
}

/** The tools of one engram and their `tools/list` answer. */
interface ToolTable {
  tools: ReadonlyMap<string, Tool>;
  listing: readonly ToolListing[];
}

const TABLES = new WeakMap<Engram, Map<readonly ToolGroup[], ToolTable>>();

/**
 * The tool table of `engram`, built once per engram and group list: building it (schemas and
 * their JSON Schema) takes tens of milliseconds, and MCP over HTTP builds a server per session.
 */
function toolTable(engram: Engram, groups: readonly ToolGroup[]): ToolTable {
  let byGroups = TABLES.get(engram);
  if (!byGroups) TABLES.set(engram, (byGroups = new Map()));
  let table = byGroups.get(groups);
  if (!table) {
    const tools = buildTools(engram, groups);
    table = { tools, listing: [...tools.values()].map(toListing) };
    byGroups.set(groups, table);
  }
  return table;
}

function buildTools(engram: Engram, groups: readonly ToolGroup[]): Map<string, Tool> {
  const schemas = inputSchemas(engram.config);
  const tools = new Map<string, Tool>();
  for (const tool of groups.flatMap((group) => group(schemas))) {
    if (tools.has(tool.name)) throw new Error(`MCP tool ${tool.name} is defined twice`);
    tools.set(tool.name, tool);
  }
  return tools;
}

function toListing(tool: Tool): ToolListing {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: z.toJSONSchema(tool.input, {
      io: 'input',
      unrepresentable: 'any',
    }) as ToolListing['inputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/** Validates, checks access (./scope.ts), runs and maps one tool call; never throws. */
export async function callTool(
  tool: Tool,
  args: unknown,
  ctx: ToolContext,
): Promise<CallToolResult> {
  try {
    const parsed: unknown = parseWith(tool.input, args);
    return toolResult(await tool.run(scopeCall(tool, parsed, ctx), ctx));
  } catch (err) {
    return toolError(err, tool.name, ctx.log);
  }
}

/** A successful tool result: the JSON text and the same value as structured content. */
export function toolResult(value: object): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
  };
}

/**
 * The MCP edge of the error rule: a tool result with `isError: true` carrying
 * `{error: {code, message, details}}`, for caller and server faults alike (see ../error-codes.ts).
 * Server faults are logged here; INTERNAL (anything that is not an EngramError) is reported
 * without its message or stack.
 */
export function toolError(err: unknown, toolName: string, log: Logger): CallToolResult {
  const { error, log: serverFault } = edgeError(err);
  if (serverFault)
    log.error(`MCP tool ${toolName} failed`, {
      code: error.code,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
  const body = { error: error.toJSON() };
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body,
  };
}
