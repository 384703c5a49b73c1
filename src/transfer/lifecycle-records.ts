/**
 * Lifecycle state in the JSONL export (§7, §12): one line per item reinforcement base
 * (`strength_base`), use event (`use_event`), per-space setting (`setting`), auto-recall
 * conversation state (`autorecall_conversation`) and maintenance run (`maintenance_run`), after
 * the items they refer to, so a move between backends or a restored backup keeps what use taught
 * the store. Times are ISO 8601 in the file, as items have them. Import is idempotent.
 */
import { z } from 'zod';

import { configureInputSchema, SETTINGS_KEY } from '../config/autorecall-settings.js';
import { EngramError } from '../domain/errors.js';
import { areaSchema, idSchema, isoSchema, spaceSchema } from '../domain/input.js';
import { fromZodError } from '../domain/zod.js';
import type {
  LifecycleImportOutcome,
  LifecycleRecord,
  UseSource,
} from '../store/lifecycle-store.js';
import type { Store } from '../store/store.js';

/** Line types this module owns, in the order an export writes them. */
export const LIFECYCLE_LINE_TYPES = [
  'strength_base',
  'use_event',
  'setting',
  'autorecall_conversation',
  'maintenance_run',
] as const;

/** A parsed lifecycle line: its type and record. */
export type LifecycleLine = LifecycleRecord;

const USE_SOURCES = ['explicit', 'auto_recall', 'review'] as const satisfies readonly UseSource[];

const iso = (t: number) => new Date(t).toISOString();
const isoN = (t: number | null) => (t === null ? null : iso(t));
const ms = (t: string) => Date.parse(t);
const msN = (t: string | null) => (t === null ? null : Date.parse(t));
const isoOrNull = z.union([isoSchema, z.null()]);
const unit = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');
const base = z.number().min(0, 'must be between 0 and 10').max(10, 'must be between 0 and 10');
const recordId = z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters');
const settingKey = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,100}$/, 'must be 1-100 letters, digits, "_", "." or "-"');

/** Stored auto-recall overrides: the controls `configure_auto_recall` sets, nothing else. */
const autoRecallValue = configureInputSchema.omit({ space: true });

const baseLine = z.strictObject({
  type: z.literal('strength_base'),
  strength_base: z.strictObject({ space: spaceSchema, item_id: idSchema, base }),
});

const useLine = z.strictObject({
  type: z.literal('use_event'),
  event: z.strictObject({
    id: recordId,
    space: spaceSchema,
    item_id: idSchema,
    at: isoSchema,
    source: z.enum(USE_SOURCES),
    conversation_id: z.string().min(1).max(200, 'must be at most 200 characters').nullable(),
    actor: z.string().max(200, 'must be at most 200 characters').nullable(),
    context_tags: z
      .array(z.string().min(1, 'must not be empty').max(64, 'must be at most 64 characters'))
      .max(32, 'must have at most 32 tags'),
    context_area: areaSchema.nullable(),
    cross_domain: z.boolean(),
    base_before: base,
    base_after: base,
    strength_before: unit,
    strength_after: unit,
  }),
});

const settingLine = z.strictObject({
  type: z.literal('setting'),
  setting: z
    .strictObject({ space: spaceSchema, key: settingKey, value: z.json(), updated_at: isoSchema })
    .superRefine((s, ctx) => {
      if (s.key !== SETTINGS_KEY) return;
      const parsed = autoRecallValue.safeParse(s.value);
      if (parsed.success) return;
      for (const issue of parsed.error.issues) {
        const path = ['value', ...issue.path];
        if (issue.code === 'unrecognized_keys')
          for (const key of issue.keys)
            ctx.addIssue({ code: 'custom', message: 'unknown key', path: [...path, key] });
        else ctx.addIssue({ code: 'custom', message: issue.message, path });
      }
    }),
});

const conversationLine = z.strictObject({
  type: z.literal('autorecall_conversation'),
  conversation: z.strictObject({
    space: spaceSchema,
    conversation_id: z
      .string()
      .min(1, 'must not be empty')
      .max(200, 'must be at most 200 characters'),
    topics: z.array(z.array(z.string().max(200)).max(1000)).max(1000),
    last_recall_at: isoOrNull,
    updated_at: isoSchema,
  }),
});

const runLine = z.strictObject({
  type: z.literal('maintenance_run'),
  run: z.strictObject({
    id: recordId,
    space: spaceSchema.nullable(),
    started_at: isoSchema,
    finished_at: isoSchema,
    backup_path: z.string().max(4096, 'must be at most 4096 characters').nullable(),
    summary: z.record(z.string(), z.json()),
  }),
});

/** One lifecycle record as a JSON line, keys in a fixed order so every backend writes the same. */
export function lifecycleToLine(record: LifecycleRecord): string {
  switch (record.kind) {
    case 'strength_base': {
      const { space, item_id, base } = record.value;
      return JSON.stringify({ type: record.kind, strength_base: { space, item_id, base } });
    }
    case 'use_event': {
      const e = record.value;
      const event = {
        id: e.id,
        space: e.space,
        item_id: e.item_id,
        at: iso(e.at),
        source: e.source,
        conversation_id: e.conversation_id,
        actor: e.actor,
        context_tags: e.context_tags,
        context_area: e.context_area,
        cross_domain: e.cross_domain,
        base_before: e.base_before,
        base_after: e.base_after,
        strength_before: e.strength_before,
        strength_after: e.strength_after,
      };
      return JSON.stringify({ type: record.kind, event });
    }
    case 'setting': {
      const { space, key, value, updated_at } = record.value;
      const setting = { space, key, value, updated_at: iso(updated_at) };
      return JSON.stringify({ type: record.kind, setting });
    }
    case 'autorecall_conversation': {
      const c = record.value;
      const conversation = {
        space: c.space,
        conversation_id: c.conversation_id,
        topics: c.topics,
        last_recall_at: isoN(c.last_recall_at),
        updated_at: iso(c.updated_at),
      };
      return JSON.stringify({ type: record.kind, conversation });
    }
    case 'maintenance_run': {
      const r = record.value;
      const run = {
        id: r.id,
        space: r.space,
        started_at: iso(r.started_at),
        finished_at: iso(r.finished_at),
        backup_path: r.backup_path,
        summary: r.summary,
      };
      return JSON.stringify({ type: record.kind, run });
    }
  }
}

function parsed<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw fromZodError(result.error);
  return result.data;
}

/** Parses one lifecycle line (its `type` is one of LIFECYCLE_LINE_TYPES). */
export function parseLifecycleLine(value: unknown): LifecycleLine {
  const type = (value as { type?: unknown }).type;
  if (type === 'strength_base') return { kind: type, value: parsed(baseLine, value).strength_base };
  if (type === 'use_event') {
    const e = parsed(useLine, value).event;
    return { kind: type, value: { ...e, at: ms(e.at) } };
  }
  if (type === 'setting') {
    const s = parsed(settingLine, value).setting;
    return { kind: type, value: { ...s, updated_at: ms(s.updated_at) } };
  }
  if (type === 'autorecall_conversation') {
    const c = parsed(conversationLine, value).conversation;
    const times = { last_recall_at: msN(c.last_recall_at), updated_at: ms(c.updated_at) };
    return { kind: type, value: { ...c, ...times } };
  }
  const r = parsed(runLine, value).run;
  return {
    kind: 'maintenance_run',
    value: { ...r, started_at: ms(r.started_at), finished_at: ms(r.finished_at) },
  };
}

/** The space a lifecycle line writes to (null for a store-wide maintenance run). */
export function lifecycleLineSpace(line: LifecycleLine): string | null {
  return line.value.space;
}

/** Imports parsed lifecycle lines in one transaction; outcomes in the order given. */
export async function importLifecycleLines(
  store: Store,
  lines: readonly LifecycleLine[],
): Promise<LifecycleImportOutcome[]> {
  if (lines.length === 0) return [];
  if (!store.lifecycle)
    throw new EngramError('INVALID_INPUT', 'this store keeps no lifecycle state', {
      field: 'type',
      rule: 'lifecycle capability',
    });
  return store.lifecycle.importLifecycle(lines);
}
