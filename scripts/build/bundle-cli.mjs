/**
 * Bundles the compiled CLI (dist/interfaces/cli/main.js, emitted by tsc) into dist/bin/: the CLI as
 * one CommonJS file (engram-cli.cjs), the `engram` entry that runs it with a V8 code cache
 * (engram.js, from interfaces/cli/launch.js), and the graph extraction and message parsing workers
 * with their chunks.
 * A short `engram search` otherwise spends a third of its time resolving and compiling a few
 * hundred small modules one by one, and a quarter compiling the bundle again on every run.
 *
 * What the bundle leaves outside: native addons and the language and vector data packages (they are
 * loaded with `createRequire`, which the bundler does not follow), so they load from node_modules
 * exactly as in the library. The metafile (dist/bin/meta.json) names the modules in every output
 * file, by paths relative to dist/; the CLI's modules that load lazily each run in a function named
 * by the module's path, so tests can tell which of them a command ran (test/cli-trace.ts).
 *
 * Run as a script (`node scripts/build/bundle-cli.mjs [distDir]`) or imported by the test setup.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
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

/** Packages loaded at run time from node_modules (native addons, model-time code), never bundled. */
const EXTERNAL = [
  'better-sqlite3',
  'hnswlib-node',
  'pg-native',
  '@huggingface/transformers',
  'onnxruntime-node',
  'onnxruntime-web',
  'sharp',
];

/** What every build of the bundle shares. */
const COMMON = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  // The ONNX runtime and transformers.js (with its image library) load native binaries and
  // model-time code from their own package folders.
  external: EXTERNAL,
  plugins: [englishZodLocales],
  metafile: true,
  // Shorter files parse faster; names are kept, so stack traces stay readable.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
};

/**
 * The CLI as one CommonJS file, which the entry runs with a V8 code cache (code-cache.ts). Modules
 * reached through a dynamic import stay lazy: the bundler wraps each in a function that runs on
 * first import. Its first line names the build by the hash of its content, and its command words.
 */
async function buildCli(main, next, options) {
  const file = join(next, 'engram-cli.cjs');
  const result = await build({
    ...options,
    entryPoints: [main],
    outfile: file,
    format: 'cjs',
    // `import.meta` has no CommonJS meaning; the bundle's own file stands in for every module's.
    define: { 'import.meta.url': '__engramUrl', 'import.meta.dirname': '__dirname' },
    inject: [join(import.meta.dirname, 'cjs-import-meta.js')],
  });
  const text = readFileSync(file, 'utf8').replace(/^#!.*\n/u, '');
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  // The command words, so that the entry keeps caches for real commands only (not for typos).
  const { COMMANDS } = await import(pathToFileURL(join(dirname(main), 'program.js')).href);
  const words = COMMANDS.flatMap((c) => [c.name.split(' ')[0], ...(c.alias ? [c.alias] : [])]);
  writeFileSync(file, `//engram-build:${hash} commands=${words.join(',')}\n${text}`);
  return result.metafile;
}

/** Bundles `<dist>/interfaces/cli/main.js` into `<dist>/bin/`; returns the entry's path. */
export async function bundleCli(dist) {
  const out = join(dist, 'bin');
  const main = join(dist, 'interfaces', 'cli', 'main.js');
  const launch = join(dist, 'interfaces', 'cli', 'launch.js');
  const worker = join(dist, 'graph', 'extract-worker.js');
  const parser = join(dist, 'autorecall', 'parse-worker.js');
  const checkpoints = join(dist, 'store', 'sqlite', 'checkpoint-worker.js');
  for (const file of [main, launch, worker, parser, checkpoints])
    if (!existsSync(file)) throw new Error(`bundle-cli: ${file} is missing (run tsc first)`);
  // Built beside the old bundle and swapped in at the end, so a CLI started meanwhile (by a test
  // running beside another test run's setup) finds a whole bundle, old or new.
  const next = `${out}.next-${process.pid}`;
  rmSync(next, { recursive: true, force: true });
  // The metafiles name inputs relative to the folder the builds ran from: dist itself.
  const options = { ...COMMON, absWorkingDir: resolve(dist) };
  const cli = await buildCli(main, next, options);
  // The entry and the three workers (graph extraction, message parsing, WAL checkpoints) stay ES
  // modules; the workers keep their names: they are started as `./extract-worker.js`,
  // `./parse-worker.js` and `./checkpoint-worker.js` beside the CLI.
  const entries = await build({
    ...options,
    entryPoints: {
      engram: launch,
      'extract-worker': worker,
      'parse-worker': parser,
      'checkpoint-worker': checkpoints,
    },
    outdir: next,
    splitting: true,
    format: 'esm',
    chunkNames: 'chunk-[hash]',
    banner: { js: BANNER },
  });
  // The metafiles name outputs by the folder they were built in; they are read under dist/bin.
  const outputs = [
    ...Object.entries(cli.outputs).map(([file, facts]) => [file, facts]),
    ...Object.entries(entries.metafile.outputs),
  ].map(([file, facts]) => [file.replace(`${basename(next)}/`, `${basename(out)}/`), facts]);
  const meta = {
    inputs: { ...cli.inputs, ...entries.metafile.inputs },
    outputs: Object.fromEntries(outputs),
  };
  writeFileSync(join(next, 'meta.json'), JSON.stringify(meta));
  rmSync(out, { recursive: true, force: true });
  renameSync(next, out);
  return join(out, 'engram.js');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dist = resolve(process.argv[2] ?? 'dist');
  await bundleCli(dist);
}
