/**
 * Vitest global setup: builds the static embedder's word-vector cache once, before any test
 * process starts, so parallel test files load it instead of racing to build it.
 */
import { StaticEmbedder } from '../src/embed/static/static-embedder.js';
import { testCacheDir } from './cache-dir.js';

export default async function setup(): Promise<void> {
  const cacheDir = testCacheDir();
  process.env.ENGRAM_TEST_CACHE_DIR = cacheDir;
  const embedder = new StaticEmbedder({ cacheDir });
  await embedder.prepare();
  await embedder.close();
}
