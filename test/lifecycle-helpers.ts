/**
 * Shared helpers of the lifecycle and auto-recall tests: a settable clock, error capture, and the
 * backends the suites run on (PostgreSQL only with ENGRAM_TEST_PG_URL, else skipped visibly).
 */
import { describe, onTestFinished } from 'vitest';

import type { CreateEngramOptions, Engram } from '../src/app.js';
import type { ConfigInput } from '../src/config/schema.js';
import { EngramError } from '../src/domain/errors.js';
import { tempDir, testEngram } from './helpers.js';
import { dropSchema, PG_URL, pgConfig, randomSchema } from './postgres-helpers.js';

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

/** The backends the lifecycle suites run on. */
export const BACKENDS = ['sqlite', 'postgres'] as const;
/** One of BACKENDS. */
export type Backend = (typeof BACKENDS)[number];

/** Options of an engram on a test backend: its folder (shared by engrams of one store). */
export type BackendEngramOptions = CreateEngramOptions & { dir?: string; backend?: Backend };

/** Declares a suite once per backend; the PostgreSQL one is skipped without a server. */
export function describeBackends(name: string, suite: (backend: Backend) => void): void {
  for (const backend of BACKENDS)
    describe.skipIf(backend === 'postgres' && !PG_URL)(`${name} [${backend}]`, () =>
      suite(backend),
    );
}

/** PostgreSQL schemas by test folder: engrams opened on one folder share one store. */
const schemas = new Map<string, string>();

function schemaOf(dir: string): string {
  let schema = schemas.get(dir);
  if (!schema) {
    const fresh = randomSchema('engram_lc');
    schemas.set(dir, fresh);
    onTestFinished(async () => {
      schemas.delete(dir);
      await dropSchema(fresh);
    });
    schema = fresh;
  }
  return schema;
}

/** The configuration of an engram on `backend` whose folder is `dir`. */
export function backendConfig(
  backend: Backend,
  dir: string,
  config: ConfigInput = {},
): ConfigInput {
  if (backend === 'sqlite') return config;
  return { ...config, store: { ...pgConfig(schemaOf(dir)).store, ...config.store } };
}

/** An engram on a temporary store of the given backend (SQLite by default). */
export function backendEngram(options: BackendEngramOptions = {}): Engram {
  const { backend = 'sqlite', ...rest } = options;
  const dir = rest.dir ?? tempDir();
  return testEngram({ ...rest, dir, config: backendConfig(backend, dir, rest.config) });
}

/** An engram on a temporary store driven by the given clock. */
export function clockedEngram(clock: TestClock, options: BackendEngramOptions = {}): Engram {
  return backendEngram({ now: clock.now, ...options });
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
