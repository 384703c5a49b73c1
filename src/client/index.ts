/**
 * `engram/client`: a typed client of engram's HTTP API (`engram serve`), with the library's method
 * names and answers. Its types are generated from `/v1/openapi.json`; it runs on the global
 * `fetch` and imports nothing else at run time.
 *
 *   const engram = new EngramClient({ baseUrl: 'http://127.0.0.1:8765', token, space: 'team-a' });
 *   await engram.remember({ body: 'Deploys happen on Thursdays.' });
 *   const { hits } = await engram.recall({ query: 'when do we deploy' });
 */
import { type AdminMethods, adminMethods } from './admin.js';
import { Calls } from './calls.js';
import { type ChangeMethods, changeMethods } from './changes.js';
import { type DreamMethods, dreamMethods } from './dreams.js';
import { EngramClientError } from './errors.js';
import { type GraphMethods, graphMethods } from './graph.js';
import { type LifecycleMethods, lifecycleMethods } from './lifecycle.js';
import { type MemoryMethods, memoryMethods } from './memories.js';
import { type RetryOptions, retryOptions, type Sleep, sleep } from './retry.js';
import { type SessionMethods, sessionMethods } from './sessions.js';
import { Transport } from './transport.js';
import type { CallOptions, Schemas } from './types.js';

export type { AdminMethods, JobListRequest } from './admin.js';
export type { ChangeMethods, RelationType, ReviseInput } from './changes.js';
export type {
  DreamListRequest,
  DreamMethods,
  DreamPreviewRequest,
  DreamRunRequest,
  DreamStage,
} from './dreams.js';
export {
  CLIENT_ERROR_CODES,
  type ClientErrorCode,
  EngramClientError,
  type EngramClientErrorCode,
  isEngramClientError,
} from './errors.js';
export type {
  EntitiesRequest,
  GraphMethods,
  HubsRequest,
  MentionsRequest,
  NeighborsRequest,
} from './graph.js';
export type {
  AnalyzeInput,
  ConfigureAutoRecallInput,
  DormantFeedbackInput,
  HistoryMessage,
  LifecycleMethods,
  MaintainInput,
  ObserveInput,
  ProcessMessageInput,
  ReviewAction,
} from './lifecycle.js';
export type {
  BatchItem,
  BatchResult,
  ListRequest,
  MemoryMethods,
  RecallRequest,
  RememberInput,
  WriteSession,
  WriteSessionOptions,
} from './memories.js';
export { RETRY_DEFAULTS, type RetryOptions, type Sleep } from './retry.js';
export type {
  SessionImportOptions,
  SessionImportResult,
  SessionListRequest,
  SessionMethods,
  SessionSearchRequest,
} from './sessions.js';
export type {
  ApiMethod,
  ApiPath,
  BodyOf,
  CallOptions,
  ChangeOptions,
  components,
  paths,
  QueryOf,
  Schemas,
  SpaceOptions,
} from './types.js';

/** Options of an EngramClient. */
export interface EngramClientOptions {
  /** The server: `http://HOST:PORT` as `engram serve` prints it (a trailing `/v1` is fine). */
  baseUrl?: string;
  /** The bearer token (`server.tokens`); none for a server without tokens. */
  token?: string;
  /** The space of every call that names none (default: the server's configured space). */
  space?: string;
  /** A write session: this client's remembers are its turns (the `Engram-Session` header). */
  session?: string;
  /** Time limit of one call, retries included, in ms (default 30000; 0: none). */
  timeoutMs?: number;
  /** Retries on 429 and 503, and on network failures of idempotent calls. */
  retry?: RetryOptions;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** The wait between attempts (default: a timer); tests give one that returns at once. */
  sleep?: Sleep;
  /** The jitter's random source in [0, 1) (default Math.random). */
  random?: () => number;
}

/** The server `engram serve` listens on by default. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8765';
/** A call's default time limit, retries included. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** The base URL without trailing slashes or `/v1`, or an error naming the option. */
function baseUrlOf(given: string): string {
  let url: URL | undefined;
  try {
    url = new URL(given);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new EngramClientError({
      code: 'INVALID_INPUT',
      message: `baseUrl: must be an http(s) URL, got ${JSON.stringify(given)}`,
      status: 0,
      details: { field: 'baseUrl', rule: 'an http(s) URL' },
    });
  return given.replace(/\/+$/, '').replace(/\/v1$/, '');
}

// The methods are the groups' (assigned in the constructor, each typed as its group's interface);
// the interface adds their types to the class.
/** A typed client of engram's HTTP API, with the library's method names and answers. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export interface EngramClient
  extends MemoryMethods,
    ChangeMethods,
    SessionMethods,
    DreamMethods,
    GraphMethods,
    LifecycleMethods,
    AdminMethods {}

/** A typed client of engram's HTTP API, with the library's method names and answers. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class EngramClient {
  /** The server, without `/v1`. */
  readonly baseUrl: string;
  /** The client's space; undefined: the server's configured one. */
  readonly space: string | undefined;
  /** The write session of this client's remembers, if any. */
  readonly session: string | undefined;
  /** The server's configured space, asked once when a call needs it. */
  #defaultSpace: Promise<string> | undefined;

  constructor(options: EngramClientOptions = {}) {
    this.baseUrl = baseUrlOf(options.baseUrl ?? DEFAULT_BASE_URL);
    this.space = options.space;
    this.session = options.session;
    const transport = new Transport({
      baseUrl: this.baseUrl,
      token: options.token,
      headers: options.headers,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      retry: retryOptions(options.retry),
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      sleep: options.sleep ?? sleep,
      random: options.random ?? Math.random,
    });
    const calls = new Calls(transport, (given, call) => this.#spaceOf(given, call), this.session);
    const methods: MemoryMethods &
      ChangeMethods &
      SessionMethods &
      DreamMethods &
      GraphMethods &
      LifecycleMethods &
      AdminMethods = {
      ...memoryMethods(calls),
      ...changeMethods(calls),
      ...sessionMethods(calls),
      ...dreamMethods(calls),
      ...graphMethods(calls),
      ...lifecycleMethods(calls),
      ...adminMethods(calls, this.space),
    };
    Object.assign(this, methods);
  }

  /** The space of a call: the one given, else the client's, else the server's configured one. */
  #spaceOf(given: string | undefined, call: CallOptions): Promise<string> {
    const space = given ?? this.space;
    if (space !== undefined) return Promise.resolve(space);
    this.#defaultSpace ??= this.me(call).then(
      (me: Schemas['Me']) => me.default_space,
      (err: unknown) => {
        this.#defaultSpace = undefined;
        throw err;
      },
    );
    return this.#defaultSpace;
  }
}
