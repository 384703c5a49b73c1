/**
 * What the knowledge graph adds to an import (issue 6: at most 30%): the LoCoMo turns imported
 * into fresh stores without the graph, with worker-thread upkeep (the default) and with inline
 * upkeep, modes in rotating order within each repeat, medians over repeats. Wall-clock time counts
 * until the graph is complete (every mention written); for worker upkeep the time at which the
 * last write returned is reported beside it. CPU time (all threads of the process: the writer,
 * the extraction thread, the collector) is reported too: on a shared machine it moves less with
 * the load than wall-clock time does.
 */
import { join } from 'node:path';

import { createEngram, type Engram } from '../../src/app.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { silentLogger } from '../../src/domain/log.js';
import { extractMany, type ExtractOptions } from '../../src/graph/extract.js';
import { WorkerExtractor } from '../../src/graph/extractor.js';
import { extractorSignature } from '../../src/graph/maintainer.js';
import type { GraphDoc } from '../../src/store/graph-store.js';
import type { LocomoConversation } from '../lib/locomo-data.js';
import { percentile } from '../lib/metrics.js';

/** The import modes compared. */
export const MODES = {
  without_graph: { graph: { enabled: false } },
  graph_worker: {},
  graph_inline: { graph: { worker: false } },
} as const satisfies Record<string, ConfigInput>;

/** One import mode. */
export type Mode = keyof typeof MODES;

/** Items per `rememberMany` call. */
const BATCH = 500;
/** The default extraction bounds (graph.max_chars, graph.max_entities_per_memory). */
const BOUNDS: ExtractOptions = { maxChars: 20_000, maxEntities: 24 };

/** An engram on a fresh store with the static embedder, frequency boost off. */
export function openEngram(path: string, cacheDir: string, config: ConfigInput): Engram {
  return createEngram({
    logger: silentLogger,
    background: false,
    env: {},
    config: {
      ...config,
      store: { path },
      embedder: { cache_dir: cacheDir },
      // Access counts would let the earlier questions of one run reorder the later ones.
      recall: { ...config.recall, boosts: { frequency: 0 } },
    },
  });
}

/** One timed import of a conversation. */
export interface Load {
  /** Wall-clock ms until the graph is complete (the import's end). */
  completeMs: number;
  /** Wall-clock ms until the last `rememberMany` returned. */
  returnedMs: number;
  /** CPU ms of the whole process (every thread) until the graph is complete. */
  cpuMs: number;
  /** LoCoMo turn id by memory id. */
  ids: Map<string, string>;
}

function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Imports every turn of the conversation, in batches, and waits for the graph to be complete. */
export async function load(engram: Engram, conv: LocomoConversation): Promise<Load> {
  await engram.prepareModels();
  const ids = new Map<string, string>();
  const cpu = cpuNow();
  const started = performance.now();
  for (let i = 0; i < conv.turns.length; i += BATCH) {
    const batch = conv.turns.slice(i, i + BATCH);
    const results = await engram.rememberMany(batch.map((t) => ({ body: t.text })));
    results.forEach((r, j) => {
      if (r.ok) ids.set(r.memory.id, batch[j]!.diaId);
    });
  }
  const returnedMs = performance.now() - started;
  // Graph upkeep trails the writes in its worker: the import ends when the graph is complete,
  // that is when a graph read returns (each waits for the queued upkeep; this one reads one row).
  if (engram.config.graph.enabled) await engram.graphEntities({ top: 1 });
  return { completeMs: performance.now() - started, returnedMs, cpuMs: cpuNow() - cpu, ids };
}

/** Totals of every repeat (all conversations), per mode. */
interface ImportRuns {
  complete: Record<Mode, number[]>;
  returned: Record<Mode, number[]>;
  cpu: Record<Mode, number[]>;
}

/** The medians of the timed imports and the graph's share of them. */
export interface ImportTimes {
  /** Wall-clock medians until the graph is complete. */
  without_graph: number;
  graph_worker: number;
  graph_inline: number;
  /** Worker upkeep: wall-clock median until the last write returned (the graph still trailing). */
  graph_worker_returned: number;
  /** Extra wall-clock time of worker upkeep, until the graph is complete (the target). */
  extra_share: number;
  /** Extra wall-clock time of worker upkeep until the writes returned. */
  returned_extra_share: number;
  /** Extra wall-clock time of inline upkeep (extraction and graph writes on the writing thread). */
  inline_extra_share: number;
  /** CPU medians (every thread of the process) and their extra shares. */
  cpu: {
    without_graph: number;
    graph_worker: number;
    graph_inline: number;
    extra_share: number;
    inline_extra_share: number;
  };
  runs: ImportRuns;
}

function emptyRuns(): Record<Mode, number[]> {
  return { without_graph: [], graph_worker: [], graph_inline: [] };
}

/** Times the import of every conversation in each mode, `repeats` times, modes in rotating order. */
export async function timeImports(
  convs: readonly LocomoConversation[],
  options: { dir: string; cacheDir: string; repeats: number },
): Promise<ImportTimes> {
  const runs: ImportRuns = { complete: emptyRuns(), returned: emptyRuns(), cpu: emptyRuns() };
  const modes = Object.keys(MODES) as Mode[];
  // Like the embedder's model (prepared before each timed import), the extraction thread and the
  // language model (in that thread, and in this one for inline upkeep) load once per process:
  // loaded here, outside the timings.
  const warm = new WorkerExtractor(BOUNDS);
  await warm.extractMany(['Warm Up started the extraction thread.']);
  await warm.close();
  extractMany(['Warm Up loaded the model on this thread.'], BOUNDS);
  for (let r = 0; r < options.repeats; r++) {
    const totals = modes.map(() => ({ complete: 0, returned: 0, cpu: 0 }));
    for (const conv of convs) {
      const shift = (r + conv.index) % modes.length;
      for (const mode of [...modes.slice(shift), ...modes.slice(0, shift)]) {
        const path = join(options.dir, `import-${r}-${conv.index}-${mode}.db`);
        const engram = openEngram(path, options.cacheDir, MODES[mode]);
        try {
          const timed = await load(engram, conv);
          const total = totals[modes.indexOf(mode)]!;
          total.complete += timed.completeMs;
          total.returned += timed.returnedMs;
          total.cpu += timed.cpuMs;
        } finally {
          await engram.close();
        }
      }
    }
    modes.forEach((mode, i) => {
      runs.complete[mode].push(Math.round(totals[i]!.complete));
      runs.returned[mode].push(Math.round(totals[i]!.returned));
      runs.cpu[mode].push(Math.round(totals[i]!.cpu));
    });
    process.stderr.write(
      `import run ${r + 1}: ${JSON.stringify(Object.fromEntries(modes.map((m, i) => [m, totals[i]])))}\n`,
    );
  }
  return summarise(runs);
}

function median(xs: readonly number[]): number {
  return Math.round(percentile(xs, 50));
}

function share(value: number, base: number): number {
  return Math.round((value / base - 1) * 1000) / 1000;
}

function summarise(runs: ImportRuns): ImportTimes {
  const wall = (m: Mode) => median(runs.complete[m]);
  const cpu = (m: Mode) => median(runs.cpu[m]);
  const base = wall('without_graph');
  const returned = median(runs.returned.graph_worker);
  return {
    without_graph: base,
    graph_worker: wall('graph_worker'),
    graph_inline: wall('graph_inline'),
    graph_worker_returned: returned,
    extra_share: share(wall('graph_worker'), base),
    returned_extra_share: share(returned, base),
    inline_extra_share: share(wall('graph_inline'), base),
    cpu: {
      without_graph: cpu('without_graph'),
      graph_worker: cpu('graph_worker'),
      graph_inline: cpu('graph_inline'),
      extra_share: share(cpu('graph_worker'), cpu('without_graph')),
      inline_extra_share: share(cpu('graph_inline'), cpu('without_graph')),
    },
    runs,
  };
}

/** The graph's two costs apart, on this thread: medians of one pass over all turns. */
export interface ImportComponents {
  /** Extraction of every turn, in the import's batches. */
  extraction_ms: number;
  /** Writing those extractions into stores that hold the turns (graph upkeep off). */
  writes_ms: number;
  entities_per_turn: number;
}

/** Times extraction alone and graph writes alone, `repeats` passes over all turns. */
export async function timeComponents(
  convs: readonly LocomoConversation[],
  options: { dir: string; cacheDir: string; repeats: number },
): Promise<ImportComponents> {
  const extraction: number[] = [];
  const writes: number[] = [];
  let entities = 0;
  let turns = 0;
  for (let r = 0; r < options.repeats; r++) {
    let extractMs = 0;
    let writeMs = 0;
    for (const conv of convs) {
      const path = join(options.dir, `components-${r}-${conv.index}.db`);
      const engram = openEngram(path, options.cacheDir, MODES.without_graph);
      try {
        const { ids } = await load(engram, conv);
        const byTurn = new Map([...ids].map(([id, turn]) => [turn, id]));
        const graph = engram.storeForTransfer.graph!;
        for (let i = 0; i < conv.turns.length; i += BATCH) {
          const batch = conv.turns.slice(i, i + BATCH);
          const started = performance.now();
          const extractions = extractMany(
            batch.map((t) => t.text),
            BOUNDS,
          );
          extractMs += performance.now() - started;
          const docs: GraphDoc[] = batch.flatMap((t, j) => {
            const id = byTurn.get(t.diaId);
            return id ? [{ item_id: id, version: 1, extraction: extractions[j]! }] : [];
          });
          const written = performance.now();
          await graph.writeExtractions(engram.config.space, docs, extractorSignature(BOUNDS));
          writeMs += performance.now() - written;
          if (r === 0) {
            entities += extractions.reduce((n, e) => n + e.entities.length, 0);
            turns += batch.length;
          }
        }
      } finally {
        await engram.close();
      }
    }
    extraction.push(extractMs);
    writes.push(writeMs);
  }
  return {
    extraction_ms: median(extraction),
    writes_ms: median(writes),
    entities_per_turn: Math.round((entities / Math.max(1, turns)) * 100) / 100,
  };
}
