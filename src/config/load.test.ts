import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { tempDir } from '../../test/helpers.js';
import { EngramError } from '../domain/errors.js';
import { envOverrides, loadConfig } from './load.js';

function configError(fn: () => unknown): EngramError {
  try {
    fn();
  } catch (err) {
    if (err instanceof EngramError) return err;
    throw err;
  }
  throw new Error('expected a configuration error');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({ env: {} });
    expect(config.space).toBe('default');
    // Retrieval defaults chosen by bench/locomo (bench/results/locomo-*.md), not the first draft's.
    expect(config.recall).toMatchObject({
      k: 5,
      pool: 100,
      max_pool: 200,
      rrf_k: 30,
      semantic_budget_ms: 800,
    });
    expect(config.recall.weights).toMatchObject({ keyword: 1, vector: 0.3, graph: 0.5 });
    expect(config.recall.rerank).toMatchObject({ enabled: true, scorer: 'alignment', top_n: 100 });
    expect(config.recall.context).toMatchObject({ window: 3, weight: 0.5, decay: 0.7 });
    expect(config.limits.max_body_bytes).toBe(32 * 1024);
    expect(config.store.path).toMatch(/engram\.db$/);
    expect(Object.isFrozen(config.recall)).toBe(true);
  });

  it('reads YAML and resolves paths relative to the file', () => {
    const dir = tempDir();
    const file = join(dir, 'engram.yaml');
    writeFileSync(file, 'store:\n  path: data/mem.db\nrecall:\n  k: 7\n');
    const config = loadConfig({ file, env: {} });
    expect(config.store.path).toBe(join(dir, 'data', 'mem.db'));
    expect(config.recall.k).toBe(7);
  });

  it('names an unknown key', () => {
    const dir = tempDir();
    const file = join(dir, 'c.yaml');
    writeFileSync(file, 'recall:\n  kk: 3\n');
    const err = configError(() => loadConfig({ file, env: {} }));
    expect(err.code).toBe('CONFIG_INVALID');
    expect(err.details.field).toBe('recall.kk');
    expect(err.message).toContain('recall.kk');
  });

  it('names a key with the wrong type and the rule', () => {
    const dir = tempDir();
    const file = join(dir, 'c.yaml');
    writeFileSync(file, 'recall:\n  weights:\n    keyword: lots\n');
    const err = configError(() => loadConfig({ file, env: {} }));
    expect(err.details.field).toBe('recall.weights.keyword');
    expect(err.message).toMatch(/number/i);
  });

  it('rejects broken YAML with the line number, and a missing file', () => {
    const dir = tempDir();
    const file = join(dir, 'c.yaml');
    writeFileSync(file, 'recall:\n  k: [1,\n');
    expect(configError(() => loadConfig({ file, env: {} })).message).toMatch(
      /not valid YAML at line/,
    );
    expect(
      configError(() => loadConfig({ file: join(dir, 'nope.yaml'), env: {} })).message,
    ).toMatch(/does not exist/);
  });

  it('applies ENGRAM_* overrides over the file, resolving underscores through the schema', () => {
    expect(
      envOverrides({ ENGRAM_RECALL_SEMANTIC_BUDGET_MS: '250', ENGRAM_STORE_PATH: '/tmp/x.db' }),
    ).toEqual({
      recall: { semantic_budget_ms: 250 },
      store: { path: '/tmp/x.db' },
    });
    const config = loadConfig({
      env: { ENGRAM_RECALL_K: '9', ENGRAM_RECALL_WEIGHTS_VECTOR: '0.5' },
    });
    expect(config.recall.k).toBe(9);
    expect(config.recall.weights.vector).toBe(0.5);
  });

  it('rejects an ENGRAM_ variable that names no key, and a bad override value', () => {
    expect(configError(() => loadConfig({ env: { ENGRAM_RECAL_K: '3' } })).details.field).toBe(
      'ENGRAM_RECAL_K',
    );
    expect(configError(() => loadConfig({ env: { ENGRAM_RECALL_K: 'many' } })).details.field).toBe(
      'recall.k',
    );
  });

  it('checks cross-field rules', () => {
    const err = configError(() =>
      loadConfig({ env: {}, overrides: { recall: { pool: 300, max_pool: 200 } } }),
    );
    expect(err.details.field).toBe('recall.pool');
  });
});
