/**
 * The client's HTTP: one call is a JSON request to a route under the base URL, with the bearer
 * token, made again on 429 and 503 (and on a network failure when the request is idempotent)
 * with back-off, within one time limit for the whole call and under the caller's abort signal.
 * Uses the global `fetch` (or one given); nothing else.
 */
import { EngramClientError, errorFromAnswer } from './errors.js';
import {
  backoffMs,
  retryableStatus,
  retryAfterMs,
  type RetryOptions,
  type Sleep,
} from './retry.js';
import type { CallOptions } from './types.js';

/** A query parameter's value: lists repeat the parameter. */
export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;

/** One request of a call. */
export interface ClientRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** The route with its parameters filled in, from `/v1`. */
  path: string;
  query?: Record<string, QueryValue>;
  /** A JSON body. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Whether a network failure may be retried (default: GET only). */
  idempotent?: boolean;
  /** Error statuses whose body is the answer all the same (health's 503). */
  accept?: readonly number[];
}

/** What a transport is built with. */
export interface TransportOptions {
  /** The server's origin (and path prefix), without `/v1`. */
  baseUrl: string;
  token?: string;
  headers?: Record<string, string>;
  /** Time limit of a call, retries included; 0: none. */
  timeoutMs: number;
  retry: Required<RetryOptions>;
  fetch: typeof fetch;
  sleep: Sleep;
  random: () => number;
}

/** A call's end before any answer: the caller's abort, or the time limit. */
class Stopped extends Error {}

/** The URL of a request. */
function urlOf(baseUrl: string, request: ClientRequest): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) params.append(key, String(one));
  }
  const query = params.toString();
  return `${baseUrl}${request.path}${query ? `?${query}` : ''}`;
}

/** The reason fetch gave for a network failure: the system error code when there is one. */
function networkReason(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}

/** Sends the client's requests. */
export class Transport {
  constructor(private readonly options: TransportOptions) {}

  /** Sends a request as one call and returns its parsed JSON answer (undefined when empty). */
  async send<T>(request: ClientRequest, call: CallOptions = {}): Promise<T> {
    const limit = call.timeoutMs ?? this.options.timeoutMs;
    const controller = new AbortController();
    const stopped = () => {
      if (call.signal?.aborted)
        return new EngramClientError({
          code: 'ABORTED',
          message: `${request.method} ${request.path}: aborted by the caller`,
          status: 0,
          cause: call.signal.reason,
        });
      return new EngramClientError({
        code: 'TIMEOUT',
        message: `${request.method} ${request.path}: no answer within ${limit} ms`,
        status: 0,
      });
    };
    if (call.signal?.aborted) throw stopped();
    const onAbort = () => controller.abort(new Stopped());
    call.signal?.addEventListener('abort', onAbort, { once: true });
    const timer = limit > 0 ? setTimeout(onAbort, limit) : undefined;
    const deadline = limit > 0 ? Date.now() + limit : Infinity;
    try {
      return await this.attempts<T>(request, controller.signal, deadline);
    } catch (err) {
      if (
        err instanceof Stopped ||
        (controller.signal.aborted && !(err instanceof EngramClientError))
      )
        throw stopped();
      throw err;
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onAbort);
    }
  }

  private async attempts<T>(
    request: ClientRequest,
    signal: AbortSignal,
    deadline: number,
  ): Promise<T> {
    const { retry, random } = this.options;
    const url = urlOf(this.options.baseUrl, request);
    const init = this.init(request, signal);
    const idempotent = request.idempotent ?? request.method === 'GET';
    for (let attempt = 1; ; attempt++) {
      let failure: EngramClientError;
      let wish: number | undefined;
      try {
        const response = await this.options.fetch(url, init);
        const text = await response.text();
        if (response.ok || request.accept?.includes(response.status))
          return this.parse<T>(text, response.status, attempt);
        failure = errorFromAnswer(
          response.status,
          text,
          response.headers.get('x-request-id') ?? undefined,
          attempt,
        );
        if (!retryableStatus(response.status)) throw failure;
        wish = retryAfterMs(response.headers.get('retry-after'), Date.now());
      } catch (err) {
        if (err instanceof EngramClientError || signal.aborted) throw err;
        failure = new EngramClientError({
          code: 'UNAVAILABLE',
          message: `${request.method} ${request.path}: no answer from ${this.options.baseUrl} (${networkReason(err)})`,
          status: 0,
          attempts: attempt,
          cause: err,
        });
        if (!idempotent) throw failure;
      }
      if (attempt >= retry.attempts) throw failure;
      const wait = wish ?? backoffMs(attempt, retry, random);
      // A wait the time limit cannot cover ends the call now, with the answer that asked for it.
      if (Date.now() + wait >= deadline) throw failure;
      await this.options.sleep(wait, signal);
    }
  }

  private init(request: ClientRequest, signal: AbortSignal): RequestInit {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.options.headers,
      ...request.headers,
    };
    if (this.options.token !== undefined) headers.authorization = `Bearer ${this.options.token}`;
    let body: string | undefined;
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    return { method: request.method, headers, body, signal };
  }

  private parse<T>(text: string, status: number, attempts: number): T {
    if (text === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw new EngramClientError({
        code: 'BAD_RESPONSE',
        message: `HTTP ${status}: the answer is not JSON`,
        status,
        attempts,
        cause: err,
      });
    }
  }
}
