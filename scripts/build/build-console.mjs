/**
 * Builds the web console (src/interfaces/web) with vite into `<dist>/web`, which `engram serve`
 * serves at `/`. Run as a script (`node scripts/build/build-console.mjs [distDir]`) or imported by
 * the test setup.
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { build } from 'vite';

const root = resolve(import.meta.dirname, '..', '..');

/** Builds the console into `<dist>/web`; returns that folder. */
export async function buildConsole(dist = join(root, 'dist')) {
  const outDir = join(resolve(dist), 'web');
  await build({
    configFile: join(root, 'src', 'interfaces', 'web', 'vite.config.ts'),
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  await buildConsole(process.argv[2] ?? join(root, 'dist'));
