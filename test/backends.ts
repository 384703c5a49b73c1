/**
 * The store backends a service-level test runs on: SQLite always, PostgreSQL when
 * ENGRAM_TEST_PG_URL names a server (each store on its own random schema, dropped after the test).
 * Use with `describe.each(BACKENDS)('... ($name)', (backend) => ...)`.
 */
import { onTestFinished } from 'vitest';

import type { ConfigInput } from '../src/config/schema.js';
import { dropSchema, PG_URL, pgConfig, randomSchema } from './postgres-helpers.js';

/** One backend: its name and how to configure a fresh, empty store on it. */
export interface Backend {
  name: 'sqlite' | 'postgres';
  /**
   * Store settings of a fresh store (call inside a test). SQLite's store lives in the test's
   * directory, so it needs nothing here; a PostgreSQL schema is dropped when the test ends.
   */
  fresh(): Pick<ConfigInput, 'store'>;
}

const sqlite: Backend = { name: 'sqlite', fresh: () => ({}) };

const postgres: Backend = {
  name: 'postgres',
  fresh() {
    const schema = randomSchema();
    // onTestFinished runs after the afterEach hooks that close the test's engrams.
    onTestFinished(() => dropSchema(schema));
    return pgConfig(schema);
  },
};

/** SQLite, and PostgreSQL when a test server is configured. */
export const BACKENDS: readonly Backend[] = PG_URL ? [sqlite, postgres] : [sqlite];
