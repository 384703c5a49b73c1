/**
 * Runs the built CLI with a module tracer: a loader hook records the URL of every module the
 * process resolves, and at exit the CommonJS modules it loaded, so a test can prove what a command
 * loads without timing it. The CLI itself is one bundled file (dist/bin/engram-cli.cjs) in which
 * every module runs in a function named by its path, on first import: V8's coverage of the run
 * (NODE_V8_COVERAGE) names the ones that ran. Any other file of the bundle (the worker and its
 * chunks) counts as every module bundled into it.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { CLI, type CliResult, runCli } from './cli-run.js';

/** The folder of the bundled CLI and its metafile. */
const BIN_DIR = dirname(CLI);

/** The resolve hook (runs on the loader thread): appends each resolved URL to the trace file. */
const HOOKS = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(process.env.MODULE_TRACE_FILE, result.url + '\\n');
  return result;
}
`;

/** Preloaded with --import: registers the hook; at exit adds what require() loaded. */
const TRACER = `import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';
register('./hooks.mjs', import.meta.url);
process.on('exit', () => {
  const required = Object.keys(Module._cache).map((file) => pathToFileURL(file).href + '\\n');
  appendFileSync(process.env.MODULE_TRACE_FILE, required.join(''));
});
`;

/** A CLI run and the URLs of the modules its process loaded. */
export interface TracedRun extends CliResult {
  modules: string[];
}

/**
 * Runs `engram ...args` under the tracer (with `input` on stdin); `dir` holds the tracer and the
 * trace file. The trace
 * file's variable is not named ENGRAM_*: the configuration rejects unknown ENGRAM_ keys.
 */
export async function traceCli(
  dir: string,
  args: readonly string[],
  env: Record<string, string> = {},
  input?: string,
): Promise<TracedRun> {
  writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
  writeFileSync(join(dir, 'tracer.mjs'), TRACER);
  const name = `trace-${Date.now()}-${Math.random().toString(36).slice(2)}`;
  const trace = join(dir, `${name}.txt`);
  const coverage = join(dir, `${name}-coverage`);
  writeFileSync(trace, '');
  mkdirSync(coverage);
  const result = await runCli(args, {
    ...(input !== undefined && { input }),
    env: {
      ...env,
      NODE_OPTIONS: `--import=${join(dir, 'tracer.mjs')}`,
      MODULE_TRACE_FILE: trace,
      NODE_V8_COVERAGE: coverage,
    },
  });
  const loaded = readFileSync(trace, 'utf8').split('\n').filter(Boolean);
  const ran = ranInBundle(coverage);
  return { ...result, modules: [...new Set([...loaded.flatMap(bundledModules), ...ran])] };
}

/** The CLI bundle's file URL. */
const CLI_BUNDLE = pathToFileURL(join(BIN_DIR, 'engram-cli.cjs')).href;

/** One function of V8's coverage of a script: its name and how often its whole range ran. */
interface CoveredFunction {
  functionName: string;
  ranges: { count: number }[];
}

/**
 * The URLs of the modules of the CLI bundle that ran, from the coverage files in `dir`: the
 * functions named by a bundled module's path (as the metafile names it) that were called.
 */
function ranInBundle(dir: string): string[] {
  const inputs = bundleInputsOf(CLI_BUNDLE);
  const dist = dirname(BIN_DIR);
  // The metafile's own names: paths relative to dist/.
  const names = new Set(inputs.map((url) => relative(dist, fileURLToPath(url))));
  const ran: string[] = [];
  for (const file of readdirSync(dir)) {
    const { result } = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
      result: { url: string; functions: CoveredFunction[] }[];
    };
    for (const script of result.filter((s) => s.url === CLI_BUNDLE)) {
      ran.push(CLI_BUNDLE);
      for (const f of script.functions)
        if (names.has(f.functionName) && (f.ranges[0]?.count ?? 0) > 0)
          ran.push(pathToFileURL(resolve(dist, f.functionName)).href);
    }
  }
  return ran;
}

/** Output file (a file URL under dist/bin/) -> the URLs of the modules bundled into it. */
let bundleInputs: Map<string, string[]> | undefined;

/**
 * The modules a loaded file stands for: a file of the bundled CLI (dist/bin/) holds many modules of
 * dist/ and node_modules/, named by the bundler's metafile; any other file stands for itself.
 */
function bundledModules(url: string): string[] {
  if (!url.startsWith(pathToFileURL(BIN_DIR).href) || url === CLI_BUNDLE) return [url];
  return [url, ...bundleInputsOf(url)];
}

/** The URLs of the modules bundled into an output file (a file URL under dist/bin/). */
function bundleInputsOf(url: string): string[] {
  if (!bundleInputs) {
    const meta = JSON.parse(readFileSync(join(BIN_DIR, 'meta.json'), 'utf8')) as {
      outputs: Record<string, { inputs: Record<string, unknown> }>;
    };
    const dist = dirname(BIN_DIR);
    bundleInputs = new Map(
      Object.entries(meta.outputs).map(([output, { inputs }]) => [
        pathToFileURL(resolve(dist, output)).href,
        Object.keys(inputs).map((input) => pathToFileURL(resolve(dist, input)).href),
      ]),
    );
  }
  return bundleInputs.get(url) ?? [];
}
