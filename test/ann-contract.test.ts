/**
 * The Store contract on SQLite with the HNSW index forced on from the first vector, so that every
 * vector search of the shared suite goes through the approximate path (candidates from the index
 * and from the not-yet-indexed changes, re-scored exactly).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ANN_DEFAULTS } from '../src/store/sqlite/ann-search.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import { storeContract } from './store-contract.js';

storeContract('sqlite with the HNSW index forced on', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'engram-ann-contract-'));
  const store = openSqliteStore({
    path: join(dir, 'engram.db'),
    ann: { ...ANN_DEFAULTS, min_items: 1 },
  });
  return {
    store,
    async cleanup() {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
