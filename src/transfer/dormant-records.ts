/**
 * Dormant-recall telemetry in the JSONL export (§9.5, §12): one `dormant_event` line per review-log
 * event and one `dormant_state` line per state row, after the items they refer to, so a store
 * moves between backends with its experiment history and cooldowns. Import is idempotent.
 */
import { z } from 'zod';

import { EngramError } from '../domain/errors.js';
import { idSchema, isoSchema, spaceSchema } from '../domain/input.js';
import { fromZodError } from '../domain/zod.js';
import {
  DORMANT_FEEDBACK,
  type DormantEventRecord,
  type DormantStateRecord,
} from '../store/dormant-store.js';
import type { Store } from '../store/store.js';

/** Line types this module owns. */
export const DORMANT_LINE_TYPES = ['dormant_event', 'dormant_state'] as const;

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
const ms = (t: string | null) => (t === null ? null : Date.parse(t));
const isoOrNull = z.union([isoSchema, z.null()]);
const count = z.number().int().min(0);
const score = z.number().finite().nullable();

const eventLine = z.strictObject({
  type: z.literal('dormant_event'),
  event: z.strictObject({
    id: z.string().min(1).max(64),
    space: spaceSchema,
    at: isoSchema,
    algorithm: z.string().min(1).max(200),
    model: z.string().min(1).max(200).nullable(),
    outcome: z.enum(['selected', 'none', 'failed']),
    error_type: z.string().min(1).max(100).nullable(),
    candidate_id: idSchema.nullable(),
    candidate_version: z.number().int().min(1).nullable(),
    candidate_count: count,
    above_floor: count,
    checked: count,
    passed: count,
    raw_relevance: score,
    relevance_score: score,
    bonus: score,
    dormant_days: score,
    overlap_terms: count.nullable(),
    query_terms: count.nullable(),
    retrieved_at: isoOrNull,
    shown_at: isoOrNull,
    feedback: z.enum(DORMANT_FEEDBACK).nullable(),
    feedback_at: isoOrNull,
    duration_ms: z.number().min(0),
  }),
});

const stateLine = z.strictObject({
  type: z.literal('dormant_state'),
  state: z.strictObject({
    space: spaceSchema,
    item_id: idSchema,
    retrieved_at: isoOrNull,
    shown_at: isoOrNull,
    used_at: isoOrNull,
    cooldown_until: isoOrNull,
    updated_at: isoSchema,
  }),
});

/** A parsed telemetry line. */
export type DormantLine =
  | { kind: 'dormant_event'; value: DormantEventRecord }
  | { kind: 'dormant_state'; value: DormantStateRecord };

/** One review-log event as a JSON line. */
export function dormantEventToLine(e: DormantEventRecord): string {
  const event = {
    ...e,
    at: iso(e.at),
    retrieved_at: iso(e.retrieved_at),
    shown_at: iso(e.shown_at),
    feedback_at: iso(e.feedback_at),
  };
  return JSON.stringify({ type: 'dormant_event', event });
}

/** One state row as a JSON line. */
export function dormantStateToLine(s: DormantStateRecord): string {
  const state = {
    ...s,
    retrieved_at: iso(s.retrieved_at),
    shown_at: iso(s.shown_at),
    used_at: iso(s.used_at),
    cooldown_until: iso(s.cooldown_until),
    updated_at: iso(s.updated_at),
  };
  return JSON.stringify({ type: 'dormant_state', state });
}

/** Parses one telemetry line (its `type` is one of DORMANT_LINE_TYPES). */
export function parseDormantLine(value: unknown): DormantLine {
  const type = (value as { type?: unknown }).type;
  if (type === 'dormant_event') {
    const parsed = eventLine.safeParse(value);
    if (!parsed.success) throw fromZodError(parsed.error);
    const e = parsed.data.event;
    return {
      kind: 'dormant_event',
      value: {
        ...e,
        at: Date.parse(e.at),
        retrieved_at: ms(e.retrieved_at),
        shown_at: ms(e.shown_at),
        feedback_at: ms(e.feedback_at),
      },
    };
  }
  const parsed = stateLine.safeParse(value);
  if (!parsed.success) throw fromZodError(parsed.error);
  const s = parsed.data.state;
  return {
    kind: 'dormant_state',
    value: {
      ...s,
      retrieved_at: ms(s.retrieved_at),
      shown_at: ms(s.shown_at),
      used_at: ms(s.used_at),
      cooldown_until: ms(s.cooldown_until),
      updated_at: Date.parse(s.updated_at),
    },
  };
}

/** Imports parsed telemetry lines; outcomes in the order given. */
export async function importDormantLines(
  store: Store,
  lines: readonly DormantLine[],
): Promise<('imported' | 'exists')[]> {
  if (lines.length === 0) return [];
  if (!store.dormant)
    throw new EngramError('INVALID_INPUT', 'this store keeps no dormant-recall telemetry', {
      field: 'type',
      rule: 'dormant capability',
    });
  const events = lines.flatMap((l) => (l.kind === 'dormant_event' ? [l.value] : []));
  const states = lines.flatMap((l) => (l.kind === 'dormant_state' ? [l.value] : []));
  const eventOutcomes = await store.dormant.importEvents(events);
  const stateOutcomes = await store.dormant.importStates(states);
  let e = 0;
  let s = 0;
  return lines.map((l) => (l.kind === 'dormant_event' ? eventOutcomes[e++]! : stateOutcomes[s++]!));
}
