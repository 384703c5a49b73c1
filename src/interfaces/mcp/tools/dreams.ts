/**
 * The MCP tools of consolidation (§10, §13): dream_preview (read-only), dream_run (changes
 * memories, every change reversible) and dream_diary (a run's diary, or the latest).
 */
import { z } from 'zod';

import { dreamRequestSchema } from '../../../domain/dream-input.js';
import { idSchema, spaceSchema } from '../../../domain/input.js';
import { DreamDiarySchema, DreamPreviewSchema } from '../../responses/dreams.js';
import { COMMON_DOCS, defineTool, described, READ_ONLY, type ToolGroup, WRITES } from '../tool.js';

const DOCS: Record<string, string> = {
  ...COMMON_DOCS,
  stages:
    'Stages to look at, in run order: duplicates (merge near-duplicates), folds (fold similar areas), stale (archive long-untouched items; off unless configured), skills (dedupe and cap skills). Default: all.',
  dry_run: 'Log the proposals in a diary and change no memory.',
  run_id: 'Dream run id, as returned by dream_run. Default: the latest run of the space.',
};

const { stages, dry_run } = dreamRequestSchema.shape;
const space = spaceSchema.optional();

/** dream_preview, dream_run, dream_diary. */
export const dreamTools: ToolGroup = () => [
  defineTool({
    name: 'dream_preview',
    title: 'Preview consolidation',
    description:
      'What a dream run (memory consolidation) would do now, stage by stage, without changing anything: proposals such as merging near-duplicate memories (items [lesser, keeper], similarity, overlap, reason), folding an area into another, archiving stale items; and why a stage is off. Returns {space, stages: [{stage, off, complete, note, proposals: [{stage, action, reason, items, detail, skip}]}]}.',
    input: z.strictObject(described({ space, stages }, DOCS)),
    output: DreamPreviewSchema,
    annotations: READ_ONLY,
    run: (args, { engram }) => engram.dreamPreview(args),
  }),
  defineTool({
    name: 'dream_run',
    title: 'Run consolidation',
    description:
      'Consolidates memory now: merges near-duplicates (the lesser is archived as merged into the keeper, never deleted), folds similar areas, archives stale items (when configured), tidies skills; within a deadline and daily caps. Returns the run and its diary {run: {id, state, diary, reason, stages}, entries}. Only run.state "completed" is success; "cut_short" or "failed" kept what it logged. Every change can be undone (`engram dream undo RUN_ID`, or POST .../dream/runs/{id}/undo). Preview first with dream_preview.',
    input: z.strictObject(described({ space, stages, dry_run }, DOCS)),
    output: DreamDiarySchema,
    annotations: { ...WRITES, idempotentHint: false },
    role: 'admin',
    run: (args, { engram }) => engram.dreamRun(args),
  }),
  defineTool({
    name: 'dream_diary',
    title: 'Read a consolidation diary',
    description:
      "A dream run's summary and diary (every proposal, change and skip with item ids, scores and reasons; never memory text), the latest run of the space without run_id. Returns {run, entries}.",
    input: z.strictObject(described({ run_id: idSchema.optional(), space }, DOCS)),
    output: DreamDiarySchema,
    annotations: READ_ONLY,
    run: ({ run_id, space: s }, { engram }) => engram.dreamDiary(run_id, { space: s }),
  }),
];
