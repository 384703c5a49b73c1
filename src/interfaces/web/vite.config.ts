/**
 * Builds the web console into `dist/web` (scripts/build/build-console.mjs runs it): Preact through
 * Oxc's automatic JSX runtime, hashed assets under `assets/`, the graph and chart libraries in
 * chunks of their own that only their pages load.
 */
import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  resolve: { alias: { react: 'preact/compat', 'react-dom': 'preact/compat' } },
  build: {
    outDir: fileURLToPath(new URL('../../../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 1024,
  },
});
