/**
 * The client's types: the HTTP API's schemas as generated from `/v1/openapi.json`
 * (api-schema.ts), a route's body and query picked out of them, and the per-call options every
 * method takes (the space, an abort signal, a time limit).
 */
import type { components, paths } from './api-schema.js';

export type { components, paths };

/** The API's named schemas (Memory, RecallResponse, ...), as `/v1/openapi.json` describes them. */
export type Schemas = components['schemas'];

/** A route of the API, as the OpenAPI document names it. */
export type ApiPath = keyof paths;

/** The HTTP methods the client uses, as the OpenAPI types name them. */
export type ApiMethod = 'get' | 'post' | 'patch' | 'delete';

/** The JSON body route `P` takes with method `M`. */
export type BodyOf<P extends ApiPath, M extends ApiMethod> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** The query parameters route `P` takes with method `M`. */
export type QueryOf<P extends ApiPath, M extends ApiMethod> = paths[P][M] extends {
  parameters: { query?: infer Q };
}
  ? NonNullable<Q>
  : never;

/** Options of one call: how long it may take, and a signal that cancels it. */
export interface CallOptions {
  /** Cancels the call (waits between retries included); it then fails with code `ABORTED`. */
  signal?: AbortSignal;
  /** Time limit of the whole call, retries included (default: the client's `timeoutMs`). */
  timeoutMs?: number;
}

/** Options of a call to a space's route: the space (default: the client's) and the call's. */
export interface SpaceOptions extends CallOptions {
  /** The space (default: the client's `space`, else the server's configured space). */
  space?: string;
}

/** Options of a change: its space, and who makes it and why (recorded in history). */
export interface ChangeOptions extends SpaceOptions {
  /** Who makes the change (default: the token's name). */
  actor?: string;
  /** Why. */
  reason?: string;
}
