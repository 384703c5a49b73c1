// `engram graph ...` and the graph column of `search`, through the built CLI as users run it; on
// SQLite, and on PostgreSQL when ENGRAM_TEST_PG_URL is set.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { type Backend, BACKENDS } from './backends.js';
import { runCli } from './cli-run.js';
import { tempDir } from './helpers.js';

function setup(backend: Backend) {
  const dir = tempDir();
  const config = join(dir, 'engram.yaml');
  const store = { path: join(dir, 'engram.db'), ...backend.fresh().store };
  writeFileSync(config, stringify({ store, embedder: { provider: 'none' } }));
  return (args: string[]) => runCli(['--config', config, ...args]);
}

describe.each(BACKENDS)('engram graph (built binary, $name)', (backend) => {
  it('shows stats, entities, neighbours, hubs, rebuilds, and explains graph hits in search', async () => {
    const cli = setup(backend);
    for (const body of [
      'Alice Johnson leads Project Phoenix.',
      'Project Phoenix runs on Kubernetes in the Frankfurt region.',
      'Kubernetes upgrades happen every quarter.',
    ])
      expect((await cli(['remember', body])).code).toBe(0);

    const stats = await cli(['--json', 'graph', 'stats']);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({
      entities: 4,
      items_extracted: 3,
      items_stale: 0,
    });
    expect((await cli(['graph', 'stats'])).stdout).toContain('4 entities');

    const entities = await cli(['graph', 'entities', '--top', '2']);
    expect(entities.stdout).toMatch(/^Project Phoenix +name +2 /mu);

    const neighbors = await cli(['graph', 'neighbors', 'Alice Johnson', '--depth', '2']);
    expect(neighbors.code).toBe(0);
    expect(neighbors.stdout).toContain('Alice Johnson → Project Phoenix → Kubernetes');

    const bad = await cli(['--json', 'graph', 'neighbors', 'Alice Johnson', '--depth', '0']);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr).error).toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'depth' },
    });
    expect((await cli(['graph', 'neighbors', 'Nobody'])).code).toBe(3);

    const hubs = await cli(['--json', 'graph', 'hubs']);
    expect(hubs.code).toBe(0);
    expect(JSON.parse(hubs.stdout)).toHaveProperty('hubs');

    const rebuilt = await cli(['--json', 'graph', 'rebuild']);
    expect(JSON.parse(rebuilt.stdout)).toMatchObject({ items: 3, entities: 4 });

    const search = await cli(['search', 'Who is Alice?']);
    expect(search.stdout).toMatch(/2 Alice Johnson → Proj/u);
    const json = JSON.parse((await cli(['--json', 'search', 'Who is Alice?'])).stdout) as {
      hits: { channels: { graph?: number; graph_path?: string[] } }[];
    };
    expect(json.hits.map((h) => h.channels.graph)).toEqual([1, 2]);
  });

  it('extracts on writes whether extraction runs in its worker, inline, or not at all', async () => {
    // A writing command starts the extraction worker before it reads its configuration, and stops
    // it again when the configuration extracts inline or has the graph off.
    for (const graph of [{ worker: true }, { worker: false }, { enabled: false }]) {
      const dir = tempDir();
      const config = join(dir, 'engram.yaml');
      const store = { path: join(dir, 'engram.db'), ...backend.fresh().store };
      writeFileSync(config, stringify({ store, embedder: { provider: 'none' }, graph }));
      const cli = (args: string[]) => runCli(['--config', config, ...args]);
      const wrote = await cli(['remember', 'Alice Johnson leads Project Phoenix.']);
      expect(wrote.code, `${JSON.stringify(graph)}: ${wrote.stderr}`).toBe(0);
      const stats = await cli(['--json', 'graph', 'stats']);
      const extracted = graph.enabled === false ? 0 : 1;
      expect(JSON.parse(stats.stdout), JSON.stringify(graph)).toMatchObject({
        items_extracted: extracted,
      });
    }
  });
});
