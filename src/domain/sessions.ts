/**
 * Sessions (§1.4): past conversations kept as conversations, never as memory items. A session
 * is its turns in order (role, text, time) with who had it (agent), when (started/ended) and where
 * it came from (source). This module holds their caller-facing shapes, the store records (times in
 * epoch milliseconds), and the input schemas every edge validates them with.
 */
import { z } from 'zod';

import { isoSchema, spaceSchema } from './input.js';
import type { EpochTimes } from './records.js';

/** Who speaks in a turn. */
export const TURN_ROLES = ['user', 'assistant', 'system', 'tool'] as const;
/** The role of a turn. */
export type TurnRole = (typeof TURN_ROLES)[number];

/** Provenance of a session: the tool that recorded it, its file, its id there, and more keys. */
export interface SessionSource {
  tool?: string;
  file?: string;
  original_id?: string;
  [key: string]: unknown;
}

/** One turn of a conversation. `index` is its position, from 0. */
export interface Turn {
  index: number;
  role: TurnRole;
  text: string;
  /** When it was said, when the transcript tells. */
  at: string | null;
}

/** A stored session. Times are ISO 8601. */
export interface Session {
  id: string;
  space: string;
  agent: string | null;
  title: string | null;
  /** Given, else the first turn's time, else the time it was stored. */
  started_at: string;
  /** Given, else the last turn's time (null when no turn has one). */
  ended_at: string | null;
  source: SessionSource | null;
  /** When it was stored. */
  created_at: string;
  turns: Turn[];
}

/** A session without its turns, as listings show it. */
export type SessionSummary = Omit<Session, 'turns'> & { turn_count: number };

/** A page of sessions, newest first. */
export interface SessionPage {
  sessions: SessionSummary[];
  next_cursor: string | null;
}

/** One turn found by a session search, with the session it belongs to. */
export interface SessionHit {
  session_id: string;
  turn_index: number;
  role: TurnRole;
  /** The whole turn. */
  text: string;
  /** The matching passage, matched words between `**` (when the backend makes one). */
  snippet?: string;
  /** Full-text relevance; higher is better, comparable only within one search. */
  score: number;
  session: { id: string; agent: string | null; title: string | null; started_at: string };
}

/** The audit row a purged session leaves: who purged it, why and when; its text is gone. */
export interface SessionPurge {
  id: string;
  space: string;
  actor: string | null;
  reason: string | null;
  at: string;
}

/** A stored turn (its time in epoch milliseconds). */
export type TurnRecord = EpochTimes<Turn, 'at'>;

/** A stored session as the store holds it (times in epoch milliseconds). */
export interface SessionRecord
  extends EpochTimes<Omit<Session, 'turns'>, 'started_at' | 'ended_at' | 'created_at'> {
  turns: TurnRecord[];
}

/** A stored session's summary as the store lists it. */
export type SessionSummaryRecord = Omit<SessionRecord, 'turns'> & { turn_count: number };

/** A session purge audit row as the store holds it. */
export type SessionPurgeRecord = EpochTimes<SessionPurge, 'at'>;

/** What storing one session did: stored, already there (same space and id), or purged before. */
export type SessionPutOutcome = 'created' | 'exists' | 'purged';

/** Per-record result of a session import: a bad record fails alone, naming its field. */
export type SessionImportResult =
  | {
      index: number;
      ok: true;
      id: string;
      /** `valid`: a dry run checked it and stored nothing. `purged`: its id was purged; kept out. */
      status: SessionPutOutcome | 'valid';
      turns: number;
    }
  | { index: number; ok: false; error: { code: string; message: string; field?: string } };

/** The limits session input is validated against (the `limits` section of the configuration). */
export interface SessionLimits {
  max_session_turns: number;
  max_turn_bytes: number;
  max_title_chars: number;
  max_query_chars: number;
}

/** Caller-given session ids: the id a transcript had (a UUID, a thread id), or engram's own. */
export const sessionIdSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(128, 'must be at most 128 characters')
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._:-]*$/,
    'must be letters, digits, ".", "_", ":" or "-", starting with a letter or digit',
  );

const text = z
  .string()
  .refine((s) => s.isWellFormed(), 'must be valid UTF-8 text')
  .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters');

const name = text
  .refine((s) => s.trim() !== '', 'must not be empty')
  .refine((s) => s.length <= 200, 'must be at most 200 characters');

/** The name of an agent a session was had with. */
export const agentNameSchema = name;

/** Provenance: any JSON object of at most 4 KiB; `tool`, `file` and `original_id` are strings. */
const SOURCE_MAX_BYTES = 4_096;
const sourceSchema = z
  .object({
    tool: z.string().max(200, 'must be at most 200 characters').optional(),
    file: z.string().max(2_000, 'must be at most 2000 characters').optional(),
    original_id: z.string().max(500, 'must be at most 500 characters').optional(),
  })
  .catchall(z.json())
  .refine(
    (s) => Buffer.byteLength(JSON.stringify(s), 'utf8') <= SOURCE_MAX_BYTES,
    `must be at most ${SOURCE_MAX_BYTES} bytes as JSON`,
  )
  .refine((s) => !JSON.stringify(s).includes('\\u0000'), 'must not contain NUL characters');

/** Validation schemas of session input for one configuration's limits. */
export function sessionSchemas(limits: SessionLimits) {
  const turn = z.strictObject({
    role: z.enum(TURN_ROLES, { message: `must be one of ${TURN_ROLES.join(', ')}` }),
    text: text
      .refine((s) => s.trim() !== '', 'must not be empty')
      .refine(
        (s) => Buffer.byteLength(s, 'utf8') <= limits.max_turn_bytes,
        `must be at most ${limits.max_turn_bytes} bytes`,
      ),
    at: isoSchema.nullable().optional(),
  });
  const session = z
    .strictObject({
      id: sessionIdSchema.optional(),
      space: spaceSchema.optional(),
      agent: name.nullable().optional(),
      title: text
        .refine(
          (s) => s.length <= limits.max_title_chars,
          `must be at most ${limits.max_title_chars} characters`,
        )
        .nullable()
        .optional(),
      started_at: isoSchema.optional(),
      ended_at: isoSchema.nullable().optional(),
      source: sourceSchema.nullable().optional(),
      turns: z
        .array(turn, { message: 'must be an array of turns' })
        .min(1, 'must have at least one turn')
        .max(limits.max_session_turns, `must have at most ${limits.max_session_turns} turns`),
    })
    .refine(
      (s) => !s.started_at || !s.ended_at || Date.parse(s.ended_at) >= Date.parse(s.started_at),
      { message: 'must not be before started_at', path: ['ended_at'] },
    );
  const limit = (max: number, fallback: number) =>
    z
      .number({ message: 'must be a number' })
      .int('must be an integer')
      .min(1, 'must be at least 1')
      .max(max, `must be at most ${max}`)
      .default(fallback);
  const list = z.strictObject({
    space: spaceSchema.optional(),
    agent: name.optional(),
    limit: limit(1_000, 50),
    cursor: z.string().max(500, 'must be at most 500 characters').optional(),
  });
  const search = z.strictObject({
    space: spaceSchema.optional(),
    query: text
      .refine((s) => s.trim() !== '', 'must not be empty')
      .refine(
        (s) => s.length <= limits.max_query_chars,
        `must be at most ${limits.max_query_chars} characters`,
      ),
    agent: name.optional(),
    limit: limit(200, 10),
  });
  return { session, list, search };
}

/** The session schemas of one configuration. */
export type SessionSchemas = ReturnType<typeof sessionSchemas>;
/** Raw input of one session to store. */
export type SessionInput = z.input<SessionSchemas['session']>;
/** A session listing request. */
export type SessionListRequest = z.input<SessionSchemas['list']>;
/** A session search request. */
export type SessionSearchRequest = z.input<SessionSchemas['search']>;

const iso = (t: number) => new Date(t).toISOString();
const isoN = (t: number | null) => (t === null ? null : iso(t));

/** A stored session's summary, caller-facing (ISO times). */
export function toSessionSummary(r: SessionSummaryRecord): SessionSummary {
  return {
    ...r,
    started_at: iso(r.started_at),
    ended_at: isoN(r.ended_at),
    created_at: iso(r.created_at),
  };
}

/** A stored session, caller-facing (ISO times). */
export function toSession(r: SessionRecord): Session {
  const { turns, ...rest } = r;
  const { turn_count: _count, ...summary } = toSessionSummary({ ...rest, turn_count: 0 });
  return { ...summary, turns: turns.map((t) => ({ ...t, at: isoN(t.at) })) };
}

/** A session purge audit row, caller-facing. */
export function toSessionPurge(r: SessionPurgeRecord): SessionPurge {
  return { ...r, at: iso(r.at) };
}

/**
 * The record of one validated session input: turns numbered in order; started_at and ended_at,
 * when not given, from the earliest and latest turn time (else the time it is stored, and none).
 */
export function sessionRecord(
  input: z.output<SessionSchemas['session']>,
  ids: { id: string; space: string },
  now: number,
): SessionRecord {
  const turns = input.turns.map((t, index) => ({
    index,
    role: t.role,
    text: t.text,
    at: t.at ? Date.parse(t.at) : null,
  }));
  const times = turns.flatMap((t) => (t.at === null ? [] : [t.at]));
  const first = times.reduce((a, b) => Math.min(a, b), Infinity);
  const last = times.reduce((a, b) => Math.max(a, b), -Infinity);
  const started = input.started_at ? Date.parse(input.started_at) : times.length ? first : now;
  const ended = input.ended_at ? Date.parse(input.ended_at) : times.length ? last : null;
  return {
    id: ids.id,
    space: ids.space,
    agent: input.agent?.trim() ?? null,
    title: input.title ?? null,
    started_at: started,
    ended_at: ended === null ? null : Math.max(ended, started),
    source: (input.source as SessionSource | null | undefined) ?? null,
    created_at: now,
    turns,
  };
}
