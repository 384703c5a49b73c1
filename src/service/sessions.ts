/**
 * Facade for sessions (§1.4): past conversations stored and searched as conversations. Storing a
 * session never creates a memory, a session search reads only turns, and recall never reads them.
 * A batch import validates each record alone: a bad record fails with its index and field, the
 * others are stored.
 */
import { EngramError, isEngramError, notFound } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import {
  agentNameSchema,
  type Session,
  type SessionHit,
  type SessionImportResult,
  type SessionListRequest,
  type SessionPage,
  type SessionPurge,
  type SessionRecord,
  sessionRecord,
  type SessionSchemas,
  sessionSchemas,
  type SessionSearchRequest,
  toSession,
  toSessionPurge,
  toSessionSummary,
} from '../domain/sessions.js';
import { keywordTerms } from '../domain/text.js';
import { parseWith } from '../domain/zod.js';
import type { SessionHitRecord, SessionStore } from '../store/session-store.js';
import { arrayArg, objectArg, optionalStringArg, optionsArg, stringArg } from './args.js';
import type { ChangeOptions, ServiceContext } from './context.js';

export type {
  Session,
  SessionHit,
  SessionImportResult,
  SessionPage,
  SessionPurge,
} from '../domain/sessions.js';

/** Options of a session import. */
export interface SessionImportOptions {
  /** Space of records that name none (default: the configured space). */
  space?: string;
  /** Agent of records that name none. */
  agent?: string;
  /** Validate every record and store nothing (results say `valid`). */
  dry_run?: boolean;
  /** The first invalid record throws instead of failing alone. */
  strict?: boolean;
}

/** What a session search answers: the best turns first. */
export interface SessionSearchResult {
  hits: SessionHit[];
}

/** The sessions facade. */
export interface SessionsFacade {
  /** Stores sessions (idempotent by space and id); each record is validated on its own. */
  importSessions(
    records: readonly unknown[],
    options?: SessionImportOptions,
  ): Promise<SessionImportResult[]>;
  /** One session with its turns (NOT_FOUND when the space holds none with this id). */
  getSession(id: string, options?: { space?: string }): Promise<Session>;
  /** Sessions of a space without their turns, newest first. */
  listSessions(options?: SessionListRequest): Promise<SessionPage>;
  /** Turns of a space's sessions matching the query, best first; never memory items. */
  searchSessions(request: SessionSearchRequest): Promise<SessionSearchResult>;
  /** Deletes a session and its turns for good, leaving an audit row (who, why, when). */
  purgeSession(
    id: string,
    options?: ChangeOptions,
  ): Promise<{ id: string; purged: true; audit: SessionPurge }>;
}

/** The session store, or CONFLICT on a store that keeps no sessions. */
function sessionStore(ctx: ServiceContext): SessionStore {
  const sessions = ctx.store.sessions;
  if (!sessions)
    throw new EngramError('CONFLICT', 'this store keeps no sessions', {
      rule: 'a store with sessions',
    });
  return sessions;
}

/** A validated record and its place in the batch. */
interface Prepared {
  index: number;
  record: SessionRecord;
}

function failed(index: number, err: EngramError): SessionImportResult {
  return {
    index,
    ok: false,
    error: { code: err.code, message: err.message, field: err.details.field },
  };
}

/** Validates one raw record into a session record, filling the import's defaults. */
function prepare(
  ctx: ServiceContext,
  schemas: SessionSchemas,
  raw: unknown,
  options: SessionImportOptions,
  now: number,
): SessionRecord {
  const input = parseWith(schemas.session, raw);
  const space = ctx.space(input.space ?? options.space);
  const agent = input.agent !== undefined ? input.agent : (options.agent ?? null);
  return sessionRecord({ ...input, agent }, { id: input.id ?? newId(now), space }, now);
}

function hitOf(h: SessionHitRecord): SessionHit {
  const { snippet, ...rest } = h;
  return {
    ...rest,
    ...(snippet ? { snippet } : {}),
    session: { ...h.session, started_at: new Date(h.session.started_at).toISOString() },
  };
}

/** The sessions facade over a context. */
export function sessionsFacade(ctx: ServiceContext): SessionsFacade {
  const schemas = sessionSchemas(ctx.config.limits);
  const spaceOf = (options: { space?: string }) => ctx.space(options.space);
  return {
    async importSessions(raw, given) {
      const records = arrayArg(raw, 'records');
      const options = optionsArg(given);
      if (options.agent !== undefined) parseWith(agentNameSchema, options.agent, 'agent');
      if (options.space !== undefined) ctx.space(options.space);
      const max = ctx.config.limits.max_batch_items;
      if (records.length > max)
        throw new EngramError('PAYLOAD_TOO_LARGE', `records: at most ${max} per batch`, {
          field: 'records',
          rule: `at most ${max}`,
        });
      const now = ctx.now();
      const results: SessionImportResult[] = [];
      const prepared: Prepared[] = [];
      records.forEach((value, index) => {
        try {
          prepared.push({ index, record: prepare(ctx, schemas, value, options, now) });
        } catch (err) {
          if (options.strict || !isEngramError(err)) throw err;
          results.push(failed(index, err));
        }
      });
      const outcomes = options.dry_run
        ? prepared.map(() => 'valid' as const)
        : await sessionStore(ctx).putSessions(prepared.map((p) => p.record));
      prepared.forEach(({ index, record }, i) =>
        results.push({
          index,
          ok: true,
          id: record.id,
          status: outcomes[i]!,
          turns: record.turns.length,
        }),
      );
      return results.sort((a, b) => a.index - b.index);
    },
    async getSession(id, given) {
      stringArg(id, 'id');
      const space = spaceOf(optionsArg(given));
      const record = await sessionStore(ctx).getSession(space, id);
      if (!record) throw notFound('session', id);
      return toSession(record);
    },
    async listSessions(given) {
      const request = parseWith(schemas.list, optionsArg(given));
      const page = await sessionStore(ctx).listSessions(spaceOf(request), request);
      return { sessions: page.sessions.map(toSessionSummary), next_cursor: page.next_cursor };
    },
    async searchSessions(given) {
      const request = parseWith(schemas.search, objectArg(given, 'request'));
      const terms = keywordTerms(request.query);
      const hits = await sessionStore(ctx).searchSessions(spaceOf(request), terms, request);
      return { hits: hits.map(hitOf) };
    },
    async purgeSession(id, given) {
      stringArg(id, 'id');
      const options = optionsArg(given);
      optionalStringArg(options.actor, 'actor');
      optionalStringArg(options.reason, 'reason');
      const space = spaceOf(options);
      const meta = ctx.meta(options);
      const audit = { actor: meta.actor, reason: meta.reason, at: meta.now };
      await sessionStore(ctx).purgeSession(space, id, audit);
      return { id, purged: true, audit: toSessionPurge({ id, space, ...audit }) };
    },
  };
}
