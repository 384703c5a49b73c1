/**
 * Where each configuration value came from: the YAML file, an `ENGRAM_*` environment variable, an
 * option of the program that started engram (a command-line flag, createEngram's `config`), or the
 * documented default. loadConfig records the raw layers beside the frozen Config it returns, so
 * the settings view can tell an operator what to edit to change a value.
 */
import { type Config, configSchema } from './schema.js';

/** The origin of a configuration value, from the lowest precedence to the highest. */
export type ConfigSource = 'default' | 'file' | 'env' | 'option';

/** The raw (unvalidated) layers loadConfig merged, each as it was given. */
export interface ConfigLayers {
  file: Record<string, unknown>;
  env: Record<string, unknown>;
  option: Record<string, unknown>;
}

const recorded = new WeakMap<Config, ConfigLayers>();

/** Remembers the layers a configuration was loaded from (called by loadConfig). */
export function recordSources(config: Config, layers: ConfigLayers): void {
  recorded.set(config, layers);
}

/** Whether a raw layer gives a value at `path` (arrays are leaves). */
function hasPath(layer: unknown, path: readonly string[]): boolean {
  let node = layer;
  for (const key of path) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return false;
    if (!Object.hasOwn(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return node !== undefined;
}

let defaults: Config | undefined;

/** The configuration with every default applied and nothing given. */
function defaultConfig(): Config {
  defaults ??= configSchema.parse({}, { jitless: true });
  return defaults;
}

/** The value at a path of a configuration-shaped object. */
export function valueAt(root: unknown, path: readonly string[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * Where the value at `path` (e.g. ['recall', 'weights', 'keyword']) came from. A configuration
 * not made by loadConfig (assembled by hand) has no layers: a value equal to its default is the
 * default, any other was given by the program.
 */
export function sourceOf(config: Config, path: readonly string[]): ConfigSource {
  const layers = recorded.get(config);
  if (!layers) {
    const same =
      JSON.stringify(valueAt(config, path)) === JSON.stringify(valueAt(defaultConfig(), path));
    return same ? 'default' : 'option';
  }
  if (hasPath(layers.option, path)) return 'option';
  if (hasPath(layers.env, path)) return 'env';
  if (hasPath(layers.file, path)) return 'file';
  return 'default';
}
