/** Exponential back-off with jitter for retries of background work (§11). */

/** How retries are spaced. */
export interface BackoffPolicy {
  /** Delay before the first retry. */
  baseMs: number;
  /** Longest delay. */
  maxMs: number;
  /** Random part: the delay is scaled by a factor in [1 - jitter, 1 + jitter]. */
  jitter: number;
}

/** Delay before retry number `attempt` (1 for the first): base · 2^(attempt-1), capped, jittered. */
export function backoffMs(
  policy: BackoffPolicy,
  attempt: number,
  random: () => number = Math.random,
): number {
  const exponential = policy.baseMs * 2 ** Math.max(0, attempt - 1);
  const capped = Math.min(policy.maxMs, exponential);
  const factor = 1 + policy.jitter * (2 * random() - 1);
  return Math.max(0, Math.round(capped * factor));
}
