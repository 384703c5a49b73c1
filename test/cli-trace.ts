/**
 * Runs the built CLI with a module tracer: a loader hook records the URL of every module the
 * process resolves, and at exit the CommonJS modules it loaded, so a test can prove what a command
 * loads without timing it. A file of the bundled CLI counts as every module bundled into it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

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
 * Runs `engram ...args` under the tracer; `dir` holds the tracer and the trace file. The trace
 * file's variable is not named ENGRAM_*: the configuration rejects unknown ENGRAM_ keys.
 */
export async function traceCli(
  dir: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<TracedRun> {
  writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
  writeFileSync(join(dir, 'tracer.mjs'), TRACER);
  const trace = join(dir, `trace-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(trace, '');
  const result = await runCli(args, {
    env: {
      ...env,
      NODE_OPTIONS: `--import=${join(dir, 'tracer.mjs')}`,
      MODULE_TRACE_FILE: trace,
    },
  });
  const loaded = readFileSync(trace, 'utf8').split('\n').filter(Boolean);
  return { ...result, modules: [...new Set(loaded.flatMap(bundledModules))] };
}

/** Output file (a file URL under dist/bin/) -> the URLs of the modules bundled into it. */
let bundleInputs: Map<string, string[]> | undefined;

/**
 * The modules a loaded file stands for: a file of the bundled CLI (dist/bin/) holds many modules of
 * dist/ and node_modules/, named by the bundler's metafile; any other file stands for itself.
 */
function bundledModules(url: string): string[] {
  if (!url.startsWith(pathToFileURL(BIN_DIR).href)) return [url];
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
  return [url, ...(bundleInputs.get(url) ?? [])];
}
