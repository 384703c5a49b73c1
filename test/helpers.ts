/** Shared test helpers: temporary stores and a configured engram on them. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach } from 'vitest';

import { createEngram, type CreateEngramOptions, type Engram } from '../src/app.js';
import type { ConfigInput } from '../src/config/schema.js';
import { silentLogger } from '../src/domain/log.js';
import { testCacheDir } from './cache-dir.js';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

/** A fresh temporary directory, removed after the test. */
export function tempDir(prefix = 'engram-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A configuration for a temporary store that uses the shared embedder cache. */
export function testConfig(dir: string, extra: ConfigInput = {}): ConfigInput {
  return {
    ...extra,
    store: { path: join(dir, 'engram.db'), ...extra.store },
    embedder: { cache_dir: testCacheDir(), ...extra.embedder },
  };
}

/** An engram on a fresh temporary store, closed after the test. */
export function testEngram(options: CreateEngramOptions & { dir?: string } = {}): Engram {
  const dir = options.dir ?? tempDir();
  const engram = createEngram({
    logger: silentLogger,
    background: false,
    env: {},
    ...options,
    config: testConfig(dir, options.config),
  });
  cleanups.push(() => engram.close());
  return engram;
}
