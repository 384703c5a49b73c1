/**
 * Writing and reading memories over HTTP, with the library's method names and answers: remember
 * (one, many, or as a write session), get, list, history, relations, recall and status, and the
 * server's spaces, caller and health.
 */
import { type Calls, fields, seg } from './calls.js';
import type { CallOptions, QueryOf, Schemas, SpaceOptions } from './types.js';

/** A memory to remember (`POST /memories`), in a space. */
export type RememberInput = Schemas['RememberBody'] & SpaceOptions;
/** One item of `rememberMany`: a remember body without `related`, naming no space or the call's. */
export type BatchItem = Omit<Schemas['RememberBody'], 'related'> & { space?: string };
/** The result of one batch item: the stored memory, or its error. */
export type BatchResult = Schemas['BatchResult']['results'][number];
/** A list request: the filters of `GET /memories`, with `pinned` a boolean as in the library. */
export type ListRequest = Omit<QueryOf<'/v1/spaces/{space}/memories', 'get'>, 'pinned'> & {
  pinned?: boolean;
} & SpaceOptions;
/** A recall request (`POST /recall`), in a space. */
export type RecallRequest = Schemas['RecallBody'] & SpaceOptions;

/** Options of `writeSession`. */
export interface WriteSessionOptions {
  /** Continue this session (its turns go on after those stored); default: a new session id. */
  id?: string;
  /** The space its writes go to when they name none (default: the client's). */
  space?: string;
}

/** Writes as one conversation: each memory without a session of its own is its next turn. */
export interface WriteSession {
  /** The session id (`source.session`), sent as the `Engram-Session` header. */
  readonly id: string;
  /** Stores one memory as the session's next turn. */
  remember(input: RememberInput): Promise<Schemas['RememberResult']>;
  /** Stores many memories as the session's next turns, in order. */
  rememberMany(inputs: readonly BatchItem[], options?: SpaceOptions): Promise<BatchResult[]>;
}

/** The memory methods of EngramClient. */
export interface MemoryMethods {
  /**
   * Stores one memory (`POST /memories`); an exact duplicate answers the existing memory with
   * `created: false`. With auto-recall on writes, also its related memories.
   */
  remember(input: RememberInput): Promise<Schemas['RememberResult']>;
  /** Stores many memories in one transaction (`POST /memories/batch`); a bad item fails alone. */
  rememberMany(inputs: readonly BatchItem[], options?: SpaceOptions): Promise<BatchResult[]>;
  /** A handle whose remembers are the turns of one session (the `Engram-Session` header). */
  writeSession(options?: WriteSessionOptions): Promise<WriteSession>;
  /** One memory by id (`GET /memories/{id}`). */
  get(id: string, options?: SpaceOptions): Promise<Schemas['Memory']>;
  /** Memories matching filters, newest first, with a cursor for the next page. */
  list(request?: ListRequest): Promise<Schemas['MemoryPage']>;
  /** Versions, status events and relations of one memory. */
  history(id: string, options?: SpaceOptions): Promise<Schemas['History']>;
  /** Relations from and to one memory, live and invalidated. */
  relations(id: string, options?: SpaceOptions): Promise<Schemas['Relation'][]>;
  /** Hybrid recall (`POST /recall`): the recall envelope. */
  recall(request: RecallRequest): Promise<Schemas['RecallResponse']>;
  /** The space's counts, vectors, embedder and model (`GET /status`). */
  status(options?: SpaceOptions): Promise<Schemas['Status']>;
  /** The spaces the token may use, with their counts (from `GET /v1/me`). */
  spaces(options?: CallOptions): Promise<Schemas['SpaceCount'][]>;
  /** The caller: token name, role, the server's default space and the spaces it may use. */
  me(options?: CallOptions): Promise<Schemas['Me']>;
  /** The server's health report (`GET /v1/health`), also when it answers 503 `down`. */
  health(options?: CallOptions): Promise<Schemas['Health']>;
}

/** The header naming a write session. */
const SESSION_HEADER = 'Engram-Session';

/** The memory methods over the given calls. */
export function memoryMethods(calls: Calls): MemoryMethods {
  const sessionHeaders = (session: string | undefined) =>
    session === undefined ? undefined : { [SESSION_HEADER]: session };
  const remember = (input: RememberInput, session: string | undefined) =>
    calls.inSpace<Schemas['RememberResult']>(input, {
      method: 'POST',
      path: '/memories',
      body: fields(input),
      headers: sessionHeaders(session),
    });
  const rememberMany = async (
    inputs: readonly BatchItem[],
    options: SpaceOptions | undefined,
    session: string | undefined,
  ) =>
    (
      await calls.inSpace<Schemas['BatchResult']>(options, {
        method: 'POST',
        path: '/memories/batch',
        body: { items: inputs },
        headers: sessionHeaders(session),
      })
    ).results;
  const me = (options?: CallOptions) =>
    calls.send<Schemas['Me']>(options, { method: 'GET', path: '/v1/me' });
  return {
    remember: (input) => remember(input, calls.session),
    rememberMany: (inputs, options) => rememberMany(inputs, options, calls.session),
    async writeSession(options = {}) {
      const id = options.id ?? globalThis.crypto.randomUUID();
      const inSession = <T extends SpaceOptions>(given: T | undefined): T =>
        ({ ...given, space: given?.space ?? options.space }) as T;
      return {
        id,
        remember: (input) => remember(inSession(input), id),
        rememberMany: (inputs, given) => rememberMany(inputs, inSession(given), id),
      };
    },
    get: (id, options) => calls.inSpace(options, { method: 'GET', path: `/memories/${seg(id)}` }),
    list: (request) => {
      const { pinned, ...query } = fields(request);
      return calls.inSpace(request, {
        method: 'GET',
        path: '/memories',
        query: { ...query, pinned },
      });
    },
    history: (id, options) =>
      calls.inSpace(options, { method: 'GET', path: `/memories/${seg(id)}/history` }),
    relations: async (id, options) =>
      (
        await calls.inSpace<Schemas['Relations']>(options, {
          method: 'GET',
          path: `/memories/${seg(id)}/relations`,
        })
      ).relations,
    recall: (request) =>
      calls.inSpace(request, { method: 'POST', path: '/recall', body: fields(request) }),
    status: (options) => calls.inSpace(options, { method: 'GET', path: '/status' }),
    spaces: async (options) => (await me(options)).spaces,
    me,
    health: (options) => calls.send(options, { method: 'GET', path: '/v1/health', accept: [503] }),
  };
}
