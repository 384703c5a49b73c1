/**
 * Retry rules for OpenAI-compatible HTTP APIs: which answers are worth another try, how long to
 * wait before it (exponential back-off with jitter, or the server's own `Retry-After`), and how to
 * pull a readable error out of whatever body a server sends back.
 */

/** Longest wait between two attempts computed from the back-off. */
export const MAX_BACKOFF_MS = 10_000;
/** Longest wait a server's `Retry-After` can ask for; beyond it the client retries sooner. */
export const MAX_RETRY_AFTER_MS = 30_000;
/** Most characters of a server's error text quoted in an error message. */
export const MAX_ERROR_TEXT = 300;

/** True for the statuses worth retrying: rate limiting (429) and server faults (5xx). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * The wait a server asks for, in milliseconds: `retry-after-ms` (sent by OpenAI) or `Retry-After`
 * in seconds or as an HTTP date; undefined when absent or unreadable.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Number(ms);
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Wait before retry number `attempt` (0 for the first retry): the server's wish when it gave one
 * (capped), else `baseMs * 2^attempt` with ±20% jitter so clients that failed together spread out.
 */
export function retryDelayMs(
  attempt: number,
  baseMs: number,
  serverWishMs?: number,
  random: () => number = Math.random,
): number {
  if (serverWishMs !== undefined) return Math.min(Math.max(0, serverWishMs), MAX_RETRY_AFTER_MS);
  const jitter = 0.8 + 0.4 * random();
  return Math.round(Math.min(baseMs * 2 ** attempt * jitter, MAX_BACKOFF_MS));
}

/**
 * The server's explanation in an error body: OpenAI's `{error: {message}}`, the `{error: "..."}`,
 * `{message}` and `{detail}` shapes of other servers, else the raw text; one line, at most
 * MAX_ERROR_TEXT characters, with `secret` (the API key) masked should a server echo it.
 */
export function serverErrorText(body: string, secret?: string): string {
  const text = collapse(messageOf(body) ?? body);
  const masked = secret === undefined ? text : text.split(secret).join('[redacted]');
  if (masked === '') return '(empty body)';
  return masked.length > MAX_ERROR_TEXT ? `${masked.slice(0, MAX_ERROR_TEXT - 1)}…` : masked;
}

function messageOf(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { error, message, detail } = parsed as Record<string, unknown>;
  if (typeof error === 'object' && error !== null) {
    const nested = (error as Record<string, unknown>).message;
    if (typeof nested === 'string') return nested;
  }
  if (typeof error === 'string') return error;
  if (typeof message === 'string') return message;
  if (typeof detail === 'string') return detail;
  return undefined;
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
