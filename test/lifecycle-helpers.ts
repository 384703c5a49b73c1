/** Shared helpers of the lifecycle and auto-recall tests: a settable clock and error capture. */
import type { CreateEngramOptions, Engram } from '../src/app.js';
import { EngramError } from '../src/errors/errors.js';
import { testEngram } from './helpers.js';

/** Milliseconds per day. */
export const DAY = 86_400_000;

/** A clock tests move by hand. */
export interface TestClock {
  now: () => number;
  advance(ms: number): void;
  set(ms: number): void;
}

/** A clock starting at 2026-01-01T00:00:00Z. */
export function testClock(start = Date.parse('2026-01-01T00:00:00Z')): TestClock {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => (t += ms),
    set: (ms) => (t = ms),
  };
}

/** An engram on a temporary store driven by the given clock. */
export function clockedEngram(
  clock: TestClock,
  options: CreateEngramOptions & { dir?: string } = {},
): Engram {
  return testEngram({ now: clock.now, ...options });
}

/** The EngramError a promise rejects with. */
export async function failure(promise: Promise<unknown>): Promise<EngramError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof EngramError) return err;
    throw err;
  }
  throw new Error('expected an EngramError');
}
