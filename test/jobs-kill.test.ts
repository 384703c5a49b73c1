/**
 * A worker process killed with SIGKILL in the middle of a job (§11): the store stays consistent,
 * the graph stays whole and readable, and another process takes the job over once its lease
 * expires, counts the dead run as a failed attempt, and finishes it from its last checkpoint with
 * no page counted twice.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { createEngram } from '../src/app.js';
import { silentLogger } from '../src/domain/log.js';
import { testCacheDir } from './cache-dir.js';
import { killRunning, ROOT, startNode } from './fixtures/processes.js';
import { tempDir } from './helpers.js';

afterEach(() => killRunning());

const ITEMS = 2_000;

describe('a worker killed mid-job (SQLite)', () => {
  it('leaves the graph whole, and a second process finishes the job from its checkpoint', async () => {
    const dir = tempDir();
    // A short lease, so the second process may take the job over a second after the kill.
    const config = join(dir, 'engram.yaml');
    writeFileSync(
      config,
      stringify({
        store: { path: join(dir, 'engram.db') },
        embedder: { cache_dir: testCacheDir() },
        worker: { lease_ms: 1_000 },
        graph: { worker: false },
      }),
    );
    const open = () =>
      createEngram({ configFile: config, logger: silentLogger, background: false, env: {} });
    const seed = open();
    const names = ['Alice', 'Bob', 'Carol', 'Dan', 'Erin', 'Frank'];
    const bodies = Array.from(
      { length: ITEMS },
      (_, i) => `${names[i % 6]} met ${names[(i + 1) % 6]} in Paris about project ${i}.`,
    );
    for (let i = 0; i < ITEMS; i += 600)
      await seed.rememberMany(bodies.slice(i, i + 600).map((body) => ({ body })));
    const before = await seed.graphStats();
    await seed.close();

    let first!: () => void;
    const checkpointed = new Promise<void>((resolve) => (first = resolve));
    const child = startNode(
      ['--import', 'tsx', join(ROOT, 'test', 'fixtures', 'rebuild-job.ts'), config],
      { timeoutMs: 120_000, onLine: (line) => line.includes('"cursor"') && first() },
    );
    await Promise.race([checkpointed, child.done]);
    child.kill('SIGKILL');
    const killed = await child.done;
    expect(killed.signal, killed.stderr).toBe('SIGKILL');

    const engram = open();
    const [orphan] = (await engram.jobs({ kinds: ['graph.rebuild'] })).jobs;
    expect(orphan).toMatchObject({ state: 'running', attempts: 0 });
    const stopped = orphan!.progress as { done: number };
    expect(stopped.done).toBeGreaterThan(0);
    expect(stopped.done).toBeLessThan(ITEMS);
    // The graph is whole while the job waits: nothing was cleared.
    expect(await engram.graphStats()).toMatchObject({
      entities: before.entities,
      items_extracted: ITEMS,
      items_stale: 0,
    });

    const resumed = await engram.runJobHere({
      kind: 'graph.rebuild',
      space: 'default',
      dedupe_key: 'graph.rebuild:default',
    });
    expect(resumed).toMatchObject({ id: orphan!.id, state: 'succeeded', attempts: 1 });
    expect(resumed.progress).toMatchObject({ done: ITEMS, cursor: null });
    expect(resumed.last_error).toContain('lease expired');
    expect(await engram.graphStats()).toMatchObject({
      entities: before.entities,
      items_extracted: ITEMS,
    });
    expect((await engram.jobActivity()).running).toEqual([]);
    await engram.close();
  }, 120_000);
});
