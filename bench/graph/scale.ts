/**
 * The graph at scale: the scale benchmark's synthetic memories (seeded, Zipf-distributed people,
 * projects, tools and places) imported with and without the graph, then the same queries recalled
 * with the graph channel's weight at 1 and at 0 on the graph store, alternating, so the p95 delta
 * is the channel's own cost. The embedder is off: it would only add the same cost to both sides.
 */
import { join } from 'node:path';

import { createEngram, type Engram } from '../../src/app.js';
import { silentLogger } from '../../src/domain/log.js';
import { percentile } from '../lib/metrics.js';
import { memories, queries } from '../scale/corpus.js';

/** What the scale phase measured. */
export interface ScaleResult {
  items: number;
  queries: number;
  import_ms: { with_graph: number; without_graph: number; extra_share: number };
  graph: { entities: number; edges: number; mentions: number };
  recall_ms: {
    graph_on: { p50: number; p95: number };
    graph_off: { p50: number; p95: number };
    graph_channel: { p50: number; p95: number };
    p95_delta: number;
  };
  graph_hits_per_query: number;
}

function open(path: string, graph: boolean): Engram {
  return createEngram({
    logger: silentLogger,
    background: false,
    env: {},
    config: {
      store: { path },
      embedder: { provider: 'none' },
      graph: { enabled: graph },
      recall: { boosts: { frequency: 0 } },
    },
  });
}

async function load(engram: Engram, items: number, seed: number): Promise<number> {
  const started = performance.now();
  let batch: unknown[] = [];
  for (const m of memories(seed, items)) {
    batch.push(m);
    if (batch.length === 1000) {
      await engram.rememberMany(batch, { priority: 'background' });
      batch = [];
    }
  }
  if (batch.length) await engram.rememberMany(batch, { priority: 'background' });
  // Graph upkeep trails the writes in its worker: the import ends when the graph is complete,
  // that is when a graph read returns (each waits for the queued upkeep; this one reads one row).
  if (engram.config.graph.enabled) await engram.graphEntities({ top: 1 });
  return performance.now() - started;
}

const r2 = (n: number) => Math.round(n * 100) / 100;
const lat = (xs: number[]) => ({ p50: r2(percentile(xs, 50)), p95: r2(percentile(xs, 95)) });

/** Runs the scale phase. */
export async function runScale(
  dir: string,
  items: number,
  count: number,
  seed: number,
): Promise<ScaleResult> {
  const plain = open(join(dir, `scale-${items}-plain.db`), false);
  const withoutMs = await load(plain, items, seed);
  await plain.close();
  process.stderr.write(`scale: ${items} items without graph in ${Math.round(withoutMs)} ms\n`);
  const engram = open(join(dir, `scale-${items}-graph.db`), true);
  try {
    const withMs = await load(engram, items, seed);
    process.stderr.write(`scale: ${items} items with graph in ${Math.round(withMs)} ms\n`);
    const stats = await engram.graphStats();
    const on: number[] = [];
    const off: number[] = [];
    const channel: number[] = [];
    let hits = 0;
    const qs = queries(seed + 1, count);
    for (const query of qs.slice(0, 20)) await engram.recall({ query }); // warm-up
    for (const query of qs) {
      const a = await engram.recall({ query, k: 10 });
      const b = await engram.recall({ query, k: 10, weights: { graph: 0 } });
      on.push(a.timings_ms.total ?? 0);
      off.push(b.timings_ms.total ?? 0);
      channel.push(a.timings_ms.graph ?? 0);
      hits += a.hits.filter((h) => h.channels.graph !== undefined).length;
    }
    const graphOn = lat(on);
    const graphOff = lat(off);
    return {
      items,
      queries: qs.length,
      import_ms: {
        with_graph: Math.round(withMs),
        without_graph: Math.round(withoutMs),
        extra_share: Math.round((withMs / withoutMs - 1) * 1000) / 1000,
      },
      graph: { entities: stats.entities, edges: stats.edges, mentions: stats.mentions },
      recall_ms: {
        graph_on: graphOn,
        graph_off: graphOff,
        graph_channel: lat(channel),
        p95_delta: r2(graphOn.p95 - graphOff.p95),
      },
      graph_hits_per_query: Math.round((hits / qs.length) * 100) / 100,
    };
  } finally {
    await engram.close();
  }
}
