/**
 * Loads engram's configuration: a YAML file, then `ENGRAM_*` environment overrides, then explicit
 * overrides, validated once with zod into a frozen Config. Errors name the key and the rule.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';

import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { z } from 'zod';

import { EngramError } from '../domain/errors.js';
import { fromZodError } from '../domain/zod.js';
import { type Config, type ConfigInput, configSchema } from './schema.js';
import { recordSources } from './sources.js';

/** Where the configuration comes from. */
export interface LoadConfigOptions {
  /** A YAML file; when absent, `ENGRAM_CONFIG` names one (optional). */
  file?: string;
  /** Environment to read `ENGRAM_*` overrides from (default: process.env). */
  env?: Record<string, string | undefined>;
  /** Values that win over the file and the environment (e.g. from createEngram). */
  overrides?: ConfigInput;
}

/** Environment variables that are not configuration keys. */
const NON_CONFIG_ENV = new Set([
  'ENGRAM_CONFIG',
  'ENGRAM_TEST_PG_URL',
  'ENGRAM_TEST_CACHE_DIR',
  'ENGRAM_LOG_LEVEL',
  'ENGRAM_DEBUG',
  // The CLI's code cache (interfaces/cli/code-cache.ts), read before any configuration.
  'ENGRAM_CODE_CACHE',
]);

/** Default data directory: `$XDG_DATA_HOME/engram` or `~/.local/share/engram`. */
export function defaultDataDir(env: Record<string, string | undefined> = process.env): string {
  const base =
    env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME)
      ? env.XDG_DATA_HOME
      : join(homedir(), '.local', 'share');
  return join(base, 'engram');
}

/** Default cache directory: `$XDG_CACHE_HOME/engram` or `~/.cache/engram`. */
export function defaultCacheDir(env: Record<string, string | undefined> = process.env): string {
  const base =
    env.XDG_CACHE_HOME && isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : join(homedir(), '.cache');
  return join(base, 'engram');
}

/** Loads, merges and validates configuration; the result is deeply frozen. */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? process.env;
  const file = options.file ?? env.ENGRAM_CONFIG;
  const fromFile = file ? readConfigFile(file) : {};
  const fromEnv = envOverrides(env);
  const option = (options.overrides ?? {}) as Record<string, unknown>;
  const merged = deepMerge(deepMerge(fromFile, fromEnv), option);
  // Parsed once per process: compiling a fast path for the schema would cost more than it saves.
  const result = configSchema.safeParse(merged, { jitless: true });
  if (!result.success) throw configError(result.error, file);
  const config = deepFreeze(
    resolvePaths(result.data, file ? dirname(resolve(file)) : process.cwd(), env),
  );
  // Where each value came from, for the settings view (config/sources.ts).
  recordSources(config, { file: fromFile, env: fromEnv, option });
  return config;
}

function configError(error: z.ZodError, file: string | undefined): EngramError {
  const base = fromZodError(error, 'CONFIG_INVALID');
  const where = file ? `configuration ${file}` : 'configuration';
  return new EngramError('CONFIG_INVALID', `${where}: ${base.message}`, { ...base.details, file });
}

function readConfigFile(file: string): Record<string, unknown> {
  if (!existsSync(file) || !statSync(file).isFile()) {
    throw new EngramError('CONFIG_INVALID', `configuration file ${file} does not exist`, {
      file,
      rule: 'file must exist',
    });
  }
  let data: unknown;
  try {
    data = parseYaml(readFileSync(file, 'utf8'));
  } catch (err) {
    const where =
      err instanceof YAMLParseError && err.linePos ? ` at line ${err.linePos[0].line}` : '';
    const msg = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new EngramError(
      'CONFIG_INVALID',
      `configuration file ${file} is not valid YAML${where}: ${msg}`,
      { file, rule: 'valid YAML' },
    );
  }
  if (data == null) return {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new EngramError(
      'CONFIG_INVALID',
      `configuration file ${file} must hold a mapping of keys`,
      { file, field: '(root)', rule: 'mapping' },
    );
  }
  return data as Record<string, unknown>;
}

/**
 * Maps `ENGRAM_*` variables onto schema keys, guided by the schema so that keys with underscores
 * resolve: `ENGRAM_RECALL_SEMANTIC_BUDGET_MS` -> recall.semantic_budget_ms. An ENGRAM_ variable
 * that names no key is an error, so a misspelt override never silently does nothing.
 */
export function envOverrides(env: Record<string, string | undefined>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith('ENGRAM_') || NON_CONFIG_ENV.has(name) || raw === undefined) continue;
    const path = resolveEnvPath(name.slice('ENGRAM_'.length).toLowerCase(), configSchema);
    if (!path) {
      throw new EngramError(
        'CONFIG_INVALID',
        `environment variable ${name} names no configuration key`,
        { field: name, rule: 'known key' },
      );
    }
    setPath(out, path, parseEnvValue(raw));
  }
  return out;
}

function objectShape(schema: unknown): Record<string, unknown> | undefined {
  let current = schema as
    | {
        def?: { type?: string; innerType?: unknown; in?: unknown; shape?: Record<string, unknown> };
      }
    | undefined;
  for (let i = 0; i < 8 && current?.def; i++) {
    const def = current.def;
    if (def.type === 'object') return def.shape;
    current = (def.innerType ?? def.in) as typeof current;
  }
  return undefined;
}

function resolveEnvPath(rest: string, schema: unknown): string[] | undefined {
  const shape = objectShape(schema);
  if (!shape) return undefined;
  for (const key of Object.keys(shape).sort((a, b) => b.length - a.length)) {
    if (rest === key) return [key];
    if (rest.startsWith(`${key}_`)) {
      const sub = resolveEnvPath(rest.slice(key.length + 1), shape[key]);
      if (sub) return [key, ...sub];
    }
  }
  return undefined;
}

function parseEnvValue(raw: string): unknown {
  const trimmed = raw.trim();
  if (trimmed === '') return raw;
  try {
    const value: unknown = parseYaml(trimmed);
    return value ?? raw;
  } catch {
    return raw;
  }
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    node = (next && typeof next === 'object' ? next : (node[key] = {})) as Record<string, unknown>;
  }
  node[path[path.length - 1]!] = value;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function deepMerge(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const prev = out[key];
    out[key] = isPlainObject(prev) && isPlainObject(value) ? deepMerge(prev, value) : value;
  }
  return out;
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? join(homedir(), p.slice(1)) : p;
}

function resolvePaths(
  config: Config,
  baseDir: string,
  env: Record<string, string | undefined>,
): Config {
  const storePath = config.store.path;
  const path =
    storePath === undefined
      ? join(defaultDataDir(env), 'engram.db')
      : storePath === ':memory:'
        ? storePath
        : resolve(baseDir, expandHome(storePath));
  const cacheDir =
    config.embedder.cache_dir === undefined
      ? defaultCacheDir(env)
      : resolve(baseDir, expandHome(config.embedder.cache_dir));
  return {
    ...config,
    store: { ...config.store, path },
    embedder: { ...config.embedder, cache_dir: cacheDir },
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
