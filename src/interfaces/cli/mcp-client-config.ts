/**
 * `engram mcp --print-config CLIENT`: the MCP server entry a client needs to start engram over
 * stdio, in that client's configuration shape, with absolute paths (a desktop app does not start
 * from the user's shell, so neither its PATH nor its working directory can be relied on): this
 * Node.js, this engram's entry script, and the configuration file the command itself would read.
 */
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';

/** The clients whose configuration can be printed. */
export const MCP_CLIENTS = ['claude-desktop', 'claude-code', 'cursor', 'vscode'] as const;
/** One of MCP_CLIENTS. */
export type McpClient = (typeof MCP_CLIENTS)[number];

/** What the printed entry starts. */
export interface McpLaunch {
  /** The Node.js executable. */
  node: string;
  /** engram's CLI entry script. */
  script: string;
  /** The configuration file to pass with `--config`, when the command read one. */
  config?: string;
  /** The space to pass with `--space`, when one was given. */
  space?: string;
}

/** A client's configuration: the JSON to merge into its file, and where that file is. */
export interface McpClientConfig {
  json: Record<string, unknown>;
  /** Where the client reads it from, in words (the path differs by platform or project). */
  where: string;
}

/** The launch of this very process: its Node.js, its entry script, its configuration and space. */
export function currentLaunch(
  config: string | undefined,
  space: string | undefined,
  env: Record<string, string | undefined> = process.env,
): McpLaunch {
  const file = config ?? (env.ENGRAM_CONFIG || undefined);
  return {
    node: process.execPath,
    script: realpathSync(process.argv[1] ?? ''),
    ...(file !== undefined && { config: resolve(file) }),
    ...(space !== undefined && { space }),
  };
}

/** The arguments after the entry script. */
function args(launch: McpLaunch): string[] {
  return [
    launch.script,
    'mcp',
    ...(launch.config ? ['--config', launch.config] : []),
    ...(launch.space ? ['--space', launch.space] : []),
  ];
}

const WHERE: Record<McpClient, string> = {
  'claude-desktop':
    'merge into claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\), then restart Claude Desktop',
  'claude-code':
    'merge into .mcp.json at the root of your project (shared with the project), or run: claude mcp add-json engram \'<the "engram" entry>\'',
  cursor: 'merge into ~/.cursor/mcp.json (every project) or .cursor/mcp.json (one project)',
  vscode: 'merge into .vscode/mcp.json of your workspace',
};

/** The configuration entry of `client` for starting engram as `launch` says. */
export function mcpClientConfig(client: McpClient, launch: McpLaunch): McpClientConfig {
  const server = { command: launch.node, args: args(launch) };
  const json =
    client === 'vscode'
      ? { servers: { engram: { type: 'stdio', ...server } } }
      : client === 'claude-code'
        ? { mcpServers: { engram: { type: 'stdio', ...server, env: {} } } }
        : { mcpServers: { engram: server } };
  return { json, where: WHERE[client] };
}
