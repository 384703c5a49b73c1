/** CLI commands that run engram as a service: `engram mcp` (stdio) and `engram serve` (HTTP). */
import type { Command } from 'commander';
import { stringify } from 'yaml';

import { EngramError } from '../../domain/errors.js';
import { hashToken, newToken } from '../http/auth.js';
import { runHttpService } from '../http/service.js';
import { runMcpStdio } from '../mcp/stdio.js';
import { reportError } from './context.js';
import { printJson, println } from './output.js';
import { globals, int } from './program.js';
import { readStdin } from './stdin.js';

function registerMcp(program: Command): void {
  program
    .command('mcp')
    .description(
      'serve the memory tools to an MCP client over stdio (stdout carries only the protocol)',
    )
    .action(async (_o: unknown, cmd: Command) => {
      const g = globals(cmd);
      try {
        await runMcpStdio({ configFile: g.config, space: g.space });
      } catch (err) {
        process.exitCode = reportError(err, g.json ?? false);
      }
    });
}

async function hashFromStdin(json: boolean): Promise<void> {
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

function printNewToken(json: boolean): void {
  const token = newToken();
  const entry = { name: 'my-agent', hash: hashToken(token), role: 'write', spaces: ['default'] };
  if (json) return printJson({ token, hash: entry.hash });
  println(
    `token (shown once; give it to the client as "Authorization: Bearer <token>"):\n${token}\n`,
  );
  println('add this entry under server.tokens in the configuration (adjust name, role, spaces):');
  println(stringify([entry]).trimEnd().replace(/^/gmu, '  '));
}

function registerServe(program: Command): void {
  program
    .command('serve')
    .description(
      'run the HTTP API (/v1) and the background worker until SIGTERM/SIGINT; binds 127.0.0.1 by default',
    )
    .option('--host <host>', 'address to bind (default: server.host, 127.0.0.1)')
    .option(
      '--port <port>',
      'port to listen on, 0 for any free port (default: server.port, 8765)',
      int,
    )
    .option('--hash-token', 'read a token on stdin and print its hash for server.tokens, then exit')
    .option('--new-token', 'generate a token and print it with its server.tokens entry, then exit')
    .action(
      async (
        o: { host?: string; port?: number; hashToken?: boolean; newToken?: boolean },
        cmd: Command,
      ) => {
        const g = globals(cmd);
        try {
          if (o.hashToken) return await hashFromStdin(g.json ?? false);
          if (o.newToken) return printNewToken(g.json ?? false);
          const server = {
            ...(o.host === undefined ? {} : { host: o.host }),
            ...(o.port === undefined ? {} : { port: o.port }),
          };
          await runHttpService({ configFile: g.config, config: { server } });
        } catch (err) {
          process.exitCode = reportError(err, g.json ?? false);
        }
      },
    );
}

/** Registers `engram mcp` and `engram serve`. */
export function registerServiceCommands(program: Command): void {
  registerMcp(program);
  registerServe(program);
}
