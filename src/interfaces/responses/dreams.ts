/**
 * Consolidation (§10) as the edges return it (the library's own shapes in src/domain/dreams.ts and
 * the calibration report of src/hygiene/duplicates.ts): a preview, a run with its diary, a page of
 * runs, an undo report and a calibration. Diaries hold ids, areas, scores and reasons, never text.
 */
import { z } from 'zod';

import {
  DIARY_STATES,
  DREAM_ACTIONS,
  DREAM_OUTCOMES,
  DREAM_RUN_STATES,
  DREAM_STAGES,
  STAGE_STATES,
} from '../../domain/dreams.js';
import { iso } from './memories.js';

const stage = z.enum(DREAM_STAGES);
const action = z.enum(DREAM_ACTIONS);
const count = z.number().int();

/** The state of an item before or after a change, so undo restores exactly that. */
const ItemStateSchema = z.object({
  status: z.string().optional(),
  kind: z.string().optional(),
  area: z.string().optional(),
  version: z.number().int().optional().meta({ description: "The body version (a keeper's)." }),
});

/** Scores, areas and before/after states of a proposal or a change. */
const DiaryDetailSchema = z
  .object({
    similarity: z.number().optional(),
    overlap: z.number().optional(),
    from_area: z.string().optional(),
    to_area: z.string().optional(),
    before: z.record(z.string(), ItemStateSchema).optional(),
    after: z.record(z.string(), ItemStateSchema).optional(),
    relation_id: z
      .string()
      .optional()
      .meta({ description: 'The relation an applied merge or dedupe created.' }),
    undone: z.boolean().optional().meta({ description: 'A later undo restored this entry.' }),
  })
  .meta({ id: 'DreamDiaryDetail' });

const itemsField = z.array(z.string()).meta({
  description: 'The ids it is about: a merge `[lesser, keeper]`, a fold the moved items.',
});

/** What a dream run would do now, stage by stage; computing it changed nothing. */
export const DreamPreviewSchema = z
  .object({
    space: z.string(),
    stages: z.array(
      z.object({
        stage,
        off: z.string().nullable().meta({ description: 'Why a run would skip this stage.' }),
        complete: z.boolean().meta({ description: 'False when the preview stopped early.' }),
        note: z.string().nullable(),
        proposals: z.array(
          z.object({
            stage,
            action,
            reason: z.string(),
            items: itemsField,
            detail: DiaryDetailSchema,
            skip: z.boolean().meta({ description: 'The stage would leave it alone.' }),
          }),
        ),
      }),
    ),
  })
  .meta({ id: 'DreamPreview' });

/** A dream run: its state, its diary's finalisation and per-stage counts. */
export const DreamRunSchema = z
  .object({
    id: z.string(),
    space: z.string(),
    dry_run: z.boolean(),
    state: z.enum(DREAM_RUN_STATES).meta({
      description:
        '`completed` only when every stage ran to its end; `cut_short`, `failed` and `interrupted` are never success.',
    }),
    diary: z.enum(DIARY_STATES),
    reason: z
      .string()
      .nullable()
      .meta({ description: 'Why the diary is partial, or the failure.' }),
    stages: z.array(
      z.object({
        stage,
        state: z.enum(STAGE_STATES),
        proposed: count,
        applied: count,
        skipped: count,
        started_at: iso.nullable(),
        finished_at: iso.nullable(),
        note: z.string().nullable(),
      }),
    ),
    started_at: iso,
    finished_at: iso.nullable(),
    undone_at: iso.nullable(),
    job_id: z.string().nullable(),
  })
  .meta({ id: 'DreamRun' });

/** A run with every entry of its diary, in order. */
export const DreamDiarySchema = z
  .object({
    run: DreamRunSchema,
    entries: z.array(
      z.object({
        seq: count,
        stage,
        action,
        outcome: z.enum(DREAM_OUTCOMES),
        reason: z.string(),
        items: itemsField,
        detail: DiaryDetailSchema,
        at: iso,
      }),
    ),
  })
  .meta({ id: 'DreamDiary' });

/** One page of dream runs, newest first. */
export const DreamRunPageSchema = z
  .object({ runs: z.array(DreamRunSchema), next_cursor: z.string().nullable() })
  .meta({ id: 'DreamRunPage' });

/** What an undo restored, and what it could not (with why). */
export const DreamUndoReportSchema = z
  .object({
    run_id: z.string(),
    restored: z.array(z.object({ seq: count, action, items: z.array(z.string()) })),
    not_restored: z.array(z.object({ seq: count, action, item: z.string(), reason: z.string() })),
  })
  .meta({ id: 'DreamUndoReport' });

const PercentilesSchema = z.object({
  p50: z.number().nullable(),
  p90: z.number().nullable(),
  p99: z.number().nullable(),
});

/** Score distributions of near-duplicate candidates, and merges per threshold pair. */
export const DreamCalibrationSchema = z
  .object({
    examined: count,
    best: z.array(
      z.object({ id: z.string(), other: z.string(), similarity: z.number(), overlap: z.number() }),
    ),
    similarity: PercentilesSchema,
    overlap: PercentilesSchema,
    merges: z.array(
      z.object({
        similarity: z.number(),
        overlap: z.number(),
        merges: count,
        configured: z.boolean(),
      }),
    ),
    complete: z.boolean(),
  })
  .meta({ id: 'DreamCalibration' });
