/**
 * The one line `npm test` prints (from the global setup) when ENGRAM_TEST_PG_URL is unset and the
 * PostgreSQL tests are therefore skipped, saying how to run them (README, "Setup", says the same).
 */

/** Starts the test server and exports its URL into the shell: scripts/ci/postgres.sh prints only `export` lines. */
export const PG_START_COMMAND = 'eval "$(bash scripts/ci/postgres.sh start)"';

/** The notice, or undefined when a PostgreSQL test server is configured. */
export function postgresNotice(env: Record<string, string | undefined>): string | undefined {
  if (env.ENGRAM_TEST_PG_URL) return undefined;
  return (
    `PostgreSQL tests skipped: ENGRAM_TEST_PG_URL is not set. To run them, ${PG_START_COMMAND} ` +
    '(as root: installs PostgreSQL and pgvector when missing, starts a throwaway server on ' +
    '127.0.0.1 and prints `export ENGRAM_TEST_PG_URL=...`), then run the tests again; ' +
    '`bash scripts/ci/postgres.sh stop` removes the server.'
  );
}
