/** The doctor's configuration check: which file is read, whether it is valid, what overrides it. */
import { resolve } from 'node:path';

import { envOverrides, loadConfig } from '../../config/load.js';
import { isEngramError } from '../../domain/errors.js';
import { engramCommand, quoteArg } from './command-line.js';
import type { Check, DoctorContext, DoctorInput, Finding } from './types.js';

/** The `ENGRAM_*` variables of the environment that set configuration keys. */
function overridingVariables(env: Record<string, string | undefined>): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith('ENGRAM_'))
    .filter((name) => {
      try {
        return Object.keys(envOverrides({ [name]: env[name] })).length > 0;
      } catch {
        return true;
      }
    })
    .sort();
}

/** The configuration file read, as an absolute path; undefined for the built-in defaults. */
export function configPath(input: DoctorInput): string | undefined {
  const file = input.configFile ?? (input.env.ENGRAM_CONFIG || undefined);
  return file === undefined ? undefined : resolve(file);
}

/** The file read and why, in words. */
function fileText(ctx: DoctorContext): string {
  const file = configPath(ctx);
  switch (ctx.configSource) {
    case 'flag':
      return `${file} (--config)`;
    case 'env':
      return `${file} ($ENGRAM_CONFIG)`;
    case 'local':
      return `${file} (./engram.yaml in this folder)`;
    case 'defaults':
      return 'no configuration file (no ./engram.yaml here, $ENGRAM_CONFIG unset): built-in defaults';
  }
}

/** What to do about an invalid configuration. */
function fixFor(ctx: DoctorContext, rule: unknown, field: unknown): string {
  const file = configPath(ctx);
  if (typeof field === 'string' && field.startsWith('ENGRAM_'))
    return `unset ${field} (or name a configuration key: docs/configuration.md)`;
  if (rule === 'file must exist' && ctx.configSource === 'env')
    return 'point $ENGRAM_CONFIG at an existing file, or unset it';
  if (rule === 'file must exist')
    return 'engram init (writes ./engram.yaml here), or give an existing file with --config';
  return `edit ${quoteArg(file ?? 'the configuration')} (every key: docs/configuration.md), then ${engramCommand(ctx, 'doctor')}`;
}

/** Loads the configuration as the command would; later checks use it. */
export const configCheck: Check = async (ctx): Promise<Finding> => {
  const overrides = overridingVariables(ctx.env);
  const details = { file: configPath(ctx) ?? null, source: ctx.configSource, overrides };
  try {
    ctx.config = loadConfig({ file: ctx.configFile, env: ctx.env });
  } catch (err) {
    if (!isEngramError(err)) throw err;
    const error = err;
    return {
      status: 'fail',
      finding: error.message,
      fix: fixFor(ctx, error.details.rule, error.details.field),
      code: error.code,
      details: { ...details, error: error.toJSON() },
    };
  }
  const overridden = overrides.length > 0 ? `; overridden by ${overrides.join(', ')}` : '';
  return { status: 'ok', finding: `${fileText(ctx)}${overridden}`, details };
};
