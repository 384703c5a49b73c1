/** Where tests keep the built word-vector cache (shared by every test process). */
import { join, resolve } from 'node:path';

/** The test cache directory: ENGRAM_TEST_CACHE_DIR, else node_modules/.cache/engram-test. */
export function testCacheDir(): string {
  return (
    process.env.ENGRAM_TEST_CACHE_DIR ??
    resolve(join(import.meta.dirname, '..', 'node_modules', '.cache', 'engram-test'))
  );
}
