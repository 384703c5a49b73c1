/** What the memory commands share: the list/search filters, the change record, showing a memory. */
import { type Kind, KINDS, type Memory, type Status, STATUSES } from '../../domain/types.js';
import type { Call, OptionSpec } from './command.js';
import type { GlobalOptions } from './context.js';
import { show } from './output.js';
import { collect } from './parse.js';

/** The filters of `list` and `search`. */
export const FILTER_OPTIONS: readonly OptionSpec[] = [
  { flags: '--kind <kind...>', description: 'only these kinds', choices: KINDS },
  {
    flags: '--area <prefix>',
    description: 'only areas under this prefix (repeatable)',
    parse: collect,
  },
  {
    flags: '--tag <tag>',
    description: 'only items with every given tag (repeatable)',
    parse: collect,
  },
  { flags: '--status <status...>', description: 'statuses to include', choices: STATUSES },
  { flags: '--pinned', description: 'only pinned items' },
  { flags: '--created-after <iso>', description: 'created at or after this ISO time' },
  { flags: '--created-before <iso>', description: 'created before this ISO time' },
  { flags: '--updated-after <iso>', description: 'updated at or after this ISO time' },
  { flags: '--updated-before <iso>', description: 'updated before this ISO time' },
];

/** The option that shows whole bodies in a table instead of one line cut to the terminal. */
export const FULL_OPTION: OptionSpec = {
  flags: '--full',
  description:
    'show whole bodies, wrapped (default: one line each, cut with … to fit $COLUMNS, else the terminal width, else 100 columns)',
};

/** The parsed filter flags. */
export type FilterFlags = {
  kind?: Kind[];
  area?: string[];
  tag?: string[];
  status?: Status[];
  pinned?: boolean;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
};

/** The filter flags as the service's filter fields. */
export function filters(o: FilterFlags) {
  return {
    kinds: o.kind,
    areas: o.area,
    tags: o.tag,
    statuses: o.status,
    pinned: o.pinned,
    created_after: o.createdAfter,
    created_before: o.createdBefore,
    updated_after: o.updatedAfter,
    updated_before: o.updatedBefore,
  };
}

/** Who makes a change and why, recorded in the memory's history. */
export const CHANGE_OPTIONS: readonly OptionSpec[] = [
  { flags: '--actor <name>', description: 'who makes the change (recorded in history)' },
  { flags: '--reason <text>', description: 'why (recorded in history)' },
];

/** The parsed change flags. */
export type ChangeFlags = { actor?: string; reason?: string };

/** The change fields of a service call: the space, the actor and the reason. */
export function change(call: Call<unknown[], ChangeFlags>): {
  space?: string;
  actor?: string;
  reason?: string;
} {
  return { space: call.globals.space, actor: call.options.actor, reason: call.options.reason };
}

/** Prints a memory: its JSON, else `line` (by default the memory's details). */
export async function showMemory(g: GlobalOptions, memory: Memory, line?: string): Promise<void> {
  await show(g, memory, async (m) => line ?? (await import('./memory-views.js')).memoryDetails(m));
}
