/**
 * Past conversations over HTTP (`/sessions`), with the library's method names and answers:
 * import (idempotent), get, list, search and purge.
 */
import { type Calls, fields, seg } from './calls.js';
import type { ChangeOptions, QueryOf, Schemas, SpaceOptions } from './types.js';

/** Options of a session import. */
export interface SessionImportOptions extends SpaceOptions {
  /** Agent of records that name none. */
  agent?: string;
  /** Check every record and store nothing (results say `valid`). */
  dry_run?: boolean;
}
/** The result of one imported record: stored (or found, or checked), or its error. */
export type SessionImportResult = Schemas['SessionImportResults']['results'][number];
/** A session listing request: agent, limit, cursor. */
export type SessionListRequest = QueryOf<'/v1/spaces/{space}/sessions', 'get'> & SpaceOptions;
/** A session search request: query, agent, limit. */
export type SessionSearchRequest = Schemas['SessionSearchBody'] & SpaceOptions;

/** The session methods of EngramClient. */
export interface SessionMethods {
  /** Stores sessions (idempotent by space and id); a bad record fails alone. */
  importSessions(
    records: readonly Schemas['SessionRecord'][],
    options?: SessionImportOptions,
  ): Promise<SessionImportResult[]>;
  /** One session with its turns. */
  getSession(id: string, options?: SpaceOptions): Promise<Schemas['Session']>;
  /** Sessions of a space without their turns, newest first. */
  listSessions(request?: SessionListRequest): Promise<Schemas['SessionPage']>;
  /** Turns matching the query, best first; never memory items. */
  searchSessions(request: SessionSearchRequest): Promise<Schemas['SessionSearchResult']>;
  /** Deletes a session and its turns for good, leaving an audit row (admin role). */
  purgeSession(id: string, options?: ChangeOptions): Promise<Schemas['SessionPurgeResult']>;
}

/** The session methods over the given calls. */
export function sessionMethods(calls: Calls): SessionMethods {
  return {
    importSessions: async (records, options) =>
      (
        await calls.inSpace<Schemas['SessionImportResults']>(options, {
          method: 'POST',
          path: '/sessions',
          body: { ...fields(options), records },
          // Importing again stores nothing twice, so a lost answer may be asked for again.
          idempotent: true,
        })
      ).results,
    getSession: (id, options) =>
      calls.inSpace(options, { method: 'GET', path: `/sessions/${seg(id)}` }),
    listSessions: (request) =>
      calls.inSpace(request, { method: 'GET', path: '/sessions', query: fields(request) }),
    searchSessions: (request) =>
      calls.inSpace(request, {
        method: 'POST',
        path: '/sessions/search',
        body: fields(request),
        // A search reads only.
        idempotent: true,
      }),
    purgeSession: (id, options) =>
      calls.inSpace(options, {
        method: 'DELETE',
        path: `/sessions/${seg(id)}`,
        query: fields(options),
      }),
  };
}
