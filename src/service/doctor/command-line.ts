/** How a doctor's advice names an engram command: with `--config FILE` when a flag chose the file. */
import type { DoctorInput } from './types.js';

/** `engram status`, or `engram --config /srv/engram.yaml status` when --config named the file. */
export function engramCommand(input: DoctorInput, args: string): string {
  const config = input.configSource === 'flag' && input.configFile;
  return config ? `engram --config ${quoteArg(config)} ${args}` : `engram ${args}`;
}

/** A path as a shell argument: bare when it is plain, else in single quotes. */
export function quoteArg(text: string): string {
  return /^[\w@%+=:,./-]+$/u.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
