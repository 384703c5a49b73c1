/**
 * Leases for background work shared by several processes on one store (§11): each backend keeps
 * lease rows (name, holder, expiry) and this runner adds what every backend needs on top —
 * validation, a unique holder id, renewal while the work runs, an abort signal when the lease is
 * lost, and release afterwards.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

import { EngramError } from '../domain/errors.js';
import type { Lease, LeaseOutcome } from './store.js';

/** The lease rows of one backend. Times are epoch milliseconds of the backend's clock. */
export interface LeaseRows {
  /** Takes the lease if it is free, expired or already this holder's; reports the holder after. */
  acquire(
    name: string,
    holder: string,
    ttlMs: number,
  ): Promise<{ acquired: boolean; holder: string; expires_at: number }>;
  /** Extends this holder's lease; false when it is no longer the holder. */
  renew(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Gives the lease up if this holder still has it. */
  release(name: string, holder: string): Promise<void>;
}

/** Shortest and longest lease times accepted. */
export const LEASE_TTL_MS = { min: 100, max: 24 * 3_600_000 } as const;

function validate(name: string, ttlMs: number): void {
  if (typeof name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9:._/-]{0,199}$/.test(name))
    throw new EngramError(
      'INVALID_INPUT',
      'lease name: must be 1-200 letters, digits or ":._/-", starting with a letter or digit',
      { field: 'name', rule: 'lease name' },
    );
  if (!Number.isInteger(ttlMs) || ttlMs < LEASE_TTL_MS.min || ttlMs > LEASE_TTL_MS.max)
    throw new EngramError(
      'INVALID_INPUT',
      `ttlMs: must be an integer from ${LEASE_TTL_MS.min} to ${LEASE_TTL_MS.max}`,
      { field: 'ttlMs', rule: `${LEASE_TTL_MS.min}..${LEASE_TTL_MS.max}` },
    );
}

/** A holder id unique to this holding. */
export function newHolder(): string {
  return `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;
}

/**
 * Runs `fn` under the lease: renews every third of `ttlMs`; if renewal fails or finds another
 * holder, or the lease runs out between renewals, `lease.signal` aborts so `fn` can stop.
 */
export async function runLease<T>(
  rows: LeaseRows,
  name: string,
  ttlMs: number,
  fn: (lease: Lease) => Promise<T>,
): Promise<LeaseOutcome<T>> {
  validate(name, ttlMs);
  const holder = newHolder();
  const taken = await rows.acquire(name, holder, ttlMs);
  if (!taken.acquired)
    return { acquired: false, holder: taken.holder, expires_at: taken.expires_at };
  const controller = new AbortController();
  let validUntil = Date.now() + ttlMs;
  const lost = (why: string) => {
    if (!controller.signal.aborted)
      controller.abort(
        new EngramError('CONFLICT', `lease ${name} was lost: ${why}`, { rule: 'lease held' }),
      );
  };
  const timer = setInterval(
    () => {
      const started = Date.now();
      rows.renew(name, holder, ttlMs).then(
        (ok) => (ok ? (validUntil = started + ttlMs) : lost('another holder took it')),
        (err: unknown) => {
          if (Date.now() >= validUntil) lost(err instanceof Error ? err.message : String(err));
        },
      );
    },
    Math.max(20, Math.floor(ttlMs / 3)),
  );
  timer.unref();
  try {
    const value = await fn({ name, holder, signal: controller.signal });
    return { acquired: true, value };
  } finally {
    clearInterval(timer);
    await rows.release(name, holder).catch(() => undefined);
  }
}
