/**
 * The client's retry rules: which answers are worth another attempt (429, 503), how long to wait
 * before it (exponential back-off with jitter, or the server's `Retry-After`), and a wait that a
 * signal cuts short.
 */
import { EngramClientError } from './errors.js';

/** How a client retries. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 3; 1 never retries). */
  attempts?: number;
  /** Wait before the first retry, in ms (default 250); it doubles with each retry, with jitter. */
  baseDelayMs?: number;
  /** Longest back-off wait, in ms (default 8000). A server's `Retry-After` is not capped by it. */
  maxDelayMs?: number;
}

/** The retry defaults. */
export const RETRY_DEFAULTS: Required<RetryOptions> = {
  attempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
};

/** A wait of `ms` milliseconds that rejects when `signal` aborts. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** True for the statuses every method retries: rate limited (429) and unavailable (503). */
export function retryableStatus(status: number): boolean {
  return status === 429 || status === 503;
}

/**
 * The wait a `Retry-After` header asks for, in milliseconds: seconds, or an HTTP date from `now`;
 * undefined when absent or unreadable.
 */
export function retryAfterMs(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The back-off before retry number `retry` (1 for the first): `baseDelayMs * 2^(retry-1)`, at
 * most `maxDelayMs`, times a jitter in [0.5, 1) so clients that failed together spread out.
 */
export function backoffMs(
  retry: number,
  options: Required<RetryOptions>,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling * (0.5 + random() / 2));
}

/** The retry options with their defaults, checked. */
export function retryOptions(given: RetryOptions = {}): Required<RetryOptions> {
  const options = { ...RETRY_DEFAULTS, ...given };
  for (const [key, value] of Object.entries(options))
    if (!Number.isFinite(value) || value < (key === 'attempts' ? 1 : 0))
      throw new EngramClientError({
        code: 'INVALID_INPUT',
        message: `retry.${key}: must be a number of at least ${key === 'attempts' ? 1 : 0}`,
        status: 0,
        details: { field: `retry.${key}`, rule: key === 'attempts' ? 'at least 1' : 'at least 0' },
      });
  return options;
}

/** The default wait: a timer, cleared when the signal aborts. */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const done = () => {
      signal.removeEventListener('abort', stop);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
