/**
 * The console's typed client of the engram HTTP API: openapi-fetch over the types generated from
 * `/v1/openapi.json` (api-schema.d.ts), the bearer token from session storage on every request,
 * and errors turned into ApiError with a message that says what to do.
 */
import createClient, { type Middleware } from 'openapi-fetch';

import type { components, paths } from './api-schema';

/** The API's named schemas (Memory, RecallResponse, ...). */
export type Schemas = components['schemas'];
/** The API's paths, for typed calls. */
export type Paths = paths;

const TOKEN_KEY = 'engram.token';

/** The API token of this browser tab: session storage only (never the URL, never local storage). */
export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (value: string): void => sessionStorage.setItem(TOKEN_KEY, value),
  clear: (): void => sessionStorage.removeItem(TOKEN_KEY),
};

/** Fired on window when the server rejects the token: the console shows the sign-in again. */
export const SIGNED_OUT = 'engram:signed-out';

const bearer: Middleware = {
  onRequest({ request }) {
    const value = token.get();
    if (value) request.headers.set('Authorization', `Bearer ${value}`);
    return request;
  },
};

/** The typed client (`api.GET('/v1/me')`, `api.POST('/v1/spaces/{space}/recall', ...)`). */
export const api = createClient<paths>({ baseUrl: globalThis.location?.origin ?? '' });
api.use(bearer);

/** A failed API call: the engram error code, the HTTP status and the error's details. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type Envelope = { error?: { code?: string; message?: string; details?: Record<string, unknown> } };

/**
 * The data of an openapi-fetch call, or an ApiError. A 401 also signs the tab out. A network
 * failure becomes an ApiError with status 0.
 */
export async function call<T>(
  request: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  let result: Awaited<typeof request>;
  try {
    result = await request;
  } catch (err) {
    throw new ApiError(
      `The engram server did not answer (${(err as Error).message}). Is engram serve still running?`,
      0,
      'NETWORK',
    );
  }
  const { data, error, response } = result;
  if (response.ok) return data as T;
  const body = (error ?? {}) as Envelope;
  const code = body.error?.code ?? `HTTP_${response.status}`;
  if (response.status === 401) window.dispatchEvent(new Event(SIGNED_OUT));
  throw new ApiError(advice(response.status, body.error?.message), response.status, code, {
    ...body.error?.details,
  });
}

function advice(status: number, message = 'the server gave no reason'): string {
  if (status === 401) return `Sign in again: ${message}.`;
  if (status === 403)
    return `This token may not do that here (${message}). Ask for a token with that role or space.`;
  if (status === 404) return `Not found: ${message}.`;
  if (status === 409) return `${message}. Reload to see the current state, then try again.`;
  if (status === 503)
    return `The store is busy or unavailable (${message}). Try again in a moment.`;
  if (status >= 500) return `The server failed (${message}). Its log has the details.`;
  return message;
}

/** A readable message for any error a page catches. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
