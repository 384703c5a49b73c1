/**
 * The commands that run engram as a service: `engram mcp` (stdio) and `engram serve` (HTTP). The
 * MCP SDK and the HTTP framework load only when one of them runs.
 */
import { EngramError } from '../../domain/errors.js';
import type { CommandSpec } from './command.js';
import { reportError } from './context.js';
import {
  currentLaunch,
  MCP_CLIENTS,
  type McpClient,
  mcpClientConfig,
} from './mcp-client-config.js';
import { printJson, println } from './output.js';
import { int } from './parse.js';
import { readStdin } from './stdin.js';

const mcp: CommandSpec<[], { printConfig?: McpClient }> = {
  name: 'mcp',
  description:
    'serve the memory tools to an MCP client over stdio (stdout carries only the protocol)',
  options: [
    {
      flags: '--print-config <client>',
      description:
        "print the client's MCP configuration entry that starts this engram (absolute paths, this --config and --space), then exit",
      choices: MCP_CLIENTS,
    },
  ],
  async run({ globals: g, options: o }) {
    if (o.printConfig) return printClientConfig(o.printConfig, g.config, g.space);
    try {
      const { runMcpStdio } = await import('../mcp/stdio.js');
      await runMcpStdio({ configFile: g.config, space: g.space });
    } catch (err) {
      process.exitCode = reportError(err, g.json ?? false);
    }
  },
};

/** Prints a client's configuration entry on stdout, and where it goes on stderr. */
function printClientConfig(client: McpClient, config?: string, space?: string): void {
  const { json, where } = mcpClientConfig(client, currentLaunch(config, space));
  printJson(json);
  process.stderr.write(`engram: ${where}\n`);
}

async function hashFromStdin(json: boolean): Promise<void> {
  const { hashToken } = await import('../http/auth.js');
  const token = (await readStdin()).trim();
  if (!token)
    throw new EngramError(
      'INVALID_INPUT',
      'pipe the token on stdin, e.g. printf %s "$TOKEN" | engram serve --hash-token',
      { field: 'token', rule: 'non-empty, on stdin' },
    );
  if (json) printJson({ hash: hashToken(token) });
  else println(hashToken(token));
}

async function printNewToken(json: boolean): Promise<void> {
  const { hashToken, newToken } = await import('../http/auth.js');
  const token = newToken();
  const entry = { name: 'my-agent', hash: hashToken(token), role: 'write', spaces: ['default'] };
  if (json) return printJson({ token, hash: entry.hash });
  const { yamlText } = await import('./yaml-text.js');
  println(
    `token (shown once; give it to the client as "Authorization: Bearer <token>"):\n${token}\n`,
  );
  println('add this entry under server.tokens in the configuration (adjust name, role, spaces):');
  println(yamlText([entry]).trimEnd().replace(/^/gmu, '  '));
}

type ServeFlags = { host?: string; port?: number; hashToken?: boolean; newToken?: boolean };

const serve: CommandSpec<[], ServeFlags> = {
  name: 'serve',
  description:
    'run the HTTP API (/v1) and the background worker until SIGTERM/SIGINT; binds 127.0.0.1 by default',
  options: [
    { flags: '--host <host>', description: 'address to bind (default: server.host, 127.0.0.1)' },
    {
      flags: '--port <port>',
      description: 'port to listen on, 0 for any free port (default: server.port, 8765)',
      parse: int,
    },
    {
      flags: '--hash-token',
      description: 'read a token on stdin and print its hash for server.tokens, then exit',
    },
    {
      flags: '--new-token',
      description: 'generate a token and print it with its server.tokens entry, then exit',
    },
  ],
  async run({ options: o, globals: g }) {
    try {
      if (o.hashToken) return await hashFromStdin(g.json ?? false);
      if (o.newToken) return await printNewToken(g.json ?? false);
      const server = {
        ...(o.host === undefined ? {} : { host: o.host }),
        ...(o.port === undefined ? {} : { port: o.port }),
      };
      const { runHttpService } = await import('../http/service.js');
      await runHttpService({ configFile: g.config, config: { server } });
    } catch (err) {
      process.exitCode = reportError(err, g.json ?? false);
    }
  },
};

/** The service commands, in the order the help lists them. */
export const SERVICE_COMMANDS: readonly CommandSpec[] = [mcp, serve];
