/**
 * The commands of consolidation (§10): `dream preview` (read-only), `dream run [--dry-run]` (now,
 * in this process), `dream diary [RUN_ID]`, `dream runs`, `dream undo RUN_ID` and `dream
 * calibrate`. Each calls one service method and prints a view or, with --json, the service's JSON.
 * A run that did not complete is never reported as success: its state heads the output, a warning
 * goes to stderr, and the exit code is PARTIAL.
 */
import { DREAM_STAGES, type DreamDiary, type DreamStage } from '../../domain/dreams.js';
import { EXIT_CODES } from '../error-codes.js';
import type { CommandSpec, OptionSpec } from './command.js';
import { type GlobalOptions, withEngram } from './context.js';
import { printJson, println, show } from './output.js';
import { int, oneOf } from './parse.js';
import { printable } from './printable.js';

const views = () => import('./dream-views.js');

const STAGES = DREAM_STAGES;

/** Runs `dream` given no subcommand lists. */
const STATUS_RUNS = 5;

/** Diary entries the human view prints (--json prints all). */
const ENTRIES_SHOWN = 20;

type StageFlags = { stage?: DreamStage[] };

const STAGE_OPTION: OptionSpec = {
  flags: '--stage <stage>',
  description: `only this stage (repeatable, or comma-separated): ${STAGES.join(', ')}; default: all`,
  parse: oneOf(STAGES),
};

/** Prints a diary: its JSON, or the view with a warning on stderr when the run did not complete. */
async function printDiary(g: GlobalOptions, diary: DreamDiary): Promise<void> {
  if (g.json) return printJson(diary);
  const v = await views();
  println(v.diaryText(diary, ENTRIES_SHOWN));
  const warning = v.incompleteWarning(diary.run);
  if (warning) process.stderr.write(`engram: ${printable(warning)}\n`);
}

const preview: CommandSpec<[], StageFlags> = {
  name: 'preview',
  description:
    'what a dream run would do now, stage by stage: proposals with ids, reasons and scores (read-only)',
  readsOnly: true,
  options: [STAGE_OPTION],
  async run({ options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      const result = await engram.dreamPreview({ space: g.space, stages: o.stage });
      await show(g, result, async (p) => (await views()).previewText(p));
    });
  },
};

const run: CommandSpec<[], StageFlags & { dryRun?: boolean }> = {
  name: 'run',
  description:
    'consolidate now, in this process: merge near-duplicates, fold areas, archive stale items, tidy skills; prints the diary',
  options: [
    STAGE_OPTION,
    { flags: '--dry-run', description: 'log the proposals in a diary; change no memory' },
  ],
  async run({ options: o, globals: g }) {
    // The embedder is loaded so that a keeper's revised body gets its vector before the exit.
    await withEngram(g, true, async (engram) => {
      const diary = await engram.dreamRun({ space: g.space, stages: o.stage, dry_run: o.dryRun });
      await printDiary(g, diary);
      return (await views()).runExitCode(diary.run);
    });
  },
};

const diary: CommandSpec<[string | undefined]> = {
  name: 'diary [run_id]',
  description: "a dream run's summary and diary entries (default: the latest run)",
  readsOnly: true,
  async run({ args: [runId], globals: g }) {
    await withEngram(g, false, async (engram) => {
      await printDiary(g, await engram.dreamDiary(runId, { space: g.space }));
    });
  },
};

const runs: CommandSpec<[], { limit?: number; cursor?: string }> = {
  name: 'runs',
  description: 'dream runs of the space, newest first',
  readsOnly: true,
  options: [
    { flags: '--limit <n>', description: 'runs listed at most (default 20)', parse: int },
    { flags: '--cursor <cursor>', description: 'continue a previous listing' },
  ],
  async run({ options: o, globals: g }) {
    await withEngram(g, false, async (engram) => {
      const page = await engram.dreamRuns({ space: g.space, ...o });
      await show(g, page, async (p) => (await views()).runsText(p));
    });
  },
};

const undo: CommandSpec<[string]> = {
  name: 'undo <run_id>',
  description:
    'restore what a run changed and nothing has changed since; says what it could not restore and why',
  async run({ args: [runId], globals: g }) {
    // A keeper's body returned to its earlier version gets its vector back before the exit.
    await withEngram(g, true, async (engram) => {
      const report = await engram.dreamUndo(runId, { space: g.space });
      await show(g, report, async (r) => (await views()).undoText(r));
      return report.not_restored.length > 0 ? EXIT_CODES.PARTIAL : 0;
    });
  },
};

const calibrate: CommandSpec = {
  name: 'calibrate',
  description:
    "each item's closest candidate's similarity and text overlap, and merges per threshold (to tune dream.duplicates)",
  readsOnly: true,
  async run({ globals: g }) {
    await withEngram(g, false, async (engram) => {
      const report = await engram.dreamCalibrate({ space: g.space });
      await show(g, report, async (r) => (await views()).calibrationText(r));
    });
  },
};

/** `engram dream ...`. */
export const DREAM_COMMANDS: readonly CommandSpec[] = [
  {
    name: 'dream',
    description:
      'consolidation: preview, run, read diaries, undo a run, calibrate the duplicate thresholds (alone: the latest runs)',
    readsOnly: true,
    commands: [preview, run, diary, runs, undo, calibrate],
    async run({ globals: g }) {
      await withEngram(g, false, async (engram) => {
        const page = await engram.dreamRuns({ space: g.space, limit: STATUS_RUNS });
        await show(g, page, async (p) => (await views()).runsText(p));
      });
    },
  },
];
