/**
 * How the settings page words a setting: its value as text, its source as a badge, and why a
 * read-only setting cannot change here.
 */
import type { Schemas } from '../../lib/api';

/** One setting as the API returns it. */
export type Setting = Schemas['Setting'];
/** Where a setting's value comes from. */
export type Source = Setting['source'];

/** The badge of each source: its words and its tone. */
export const SOURCES: Record<Source, { label: string; tone?: string; title: string }> = {
  runtime: {
    label: 'runtime',
    tone: 'ok',
    title: 'Changed at run time for this space; every engram process on the store uses it.',
  },
  file: { label: 'file', tone: 'kind', title: 'Set in the configuration file.' },
  env: { label: 'env', tone: 'warn', title: 'Set by an ENGRAM_ environment variable.' },
  option: {
    label: 'option',
    title: 'Given by the command or program that started engram (a flag or library option).',
  },
  default: { label: 'default', tone: 'off', title: 'The documented default.' },
};

/** The environment variable that sets a key: `recall.weights.keyword` -> ENGRAM_RECALL_WEIGHTS_KEYWORD. */
export function envName(key: string): string {
  return `ENGRAM_${key.replaceAll('.', '_').toUpperCase()}`;
}

/** A value as text: lists joined, null as "not set". */
export function valueText(value: Setting['value']): string {
  if (value === null) return 'not set';
  if (Array.isArray(value)) return value.length === 0 ? 'none' : value.join(', ');
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return String(value);
}

/** Why a setting cannot be changed on this page, and what to do instead. */
export function readOnlyReason(setting: Setting, isAdmin: boolean): string {
  if (setting.changeable && !isAdmin)
    return 'Can change at run time: a token with the admin role can change it here.';
  switch (setting.source) {
    case 'env':
      return `Set by ${envName(setting.key)}; restart to change.`;
    case 'option':
      return 'Given by the command that started engram; restart to change.';
    case 'default':
      return 'The default: set it in the configuration file and restart to change.';
    default:
      return 'Set in the configuration file; restart to change.';
  }
}
