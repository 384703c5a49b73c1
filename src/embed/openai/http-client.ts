/**
 * A small JSON-over-HTTP client for OpenAI-compatible APIs (OpenAI, Ollama, vLLM, llama.cpp):
 * bearer auth, a deadline per request, retries with back-off on 429/5xx/network failures, and
 * errors that quote the server but never the API key. Shared by every OpenAI-compatible provider.
 */
import { setTimeout as sleep } from 'node:timers/promises';

import { EngramError } from '../../domain/errors.js';
import { isRetryableStatus, retryAfterMs, retryDelayMs, serverErrorText } from './retry.js';

/** Options of an `OpenAiHttpClient`. */
export interface OpenAiHttpClientOptions {
  /** API root without a trailing slash, e.g. `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  apiKey: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
  fetch: typeof fetch;
  /** Who is asking, at the start of error messages, e.g. `openai embedder`. */
  label: string;
}

/** How one attempt failed: its reason, whether another try may help, and the server's wish. */
interface Failure {
  reason: string;
  rule: 'http_status' | 'network' | 'timeout' | 'malformed_response';
  retryable: boolean;
  status?: number;
  waitMs?: number;
}

type Attempt = { ok: true; body: unknown } | { ok: false; failure: Failure };

/** Posts JSON to an OpenAI-compatible API and returns the parsed JSON answer. */
export class OpenAiHttpClient {
  private readonly options: OpenAiHttpClientOptions;
  private controller = new AbortController();

  constructor(options: OpenAiHttpClientOptions) {
    this.options = options;
  }

  /**
   * POSTs `body` to `<baseUrl><path>`, retrying as the options allow. Throws EMBEDDER_UNAVAILABLE
   * naming the status and the server's text, or rule `closed` when `abortAll` interrupted it.
   */
  async postJson(path: string, body: unknown): Promise<unknown> {
    const url = `${this.options.baseUrl}${path}`;
    const payload = JSON.stringify(body);
    const closing = this.controller.signal;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(url, payload, closing);
      if (outcome.ok) return outcome.body;
      const { failure } = outcome;
      if (!failure.retryable || attempt >= this.options.maxRetries) {
        throw this.failed(url, failure, attempt + 1);
      }
      const wait = retryDelayMs(attempt, this.options.retryBaseMs, failure.waitMs);
      await sleep(wait, undefined, { signal: closing }).catch(() => {
        throw this.closed(url);
      });
    }
  }

  /** Aborts every request in flight (they reject with rule `closed`); later requests still run. */
  abortAll(): void {
    this.controller.abort();
    this.controller = new AbortController();
  }

  private async attempt(url: string, payload: string, closing: AbortSignal): Promise<Attempt> {
    const signal = AbortSignal.any([closing, AbortSignal.timeout(this.options.timeoutMs)]);
    let response: Response;
    let text: string;
    try {
      response = await this.options.fetch(url, {
        method: 'POST',
        headers: this.headers(),
        body: payload,
        signal,
        // A redirected POST would turn into a GET; report it instead of following it.
        redirect: 'manual',
      });
      text = await response.text();
    } catch (error) {
      if (closing.aborted) throw this.closed(url);
      return { ok: false, failure: this.transportFailure(error) };
    }
    if (response.status >= 200 && response.status < 300) return parseJson(text);
    return { ok: false, failure: this.statusFailure(response, text) };
  }

  private headers(): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (this.options.apiKey !== undefined) headers.authorization = `Bearer ${this.options.apiKey}`;
    return headers;
  }

  private statusFailure(response: Response, text: string): Failure {
    const status = response.status;
    let reason = `HTTP ${status}: ${serverErrorText(text, this.options.apiKey)}`;
    if (status >= 300 && status < 400) {
      reason = `HTTP ${status}: redirected to ${response.headers.get('location') ?? '(no location)'}; set the base URL to the final address`;
    } else if (status === 404) {
      reason +=
        ' (check that the base URL is the API root, often ending in /v1, and the model exists)';
    }
    const waitMs = retryAfterMs(response.headers);
    return { reason, rule: 'http_status', retryable: isRetryableStatus(status), status, waitMs };
  }

  private transportFailure(error: unknown): Failure {
    if (error instanceof Error && error.name === 'TimeoutError') {
      return {
        reason: `no answer within ${this.options.timeoutMs} ms`,
        rule: 'timeout',
        retryable: true,
      };
    }
    return {
      reason: `network error: ${describeNetworkError(error)}`,
      rule: 'network',
      retryable: true,
    };
  }

  private failed(url: string, failure: Failure, attempts: number): EngramError {
    const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
    return new EngramError(
      'EMBEDDER_UNAVAILABLE',
      `${this.options.label}: POST ${url} failed${tries}: ${failure.reason}`,
      {
        rule: failure.rule,
        attempts,
        ...(failure.status === undefined ? {} : { status: failure.status }),
      },
    );
  }

  private closed(url: string): EngramError {
    return new EngramError(
      'EMBEDDER_UNAVAILABLE',
      `${this.options.label}: POST ${url} was aborted because the client was closed`,
      { rule: 'closed' },
    );
  }
}

function parseJson(text: string): Attempt {
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      failure: {
        reason: `malformed response: the body is not valid JSON (${why})`,
        rule: 'malformed_response',
        retryable: false,
      },
    };
  }
}

/** Undici reports `fetch failed` and puts the useful part (ECONNREFUSED...) in `cause`. */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error && cause.message !== '') return `${error.message} (${cause.message})`;
  return error.message;
}
