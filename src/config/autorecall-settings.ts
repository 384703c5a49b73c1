/**
 * Auto-recall settings (§6 controls): the configuration file gives the defaults, and
 * `configure_auto_recall` changes them at run time, persisted per space in the store, so every
 * process on the store (CLI, MCP server, HTTP server) sees the same settings.
 */
import { z } from 'zod';

import { spaceSchema } from '../domain/input.js';
import { AUTO_RECALL_MODES, type Config } from './schema.js';

/** The runtime-settable auto-recall controls. */
export interface AutoRecallSettings {
  enabled: boolean;
  mode: (typeof AUTO_RECALL_MODES)[number];
  relevance_threshold: number;
  max_results: number;
  min_interval_s: number;
}

/** One auto-recall mode. */
export type AutoRecallMode = AutoRecallSettings['mode'];

const unit = z
  .number({ message: 'must be a number between 0 and 1' })
  .min(0, 'must be between 0 and 1')
  .max(1, 'must be between 0 and 1');

const fields = {
  enabled: z.boolean({ message: 'must be true or false' }),
  mode: z.enum(AUTO_RECALL_MODES, { message: `must be one of ${AUTO_RECALL_MODES.join(', ')}` }),
  relevance_threshold: unit,
  max_results: z
    .number({ message: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(50, 'must be at most 50'),
  min_interval_s: z
    .number({ message: 'must be a number of seconds' })
    .min(0, 'must be at least 0 seconds')
    .max(31_536_000, 'must be at most one year'),
};

/** `configure_auto_recall` input: any subset of the controls. */
export const configureInputSchema = z.strictObject({
  space: spaceSchema.optional(),
  enabled: fields.enabled.optional(),
  mode: fields.mode.optional(),
  relevance_threshold: fields.relevance_threshold.optional(),
  max_results: fields.max_results.optional(),
  min_interval_s: fields.min_interval_s.optional(),
});

/** Raw `configure_auto_recall` input. */
export type ConfigureAutoRecallInput = z.input<typeof configureInputSchema>;

/** Stored overrides, read back leniently: a field that no longer validates is ignored. */
const storedSchema = z.object(fields).partial();

/** The settings key in the store. */
export const SETTINGS_KEY = 'auto_recall';

/** Configuration defaults with the stored overrides applied. */
export function effectiveSettings(config: Config, stored: unknown): AutoRecallSettings {
  const { enabled, mode, relevance_threshold, max_results, min_interval_s } = config.auto_recall;
  const defaults = { enabled, mode, relevance_threshold, max_results, min_interval_s };
  const parsed = storedSchema.safeParse(stored ?? {});
  if (parsed.success) return { ...defaults, ...stripUndefined(parsed.data) };
  const fieldsOk = Object.fromEntries(
    Object.entries((stored ?? {}) as Record<string, unknown>).filter(
      ([k, v]) => k in fields && fields[k as keyof typeof fields].safeParse(v).success,
    ),
  );
  return { ...defaults, ...fieldsOk };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
