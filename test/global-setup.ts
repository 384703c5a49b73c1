/**
 * Vitest global setup: compiles `dist/`, bundles the CLI into `dist/bin/` and builds the web console
 * into `dist/web` as `npm run build` does
 * (tests spawn the real built CLI and server), and builds the
 * static embedder's word-vector cache once, before any test process starts, so parallel test files
 * load it instead of racing to build it. Without ENGRAM_TEST_PG_URL it says, once, that the
 * PostgreSQL tests are skipped and how to run them.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

import { buildConsole } from '../scripts/build/build-console.mjs';
import { bundleCli } from '../scripts/build/bundle-cli.mjs';
import { StaticEmbedder } from '../src/embed/static/static-embedder.js';
import { testCacheDir } from './cache-dir.js';
import { CHROMIUM_NOTICE, HAS_CHROMIUM } from './chromium.js';
import { postgresNotice } from './postgres-notice.js';

const root = join(import.meta.dirname, '..');

export default async function setup(): Promise<void> {
  const notice = postgresNotice(process.env);
  if (notice) process.stderr.write(`${notice}\n`);
  buildDist();
  await bundleCli(join(root, 'dist'));
  await buildConsole(join(root, 'dist'));
  if (!HAS_CHROMIUM) process.stderr.write(`${CHROMIUM_NOTICE}\n`);
  const cacheDir = testCacheDir();
  process.env.ENGRAM_TEST_CACHE_DIR = cacheDir;
  const embedder = new StaticEmbedder({ cacheDir });
  await embedder.prepare();
  await embedder.close();
}

/** Compiles src/ to dist/. Type errors are reported by `npm run typecheck`; tsc still emits then. */
function buildDist(): void {
  try {
    execFileSync(
      process.execPath,
      [
        join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
        '-p',
        join(root, 'tsconfig.build.json'),
      ],
      { stdio: 'pipe' },
    );
  } catch (err) {
    const out = String((err as { stdout?: Buffer }).stdout ?? '');
    if ((err as { status?: number }).status !== 2) throw err;
    process.stderr.write(
      `global setup: dist built with type errors (npm run typecheck reports them):\n${out.slice(0, 2000)}\n`,
    );
  }
}
