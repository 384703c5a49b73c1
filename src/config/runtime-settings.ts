/**
 * The settings an operator may change at run time, per space, without a restart: recall's channel
 * weights, boosts and legacy rerank, auto-recall's controls (§6) and the dormant-recall mode (§9).
 * The configuration gives their values; a runtime value is persisted in the store (one record per
 * space and section: `recall`, `auto_recall`, `dormant_recall`), so every process on the store
 * honours it, and a reset removes it so the configured value applies again. Every other setting
 * is fixed when the process starts.
 */
import { z } from 'zod';

import { CHANNELS } from '../domain/types.js';
import { configureInputSchema } from './autorecall-settings.js';
import { type Config, DORMANT_RECALL_MODES } from './schema.js';
import { valueAt } from './sources.js';

/** How a changeable setting is edited. */
export type SettingControl =
  | { type: 'number'; min: number; max: number; integer: boolean }
  | { type: 'boolean' }
  | { type: 'choice'; options: string[] };

/** One runtime-changeable setting: its rule and how it is edited. */
export interface RuntimeField {
  schema: z.ZodType;
  control: SettingControl;
  /** What the setting does, in one sentence. */
  description: string;
}

/** The store records runtime settings are kept in, one per space each. */
export const RUNTIME_SECTIONS = ['recall', 'auto_recall', 'dormant_recall'] as const;
/** A store record of runtime settings. */
export type RuntimeSection = (typeof RUNTIME_SECTIONS)[number];
/** A space's stored runtime records, as read from the store. */
export type StoredSettings = Partial<Record<RuntimeSection, unknown>>;

function number(min: number, max: number, description: string, integer = false): RuntimeField {
  const whole = integer ? 'a whole number' : 'a number';
  let schema = z
    .number({ message: `must be ${whole} from ${min} to ${max}` })
    .min(min, `must be at least ${min}`)
    .max(max, `must be at most ${max}`);
  if (integer) schema = schema.int('must be a whole number');
  return { schema, control: { type: 'number', min, max, integer }, description };
}

function positive(max: number, description: string): RuntimeField {
  const schema = z
    .number({ message: `must be a number above 0 and at most ${max}` })
    .positive('must be more than 0')
    .max(max, `must be at most ${max}`);
  return { schema, control: { type: 'number', min: 0, max, integer: false }, description };
}

function flag(description: string): RuntimeField {
  return {
    schema: z.boolean({ message: 'must be true or false' }),
    control: { type: 'boolean' },
    description,
  };
}

function choice(schema: z.ZodType, options: readonly string[], description: string): RuntimeField {
  return { schema, control: { type: 'choice', options: [...options] }, description };
}

const WEIGHT_NOTES: Record<(typeof CHANNELS)[number], string> = {
  keyword: 'Fusion weight of the keyword (BM25) channel; 0 turns it off.',
  vector: 'Fusion weight of the vector (meaning) channel; 0 turns it off.',
  graph: 'Fusion weight of the knowledge-graph channel; 0 turns it off.',
  time: 'Fusion weight of the time channel (dates a query names); 0 turns it off.',
};

const auto = configureInputSchema.shape;

/** Every runtime-changeable setting, by its configuration key. */
export const RUNTIME_FIELDS: Readonly<Record<string, RuntimeField>> = Object.freeze({
  ...Object.fromEntries(
    CHANNELS.map((c) => [`recall.weights.${c}`, number(0, 10, WEIGHT_NOTES[c])]),
  ),
  'recall.boosts.recency': number(0, 1, 'Largest boost for a recently updated memory.'),
  'recall.boosts.recency_half_life_days': positive(
    36_500,
    'Days after which the recency boost has halved.',
  ),
  'recall.boosts.frequency': number(0, 1, 'Largest boost for an often recalled memory.'),
  'recall.boosts.frequency_saturation': number(
    1,
    1_000_000,
    'Recalls at which the frequency boost is full.',
    true,
  ),
  'recall.boosts.importance': number(0, 1, 'Boost per unit of a memory’s importance.'),
  'recall.boosts.strength': number(0, 1, 'Boost per unit of a memory’s lifecycle strength.'),
  'recall.boosts.speaker': number(0, 1, 'Boost when the query names who said the memory.'),
  'recall.rerank.enabled': flag(
    'Legacy reranking of the best candidates with the relevance scorer, unless a search says.',
  ),
  'auto_recall.enabled': flag('Auto-recall answers messages (otherwise it does nothing).'),
  'auto_recall.mode': choice(
    auto.mode.unwrap(),
    auto.mode.unwrap().options,
    'silent reinforces only; subtle returns the memories; interactive returns a count and handles.',
  ),
  'auto_recall.relevance_threshold': {
    ...number(0, 1, 'Least relevance of a memory auto-recall surfaces.'),
    schema: auto.relevance_threshold.unwrap(),
  },
  'auto_recall.max_results': {
    ...number(1, 50, 'Memories auto-recall surfaces at most per message.', true),
    schema: auto.max_results.unwrap(),
  },
  'auto_recall.min_interval_s': {
    ...number(0, 31_536_000, 'Seconds between two recalls of one conversation.'),
    schema: auto.min_interval_s.unwrap(),
  },
  'dormant_recall.mode': choice(
    z.enum(DORMANT_RECALL_MODES, { message: `must be one of ${DORMANT_RECALL_MODES.join(', ')}` }),
    DORMANT_RECALL_MODES,
    'shadow evaluates searches into the review log (never into results); off does nothing.',
  ),
});

/** The keys of the runtime-changeable settings. */
export const RUNTIME_KEYS: readonly string[] = Object.keys(RUNTIME_FIELDS);

/** The store record and the path inside it of a runtime key. */
export function runtimePlace(key: string): { section: RuntimeSection; path: string[] } {
  const [section, ...path] = key.split('.');
  return { section: section as RuntimeSection, path };
}

/** A space's runtime value of `key`, when one is stored and still valid; else undefined. */
export function runtimeValue(stored: StoredSettings, key: string): unknown {
  const field = RUNTIME_FIELDS[key];
  if (!field) return undefined;
  const { section, path } = runtimePlace(key);
  const value = valueAt(stored[section], path);
  if (value === undefined) return undefined;
  const parsed = field.schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** Sets (or with undefined removes) a value at a path of a plain object, returning a copy. */
function withValue(
  root: unknown,
  path: readonly string[],
  value: unknown,
): Record<string, unknown> {
  const out = { ...(isRecord(root) ? root : {}) };
  const [head, ...rest] = path;
  if (head === undefined) return out;
  if (rest.length === 0) {
    if (value === undefined) delete out[head];
    else out[head] = value;
  } else out[head] = withValue(out[head], rest, value);
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The stored records after a change: `changes` maps runtime keys to a new value, or to null to
 * remove the runtime value (the configured one applies again). Returns only the records touched.
 */
export function applyChanges(
  stored: StoredSettings,
  changes: Readonly<Record<string, unknown>>,
): StoredSettings {
  const next: StoredSettings = {};
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    const { section, path } = runtimePlace(key);
    const current = section in next ? next[section] : stored[section];
    next[section] = withValue(current, path, value === null ? undefined : value);
  }
  return next;
}

/** Recall's settings (§3) in a space: the configured ones with the space's runtime values. */
export function liveRecall(config: Config, stored: unknown): Config['recall'] {
  const recall = config.recall;
  const runtime = { recall: stored };
  const pick = <T>(key: string, configured: T): T =>
    (runtimeValue(runtime, `recall.${key}`) as T | undefined) ?? configured;
  return {
    ...recall,
    weights: Object.fromEntries(
      CHANNELS.map((c) => [c, pick(`weights.${c}`, recall.weights[c])]),
    ) as Config['recall']['weights'],
    boosts: Object.fromEntries(
      Object.entries(recall.boosts).map(([k, v]) => [k, pick(`boosts.${k}`, v)]),
    ) as Config['recall']['boosts'],
    rerank: { ...recall.rerank, enabled: pick('rerank.enabled', recall.rerank.enabled) },
  };
}

/** The dormant-recall mode (§9) in a space: the configured one or the space's runtime value. */
export function liveDormantMode(config: Config, stored: unknown): Config['dormant_recall']['mode'] {
  const mode = runtimeValue({ dormant_recall: stored }, 'dormant_recall.mode');
  return (mode as Config['dormant_recall']['mode'] | undefined) ?? config.dormant_recall.mode;
}

/** A change of runtime settings: keys to new values, or to null to reset them. */
export const settingsChangeSchema = z.strictObject(
  Object.fromEntries(
    RUNTIME_KEYS.map((key) => [key, RUNTIME_FIELDS[key]!.schema.nullable().optional()]),
  ),
);

/** A change of runtime settings (null resets a key to its configured value). */
export type SettingsChange = Record<string, unknown>;
