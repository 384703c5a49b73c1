/**
 * Sessions (§1.4) as the edges return them (the library's own shapes in src/domain/sessions.ts):
 * a session with its turns, a page of summaries, the turns a search found, per-record import
 * results and a purge with its audit row. Never memory items.
 */
import { z } from 'zod';

import { TURN_ROLES } from '../../domain/sessions.js';
import { iso } from './memories.js';

/** Provenance of a session: `tool`, `file`, `original_id` and any further keys, all kept. */
const SessionSourceSchema = z
  .looseObject({
    tool: z.string().optional(),
    file: z.string().optional(),
    original_id: z.string().optional(),
  })
  .meta({ description: 'Where the session came from; further keys are kept as given.' });

/** One turn of a conversation; `index` is its position from 0. */
const TurnSchema = z.object({
  index: z.number().int(),
  role: z.enum(TURN_ROLES),
  text: z.string(),
  at: iso.nullable().meta({ description: 'When it was said, when the transcript tells.' }),
});

const summaryFields = {
  id: z.string(),
  space: z.string(),
  agent: z.string().nullable(),
  title: z.string().nullable(),
  started_at: iso.meta({
    description: "Given, else the first turn's time, else the time it was stored.",
  }),
  ended_at: iso
    .nullable()
    .meta({ description: "Given, else the last turn's time (null when no turn has one)." }),
  source: SessionSourceSchema.nullable(),
  created_at: iso.meta({ description: 'When it was stored.' }),
};

/** A stored session with its turns in order. */
export const SessionSchema = z
  .object({ ...summaryFields, turns: z.array(TurnSchema) })
  .meta({ id: 'Session' });

/** One page of sessions without their turns, newest first. */
export const SessionPageSchema = z
  .object({
    sessions: z.array(
      z.object({ ...summaryFields, turn_count: z.number().int() }).meta({ id: 'SessionSummary' }),
    ),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: 'SessionPage' });

/** The turns a session search found, best first, each with its session. */
export const SessionSearchResultSchema = z
  .object({
    hits: z.array(
      z
        .object({
          session_id: z.string(),
          turn_index: z.number().int(),
          role: z.enum(TURN_ROLES),
          text: z.string().meta({ description: 'The whole turn.' }),
          snippet: z.string().optional().meta({
            description:
              'The matching passage, matched words between `**` (when the backend makes one).',
          }),
          score: z.number().meta({
            description:
              'Full-text relevance; higher is better, comparable only within one search.',
          }),
          session: z.object({
            id: z.string(),
            agent: z.string().nullable(),
            title: z.string().nullable(),
            started_at: iso,
          }),
        })
        .meta({ id: 'SessionHit' }),
    ),
  })
  .meta({ id: 'SessionSearchResult' });

/** One result per record of a session import, in order: a bad record fails alone. */
export const SessionImportResultsSchema = z
  .object({
    results: z.array(
      z.discriminatedUnion('ok', [
        z.object({
          index: z.number().int(),
          ok: z.literal(true),
          id: z.string(),
          status: z.enum(['created', 'exists', 'purged', 'valid']).meta({
            description:
              '`exists`: already stored (same space and id); `purged`: its id was purged, kept out; `valid`: a dry run checked it.',
          }),
          turns: z.number().int(),
        }),
        z.object({
          index: z.number().int(),
          ok: z.literal(false),
          error: z.object({
            code: z.string(),
            message: z.string(),
            field: z.string().optional().meta({ description: 'The field of the record.' }),
          }),
        }),
      ]),
    ),
  })
  .meta({ id: 'SessionImportResults' });

/** A purged session: its id and the audit row it leaves (who, why, when; its text is gone). */
export const SessionPurgeResultSchema = z
  .object({
    id: z.string(),
    purged: z.literal(true),
    audit: z.object({
      id: z.string(),
      space: z.string(),
      actor: z.string().nullable(),
      reason: z.string().nullable(),
      at: iso,
    }),
  })
  .meta({ id: 'SessionPurgeResult' });
