/**
 * The PostgreSQL driver (pg), required on first use rather than imported: a process on SQLite, or
 * one that only prints help, never loads it; a PostgreSQL store loads it with its first connection.
 * The driver is CommonJS, so the load stays synchronous and opening a store stays synchronous too.
 */
import { createRequire } from 'node:module';

import type pg from 'pg';

const require = createRequire(import.meta.url);
let driver: typeof pg | undefined;

/** The pg module, loaded once per process. */
export function pgDriver(): typeof pg {
  driver ??= require('pg') as typeof pg;
  return driver;
}
