/**
 * YAML text for the CLI's printed configuration snippets. Commands import this module lazily;
 * it imports the YAML library statically, which works the same compiled and bundled.
 */
import { stringify } from 'yaml';

/** The YAML text of a value. */
export function yamlText(value: unknown): string {
  return stringify(value);
}
