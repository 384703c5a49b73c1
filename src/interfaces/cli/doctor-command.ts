/**
 * `engram doctor [--json]`: checks the configuration, the store, the embedder, background jobs,
 * the HTTP port and the knowledge graph's model, and says what to do about each problem. It never
 * creates a store. Exit 0 unless a check failed; then the exit code of that check's error code
 * (the first one that failed): 5 configuration, 6 store, 8 embedder, 1 otherwise.
 */
import { resolve } from 'node:path';

import type { ConfigSource } from '../../service/doctor/doctor.js';
import { EXIT_CODES } from '../error-codes.js';
import type { CommandSpec } from './command.js';
import { LOCAL_CONFIG } from './config-file.js';
import { type GlobalOptions, reportError } from './context.js';
import { printJson, println } from './output.js';

/** Why the CLI reads the file it reads (see config-file.ts). */
function configSource(file: string | undefined, env: NodeJS.ProcessEnv): ConfigSource {
  if (file === undefined) return env.ENGRAM_CONFIG ? 'env' : 'defaults';
  return !env.ENGRAM_CONFIG && resolve(file) === resolve(LOCAL_CONFIG) ? 'local' : 'flag';
}

async function doctor(g: GlobalOptions): Promise<number> {
  const { runDoctor } = await import('../../service/doctor/doctor.js');
  const report = await runDoctor({
    configFile: g.config,
    configSource: configSource(g.config, process.env),
    env: process.env,
  });
  if (g.json) printJson(report);
  else println((await import('./doctor-report.js')).doctorText(report));
  return report.code === null ? EXIT_CODES.OK : EXIT_CODES[report.code];
}

/** `engram doctor`. */
export const DOCTOR_COMMAND: CommandSpec = {
  name: 'doctor',
  description:
    'check the configuration, store, embedder, jobs, HTTP port and graph model, and say what to do about each problem (never creates a store; exits with the code of the first failed check)',
  async run({ globals: g }) {
    try {
      process.exitCode = await doctor(g);
    } catch (err) {
      process.exitCode = reportError(err, g.json ?? false);
    }
  },
};
