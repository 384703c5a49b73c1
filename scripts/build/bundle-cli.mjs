/**
 * Bundles the compiled CLI (dist/interfaces/cli/main.js, emitted by tsc) into dist/bin/: the
 * `engram` entry, the graph extraction worker, and the chunks that the CLI's lazy imports load.
 * A short `engram search` otherwise spends a third of its time resolving and compiling a few
 * hundred small modules one by one.
 *
 * What the bundle leaves outside: native addons and the language and vector data packages (they are
 * loaded with `createRequire`, which the bundler does not follow), so they load from node_modules
 * exactly as in the library. The metafile (dist/bin/meta.json) names the modules in every output
 * file, by paths relative to dist/, so tests can tell which modules a command loaded.
 *
 * Run as a script (`node scripts/build/bundle-cli.mjs [distDir]`) or imported by the test setup.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { build } from 'esbuild';

/**
 * Bundled CommonJS packages call `require` for Node built-ins; an ES module has none, so every
 * output file defines one for itself.
 */
const BANNER =
  "import { createRequire as __engramRequire } from 'node:module';\nconst require = __engramRequire(import.meta.url);";

/**
 * zod re-exports its error messages in some forty languages as `z.locales`, which keeps them all in
 * the bundle (half of zod's size) although engram only ever uses the English ones that zod loads
 * itself. This plugin gives the bundle a `locales` namespace holding English alone.
 */
const englishZodLocales = {
  name: 'english-zod-locales',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: join(args.resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-locales' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: "export { default as en } from './en.js';\n",
      resolveDir: join(args.path, '..'),
      loader: 'js',
    }));
  },
};

/** Bundles `<dist>/interfaces/cli/main.js` into `<dist>/bin/`; returns the entry's path. */
export async function bundleCli(dist) {
  const out = join(dist, 'bin');
  const main = join(dist, 'interfaces', 'cli', 'main.js');
  const worker = join(dist, 'graph', 'extract-worker.js');
  for (const file of [main, worker])
    if (!existsSync(file)) throw new Error(`bundle-cli: ${file} is missing (run tsc first)`);
  // Built beside the old bundle and swapped in at the end, so a CLI started meanwhile (by a test
  // running beside another test run's setup) finds a whole bundle, old or new.
  const next = `${out}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  const result = await build({
    // The worker keeps its name: the extractor starts `./extract-worker.js` beside its own chunk.
    entryPoints: { engram: main, 'extract-worker': worker },
    outdir: next,
    // The metafile names inputs relative to the folder the build ran from: dist itself.
    absWorkingDir: resolve(dist),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunk-[hash]',
    // The ONNX runtime and transformers.js (with its image library) load native binaries and
    // model-time code from their own package folders.
    external: [
      'better-sqlite3',
      'hnswlib-node',
      'pg-native',
      '@huggingface/transformers',
      'onnxruntime-node',
      'onnxruntime-web',
      'sharp',
    ],
    banner: { js: BANNER },
    plugins: [englishZodLocales],
    metafile: true,
    // Shorter files parse faster; names are kept, so stack traces stay readable.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
  });
  // The metafile names outputs by the folder they were built in; they are read under dist/bin.
  const outputs = Object.entries(result.metafile.outputs).map(([file, facts]) => [
    file.replace(`${basename(next)}/`, `${basename(out)}/`),
    facts,
  ]);
  const meta = { ...result.metafile, outputs: Object.fromEntries(outputs) };
  writeFileSync(join(next, 'meta.json'), JSON.stringify(meta));
  rmSync(out, { recursive: true, force: true });
  renameSync(next, out);
  return join(out, 'engram.js');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dist = resolve(process.argv[2] ?? 'dist');
  await bundleCli(dist);
}
