/**
 * Creating folders without hanging. Node's `mkdirSync(dir, { recursive: true })` loops forever on
 * some paths whose parent cannot take a folder (e.g. under /proc); creating each missing level in
 * turn fails on the first one that cannot be made.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** Creates `dir` and its missing parents, one level at a time; throws the first level's error. */
export function makeDirectory(dir: string): void {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d); d = dirname(d)) {
    missing.unshift(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (err) {
      // Another process may create the same level at the same time.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}
