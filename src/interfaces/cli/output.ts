/** CLI output: exact JSON with --json, human text otherwise (its renderer is loaded only then). */
import type { GlobalOptions } from './context.js';
import { printable, printableLine } from './printable.js';
import { truncate } from './text-width.js';

/** Writes a value as JSON (one document) to stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Writes one line of human output to stdout, its control characters shown escaped. */
export function println(line = ''): void {
  process.stdout.write(`${printable(line)}\n`);
}

/** Prints a result: its JSON with --json, else the text `human` renders from it. */
export async function show<T>(
  globals: GlobalOptions,
  value: T,
  human: (value: T) => string | Promise<string>,
): Promise<void> {
  if (globals.json) printJson(value);
  else println(await human(value));
}

/** Cuts a text to one line of at most `max` columns (its other controls shown escaped). */
export function shorten(text: string, max: number): string {
  return truncate(printableLine(text.replace(/\s+/gu, ' ').trim()), max);
}
