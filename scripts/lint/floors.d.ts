// Types of the floors lint module (floors.js stays plain JavaScript: eslint.config.js loads it).
import type { ESLint } from 'eslint';

/** Floor of each top-level entry of src/. */
export declare const FLOORS: Readonly<Record<string, number>>;
/** The top-level entry of src/ that a path lies in, or null outside src/. */
export declare function entryOf(file: string, srcRoot: string): string | null;
/** Why `from` may not import `to` (top-level entries of src/), or null when it may. */
export declare function floorViolation(from: string, to: string): string | null;
/** The ESLint plugin that carries the rule `floors`. */
declare const plugin: ESLint.Plugin;
export default plugin;
