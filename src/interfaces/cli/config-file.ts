/**
 * Which configuration file a CLI command reads: `--config`, else `$ENGRAM_CONFIG`, else
 * `./engram.yaml` when the working directory has one (what `engram init` writes), else none (the
 * built-in defaults). Only the CLI looks in the working directory; the library reads a file only
 * when it is named.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

/** The file `engram init` writes and the CLI finds in the working directory. */
export const LOCAL_CONFIG = 'engram.yaml';

function localConfig(): string | undefined {
  const file = resolve(LOCAL_CONFIG);
  return existsSync(file) && statSync(file).isFile() ? file : undefined;
}

/**
 * The `config` global option a command runs with: the flag, else `./engram.yaml` when it exists
 * and `$ENGRAM_CONFIG` is unset (set, it stays undefined: the configuration loader reads it).
 */
export function configFileOption(
  flag: string | undefined,
  env: Record<string, string | undefined> = process.env,
): string | undefined {
  if (flag !== undefined || env.ENGRAM_CONFIG) return flag;
  return localConfig();
}

/** Whether a command given no `--config` reads `file` (so a hint may leave `--config` out). */
export function readWithoutFlag(
  file: string,
  env: Record<string, string | undefined> = process.env,
): boolean {
  const chosen = env.ENGRAM_CONFIG || localConfig();
  return chosen !== undefined && resolve(chosen) === resolve(file);
}
