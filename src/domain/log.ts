/** A tiny logger interface; the default writes to stderr (stdout belongs to CLI output and MCP). */

/** Where engram reports what callers do not see in results. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const LEVELS = { silent: 3, error: 2, warn: 1, info: 0 } as const;

/** A logger writing one line per message to stderr, at or above `level`. */
export function stderrLogger(
  level: keyof typeof LEVELS = (process.env.ENGRAM_LOG_LEVEL as keyof typeof LEVELS) ?? 'warn',
): Logger {
  const min = LEVELS[level] ?? LEVELS.warn;
  const write =
    (name: 'info' | 'warn' | 'error') => (message: string, fields?: Record<string, unknown>) => {
      if (LEVELS[name] < min) return;
      process.stderr.write(
        `engram ${name}: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}\n`,
      );
    };
  return { info: write('info'), warn: write('warn'), error: write('error') };
}

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
