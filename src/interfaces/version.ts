/** engram's package version, announced by the CLI, the MCP server and the HTTP API. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version in engram's package.json, found by walking up from this module: the folder depth
 * differs between src/, dist/ and the bundled CLI in dist/bin/.
 */
function packageVersion(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    try {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'engram' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // No package.json here (or not ours): look one folder up.
    }
    if (dirname(dir) === dir) throw new Error('engram: cannot find its package.json');
  }
}

/** The version of the engram package. */
export const ENGRAM_VERSION: string = packageVersion();
