/**
 * Runs the built CLI with a module tracer: a loader hook records the URL of every module the
 * process resolves, and at exit the CommonJS modules it loaded, so a test can prove what a command
 * loads without timing it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { type CliResult, runCli } from './cli-run.js';

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
  const modules = [...new Set(readFileSync(trace, 'utf8').split('\n').filter(Boolean))];
  return { ...result, modules };
}
