/**
 * Sessions in the JSONL export (§1.4, §12): one `session` line per stored session with all its
 * turns, and one `session_purge` line per purged session (the audit row is all a purge leaves:
 * no text). They come after the items and the capabilities' lines; an export written before
 * sessions existed simply has none. Import is idempotent, never deletes, and never brings back a
 * session whose id was purged in its space.
 */
import { z } from 'zod';

import { EngramError } from '../domain/errors.js';
import { isoSchema, spaceSchema } from '../domain/input.js';
import {
  sessionIdSchema,
  type SessionPurgeRecord,
  type SessionRecord,
  type SessionSource,
  TURN_ROLES,
} from '../domain/sessions.js';
import { fromZodError } from '../domain/zod.js';
import type { SessionExportRecord, SessionImportOutcome } from '../store/session-store.js';
import type { Store } from '../store/store.js';

/** Line types this module owns, in the order an export writes them. */
export const SESSION_LINE_TYPES = ['session', 'session_purge'] as const;

/** A parsed session line. */
export type SessionLine = SessionExportRecord;

const iso = (t: number) => new Date(t).toISOString();
const isoN = (t: number | null) => (t === null ? null : iso(t));
const msN = (t: string | null) => (t === null ? null : Date.parse(t));
const text = z
  .string()
  .refine((s) => s.isWellFormed(), 'must be valid UTF-8 text')
  .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters');
const short = text.refine((s) => s.length <= 2_000, 'must be at most 2000 characters');

const sessionLine = z.strictObject({
  type: z.literal('session'),
  session: z.strictObject({
    id: sessionIdSchema,
    space: spaceSchema,
    agent: short.nullable(),
    title: short.nullable(),
    started_at: isoSchema,
    ended_at: isoSchema.nullable(),
    source: z.record(z.string(), z.json()).nullable(),
    created_at: isoSchema,
    turns: z
      .array(
        z.strictObject({
          index: z.number().int().min(0),
          role: z.enum(TURN_ROLES, { message: `must be one of ${TURN_ROLES.join(', ')}` }),
          text: text.refine((s) => s.trim() !== '', 'must not be empty'),
          at: isoSchema.nullable(),
        }),
      )
      .min(1, 'must have at least one turn')
      .refine((turns) => turns.every((t, i) => t.index === i), 'indexes must run 0, 1, 2, ...'),
  }),
});

const purgeLine = z.strictObject({
  type: z.literal('session_purge'),
  purge: z.strictObject({
    id: sessionIdSchema,
    space: spaceSchema,
    actor: short.nullable(),
    reason: text.nullable(),
    at: isoSchema,
  }),
});

/** One session or purge audit row as a JSON line. */
export function sessionToLine(record: SessionExportRecord): string {
  if (record.kind === 'session_purge') {
    const p = record.value;
    return JSON.stringify({ type: 'session_purge', purge: { ...p, at: iso(p.at) } });
  }
  const s = record.value;
  const session = {
    id: s.id,
    space: s.space,
    agent: s.agent,
    title: s.title,
    started_at: iso(s.started_at),
    ended_at: isoN(s.ended_at),
    source: s.source,
    created_at: iso(s.created_at),
    turns: s.turns.map((t) => ({ index: t.index, role: t.role, text: t.text, at: isoN(t.at) })),
  };
  return JSON.stringify({ type: 'session', session });
}

/** Parses one session line (its `type` is one of SESSION_LINE_TYPES). */
export function parseSessionLine(value: unknown): SessionLine {
  if ((value as { type?: unknown }).type === 'session_purge') {
    const parsed = purgeLine.safeParse(value);
    if (!parsed.success) throw fromZodError(parsed.error);
    const p = parsed.data.purge;
    const purge: SessionPurgeRecord = { ...p, at: Date.parse(p.at) };
    return { kind: 'session_purge', value: purge };
  }
  const parsed = sessionLine.safeParse(value);
  if (!parsed.success) throw fromZodError(parsed.error);
  const s = parsed.data.session;
  const session: SessionRecord = {
    ...s,
    source: s.source as SessionSource | null,
    started_at: Date.parse(s.started_at),
    ended_at: msN(s.ended_at),
    created_at: Date.parse(s.created_at),
    turns: s.turns.map((t) => ({ ...t, at: msN(t.at) })),
  };
  return { kind: 'session', value: session };
}

/** The space a session line writes to. */
export function sessionLineSpace(line: SessionLine): string {
  return line.value.space;
}

/** Imports parsed session lines in one transaction; outcomes in the order given. */
export async function importSessionLines(
  store: Store,
  lines: readonly SessionLine[],
): Promise<SessionImportOutcome[]> {
  if (lines.length === 0) return [];
  if (!store.sessions)
    throw new EngramError('INVALID_INPUT', 'this store keeps no sessions', {
      field: 'type',
      rule: 'sessions capability',
    });
  return store.sessions.importSessions(lines);
}
