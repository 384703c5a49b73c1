/**
 * The commands of areas (§10): `areas` lists the areas of the space that hold live memories with
 * their counts (read-only), and `areas fold FROM TO [--dry-run]` moves every memory of FROM into TO
 * by hand, content unchanged, each restorable on its own with `engram restore ID`. Each calls one
 * service method and prints a view or, with --json, the result.
 */
import type { CommandSpec } from './command.js';
import { withEngram } from './context.js';
import { change, CHANGE_OPTIONS, type ChangeFlags } from './memory-common.js';
import { show } from './output.js';

const views = () => import('./area-views.js');

const fold: CommandSpec<[string, string], ChangeFlags & { dryRun?: boolean }> = {
  name: 'fold <from> <to>',
  description:
    'move every memory of area FROM into area TO, content unchanged; each can be moved back with `engram restore ID`',
  options: [
    { flags: '--dry-run', description: 'list the memories that would move; change nothing' },
    ...CHANGE_OPTIONS,
  ],
  async run(call) {
    const [from, to] = call.args;
    const { globals: g, options: o } = call;
    // A dry run only reads: it needs an existing store, as the reading commands do.
    const opened = o.dryRun ? { ...g, existingStore: true } : g;
    await withEngram(opened, false, async (engram) => {
      const result = await engram.foldArea(from, to, { ...change(call), dry_run: o.dryRun });
      await show(g, result, async (r) => (await views()).foldText(r));
    });
  },
};

/** `engram areas` and `engram areas fold`. */
export const AREA_COMMANDS: readonly CommandSpec[] = [
  {
    name: 'areas',
    description:
      'areas of the space that hold live memories, with their counts; fold one into another',
    readsOnly: true,
    commands: [fold],
    async run({ globals: g }) {
      await withEngram(g, false, async (engram) => {
        const areas = await engram.areas({ space: g.space });
        await show(g, { areas }, async (list) => (await views()).areasText(list.areas));
      });
    },
  },
];
