/**
 * The settings view of a space (§13, web console settings): every configuration value an operator
 * cares about, grouped in sections, each with its value, where it came from (file, env, option,
 * default, or a runtime change) and whether it can change at run time. Secrets never leave: API
 * keys and token hashes are hidden, passwords in URLs replaced.
 */
import {
  RUNTIME_FIELDS,
  runtimeValue,
  type SettingControl,
  type StoredSettings,
} from './runtime-settings.js';
import type { Config } from './schema.js';
import { type ConfigSource, sourceOf, valueAt } from './sources.js';

/** Where a setting's current value comes from. */
export type SettingSource = ConfigSource | 'runtime';

/** A setting's value as shown: secrets hidden, token lists as names and roles. */
export type SettingValue = string | number | boolean | null | string[];

/** One setting of the view. */
export interface SettingView {
  /** The configuration key, e.g. `recall.weights.keyword`. */
  key: string;
  value: SettingValue;
  source: SettingSource;
  /** It can be changed at run time (PATCH .../settings); otherwise only by a restart. */
  changeable: boolean;
  /** For a changeable setting: the value a reset returns to, and where it comes from. */
  configured?: { value: SettingValue; source: ConfigSource };
  /** For a changeable setting: how it is edited. */
  control?: SettingControl;
  /** What it does (changeable settings). */
  description?: string;
  /** The value is a secret and is not shown. */
  redacted?: boolean;
}

/** A group of settings. */
export interface SettingsSection {
  id: string;
  title: string;
  description: string;
  settings: SettingView[];
}

/** The settings of a space. */
export interface SettingsView {
  space: string;
  sections: SettingsSection[];
}

interface SectionSpec {
  id: string;
  title: string;
  description: string;
  /** Top-level keys or key prefixes it holds. */
  prefixes: string[];
  exclude?: string[];
}

/** The sections, in the order the console shows them. */
const SECTIONS: readonly SectionSpec[] = [
  {
    id: 'recall',
    title: 'Recall',
    description:
      'How hybrid recall finds, fuses and orders memories. Channel weights, boosts and legacy rerank can change at run time for this space; a search may still override weights and rerank.',
    prefixes: ['recall'],
    exclude: ['recall.decision'],
  },
  {
    id: 'decision',
    title: 'Decision stage & sources',
    description:
      'The optional second stage that judges the candidate pool, and the sources that add candidates to it. Its adapter and credentials are connected when the process starts.',
    prefixes: ['recall.decision'],
  },
  {
    id: 'auto_recall',
    title: 'Auto-recall',
    description:
      'Recall during a conversation: whether it runs, how it surfaces memories and how often.',
    prefixes: ['auto_recall'],
  },
  {
    id: 'dormant',
    title: 'Dormant recall',
    description:
      'The shadow experiment that looks for one relevant long-unused memory per search and logs it for review, never into results.',
    prefixes: ['dormant_recall'],
  },
  {
    id: 'lifecycle',
    title: 'Lifecycle',
    description: 'Decay, status thresholds, reinforcement, review, backups and the nightly run.',
    prefixes: ['lifecycle'],
  },
  {
    id: 'dream',
    title: 'Consolidation',
    description: 'Dream runs: duplicates, conflicts, area folds, stale archival and skills.',
    prefixes: ['dream'],
  },
  {
    id: 'embedder',
    title: 'Embedder & model',
    description:
      'The embedding provider a new store publishes. The published model and transitions are on the Models page.',
    prefixes: ['embedder'],
  },
  {
    id: 'graph',
    title: 'Knowledge graph',
    description: 'Entity extraction and the bounds of graph traversal.',
    prefixes: ['graph'],
  },
  {
    id: 'store',
    title: 'Store & limits',
    description: 'Where memories are kept, and the size limits of what is written and asked.',
    prefixes: ['store', 'limits'],
  },
  {
    id: 'worker',
    title: 'Background work',
    description: 'The job worker: polling, leases, deadlines and retries.',
    prefixes: ['worker'],
  },
  {
    id: 'server',
    title: 'Server',
    description: 'The HTTP service and its tokens (names and roles only; hashes are never shown).',
    prefixes: ['space', 'server'],
  },
];

const HIDDEN = '(set, hidden)';
const SECRET_KEY = /(^|_)(api_key|password|secret|hash)$/;

/** Every leaf of a configuration object, as dotted keys with their paths (arrays are leaves). */
function leaves(node: unknown, path: string[] = []): string[][] {
  if (typeof node !== 'object' || node === null || Array.isArray(node))
    return path.length ? [path] : [];
  return Object.keys(node).flatMap((k) =>
    leaves((node as Record<string, unknown>)[k], [...path, k]),
  );
}

/** A URL with any password (and secret-looking query values) replaced. */
function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return HIDDEN;
  }
  if (url.password) url.password = 'hidden';
  for (const name of [...url.searchParams.keys()])
    if (/pass|secret|key|token/i.test(name)) url.searchParams.set(name, 'hidden');
  return url.toString();
}

/** A token entry without its hash: `name (role: spaces)`. */
function tokenLabel(token: unknown): string {
  const t = token as { name?: string; role?: string; spaces?: string[] };
  return `${t.name ?? '?'} (${t.role ?? '?'}: ${(t.spaces ?? []).join(', ')})`;
}

/** The value of a leaf as shown, and whether it was hidden. */
export function shownValue(
  key: string,
  value: unknown,
): { value: SettingValue; redacted: boolean } {
  const last = key.split('.').pop() ?? key;
  if (SECRET_KEY.test(last))
    return { value: value === undefined || value === null ? null : HIDDEN, redacted: true };
  if (key === 'server.tokens' && Array.isArray(value))
    return { value: value.map(tokenLabel), redacted: false };
  if (/url$/.test(last) && typeof value === 'string')
    return { value: redactUrl(value), redacted: false };
  if (Array.isArray(value))
    return {
      value: value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
      redacted: false,
    };
  if (value === undefined || value === null) return { value: null, redacted: false };
  if (typeof value === 'object') return { value: JSON.stringify(value), redacted: false };
  return { value: value as string | number | boolean, redacted: false };
}

function inSection(key: string, spec: SectionSpec): boolean {
  const under = (p: string) => key === p || key.startsWith(`${p}.`);
  return spec.prefixes.some(under) && !(spec.exclude ?? []).some(under);
}

/** One setting: its shown value and source, and for a runtime one what a reset returns to. */
function settingView(
  config: Config,
  stored: StoredSettings,
  path: string[],
  runtime: boolean,
): SettingView {
  const key = path.join('.');
  const configured = shownValue(key, valueAt(config, path));
  const source = sourceOf(config, path);
  const field = runtime ? RUNTIME_FIELDS[key] : undefined;
  const view: SettingView = { key, value: configured.value, source, changeable: false };
  if (configured.redacted) view.redacted = true;
  if (!field) return view;
  const live = runtimeValue(stored, key);
  return {
    ...view,
    ...(live === undefined ? {} : { value: live as SettingValue, source: 'runtime' }),
    changeable: true,
    configured: { value: configured.value, source },
    control: field.control,
    description: field.description,
  };
}

/**
 * The settings view of a space: `stored` holds its runtime records; `runtime` says whether this
 * store can keep runtime changes (without it every setting is read-only).
 */
export function settingsView(
  config: Config,
  space: string,
  stored: StoredSettings,
  runtime: boolean,
): SettingsView {
  const all = leaves(config);
  return {
    space,
    sections: SECTIONS.map((spec) => ({
      id: spec.id,
      title: spec.title,
      description: spec.description,
      settings: all
        .filter((path) => inSection(path.join('.'), spec))
        .map((path) => settingView(config, stored, path, runtime)),
    })),
  };
}

/** Whether a key names a configuration value the view shows (a changeable one or not). */
export function isSettingKey(config: Config, key: string): boolean {
  return leaves(config).some((path) => path.join('.') === key);
}
