/** Runs the built `engram` CLI in a child process, as users do. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { testCacheDir } from './cache-dir.js';

/** Path of the built CLI entry. */
export const CLI = join(import.meta.dirname, '..', 'dist', 'bin', 'engram.js');

/** Result of one CLI run. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `engram ...args` with a bounded lifetime; stdin is closed unless `input` is given. */
export function runCli(
  args: readonly string[],
  options: { input?: string; env?: Record<string, string>; cwd?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        ENGRAM_EMBEDDER_CACHE_DIR: testCacheDir(),
        ...options.env,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
