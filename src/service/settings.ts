/**
 * Facade for the settings of a space (§13): the effective configuration with each value's source,
 * and runtime changes of the settings that can change without a restart (recall weights, boosts
 * and rerank; auto-recall; the dormant-recall mode), persisted per space in the store so every
 * process on it honours them. Also the reads recall and dormant recall make of those values.
 */
import {
  applyChanges,
  liveRecall,
  RUNTIME_SECTIONS,
  type RuntimeSection,
  type SettingsChange,
  settingsChangeSchema,
  type StoredSettings,
} from '../config/runtime-settings.js';
import type { Config } from '../config/schema.js';
import { isSettingKey, type SettingsView, settingsView } from '../config/settings-view.js';
import { EngramError, invalidInput } from '../domain/errors.js';
import { parseWith } from '../domain/zod.js';
import { objectArg, optionsArg } from './args.js';
import type { ServiceContext } from './context.js';

/** The settings facade. */
export interface SettingsFacade {
  /** The settings of a space: each value with its source and whether it can change at run time. */
  settings(options?: { space?: string }): Promise<SettingsView>;
  /**
   * Changes runtime settings of a space (a key set to null returns to its configured value);
   * persisted in the store. Returns the settings after the change.
   */
  changeSettings(change: SettingsChange, options?: { space?: string }): Promise<SettingsView>;
}

/** The stored runtime records of a space (none when the store keeps no settings). */
export async function readRuntime(
  ctx: ServiceContext,
  space: string,
  sections: readonly RuntimeSection[] = RUNTIME_SECTIONS,
): Promise<StoredSettings> {
  const store = ctx.store.lifecycle;
  if (!store) return {};
  const values = await Promise.all(sections.map((s) => store.getSetting(space, s)));
  return Object.fromEntries(sections.map((s, i) => [s, values[i]]));
}

/**
 * Recall's settings in a space: the configured ones with the space's runtime values. Recall
 * always answers: when the store cannot say, the configured settings apply (and it is logged).
 */
export async function recallSettings(
  ctx: ServiceContext,
  space: string,
): Promise<Config['recall']> {
  try {
    return liveRecall(ctx.config, (await readRuntime(ctx, space, ['recall'])).recall);
  } catch (err) {
    ctx.log.warn('runtime recall settings unreadable; the configured ones apply', {
      error: String(err),
    });
    return ctx.config.recall;
  }
}

/** Refuses keys that are not runtime settings, naming why; and an empty change. */
function checkKeys(ctx: ServiceContext, change: SettingsChange): void {
  const keys = Object.keys(change);
  if (keys.length === 0)
    throw invalidInput('(root)', 'name at least one setting to change or reset (null resets)');
  const fixed = keys.find((k) => !(k in settingsChangeSchema.shape) && isSettingKey(ctx.config, k));
  if (fixed)
    throw invalidInput(
      fixed,
      'is fixed when engram starts: set it in the configuration file (or its ENGRAM_ variable) and restart',
    );
}

/** The settings facade over a context. */
export function settingsFacade(ctx: ServiceContext): SettingsFacade {
  const view = async (space: string) =>
    settingsView(
      ctx.config,
      space,
      await readRuntime(ctx, space),
      ctx.store.lifecycle !== undefined,
    );
  return {
    settings: async (options) => view(ctx.space(optionsArg(options).space)),
    async changeSettings(given, options) {
      const space = ctx.space(optionsArg(options).space);
      const change = objectArg(given, 'change');
      checkKeys(ctx, change);
      const parsed = parseWith(settingsChangeSchema, change);
      const store = ctx.store.lifecycle;
      if (!store)
        throw new EngramError(
          'STORE_UNAVAILABLE',
          `the ${ctx.store.capabilities.backend} store keeps no runtime settings`,
          { rule: 'lifecycle capability' },
        );
      const next = applyChanges(await readRuntime(ctx, space), parsed);
      const at = ctx.now();
      for (const [section, value] of Object.entries(next))
        await store.putSetting(space, section, value, at);
      return view(space);
    },
  };
}
