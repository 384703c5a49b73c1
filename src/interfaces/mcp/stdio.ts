/**
 * `engram mcp`: serves the MCP tools over stdio until the client closes stdin or a signal
 * arrives, then closes the store cleanly. stdout carries only the protocol; logs go to stderr.
 */
import { createEngram } from '../../app.js';
import { stderrLogger } from '../../domain/log.js';
import { createMcpServer } from './server.js';
import { EngramStdioTransport } from './stdio-transport.js';

/** Options of runMcpStdio. */
export interface McpStdioOptions {
  /** A YAML configuration file (else `ENGRAM_CONFIG`, else defaults). */
  configFile?: string;
  /** Space used when a tool call names none (default: the configured space). */
  space?: string;
}

/** Anything printed with console.log would corrupt the protocol stream: send it to stderr. */
function guardStdout(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/** Runs the MCP server on this process's stdin/stdout; resolves once it has shut down. */
export async function runMcpStdio(options: McpStdioOptions = {}): Promise<void> {
  guardStdout();
  const log = stderrLogger();
  const engram = createEngram({
    configFile: options.configFile,
    config: options.space === undefined ? undefined : { space: options.space },
    logger: log,
    background: true,
  });
  // Loading the word vectors takes a moment; start now so the first recall is not degraded.
  const preparing = engram.prepareModels().catch((err: unknown) => {
    log.warn('embedder unavailable; recall runs on keywords only', { error: String(err) });
  });
  const server = createMcpServer(engram, { log });
  const transport = new EngramStdioTransport({ log });

  let resolveDone: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  let closing = false;
  const shutdown = async (why: string): Promise<void> => {
    if (closing) return;
    closing = true;
    log.info(`MCP server stopping (${why})`);
    try {
      await server.close().catch(() => undefined);
      await preparing;
      await engram.close({ drainMs: 2_000 });
    } catch (err) {
      log.error('MCP server did not close cleanly', { error: String(err) });
      process.exitCode = 1;
    } finally {
      resolveDone();
    }
  };
  process.stdin.once('end', () => void shutdown('stdin closed'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  server.onclose = () => void shutdown('transport closed');
  server.onerror = (err) => log.warn('MCP protocol error', { error: err.message });
  await server.connect(transport);
  log.info('MCP server ready on stdio');
  await done;
}
