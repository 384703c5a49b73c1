/**
 * The graph channel's contribution on LoCoMo: per conversation, one store with the graph (three
 * channels) and one without it (two channels, the graph's weight is 0 and its upkeep off), the
 * same turns imported into both, then every question asked of both. Measures import time, the
 * graph channel's hits in the top 5, hits only the three-channel run returns, recall@10 and
 * latency.
 */
import { join } from 'node:path';

import { createEngram, type Engram } from '../../src/app.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { silentLogger } from '../../src/core/log.js';
import type { RecallResponse } from '../../src/core/types.js';
import { extract } from '../../src/graph/extract.js';
import { WorkerExtractor } from '../../src/graph/extractor.js';
import { CATEGORY_NAMES, type LocomoConversation } from '../lib/locomo-data.js';
import { mean, percentile, recallAtK } from '../lib/metrics.js';

/** Options of the LoCoMo phase. */
export interface LocomoOptions {
  dir: string;
  cacheDir: string;
  /** Extra configuration of the three-channel store (weights, depth...). */
  graphConfig?: ConfigInput;
  /** Timed imports per mode (the medians are reported). */
  importRepeats: number;
}

/** Per-question outcome. */
interface QuestionRun {
  category: number;
  graphTop5: number;
  unique5: number;
  uniqueRelevant5: number;
  recall10: { three: number; two: number; unit: number };
  recall5: { three: number; two: number; unit: number };
  ms: { three: number; two: number; graph: number };
}

/** What the LoCoMo phase measured. */
export interface LocomoResult {
  conversations: number;
  turns: number;
  questions: number;
  /** Medians of the timed imports of all turns, until the graph is complete. */
  import_ms: {
    without_graph: number;
    graph_worker: number;
    graph_inline: number;
    runs: { without_graph: number[]; graph_worker: number[]; graph_inline: number[] };
    /** Wall-clock time the default (worker-thread) upkeep adds to an import. */
    extra_share: number;
    /** Time extraction and graph writes take on the importing thread (inline upkeep). */
    inline_extra_share: number;
  };
  extraction_ms: number;
  entities_per_turn: number;
  graph_hits_top5: { graph_on: number; weight_0: number };
  unique_top5: {
    per_question: number;
    relevant_per_question: number;
    questions_with_unique: number;
  };
  /** Three channels at the configured graph weight, and at weight 1.0. */
  graph_weight: number;
  recall_at_10: { three_channels: number; two_channels: number; delta: number; weight_1: number };
  recall_at_5: { three_channels: number; two_channels: number; delta: number; weight_1: number };
  by_category: Record<string, { n: number; three: number; two: number; weight_1: number }>;
  latency_ms: {
    three: { p50: number; p95: number };
    two: { p50: number; p95: number };
    graph_channel: { p50: number; p95: number };
    p95_delta: number;
  };
}

function open(path: string, cacheDir: string, config: ConfigInput): Engram {
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

async function load(
  engram: Engram,
  conv: LocomoConversation,
): Promise<{ ms: number; ids: Map<string, string> }> {
  await engram.prepareModels();
  const ids = new Map<string, string>();
  const started = performance.now();
  for (let i = 0; i < conv.turns.length; i += 500) {
    const batch = conv.turns.slice(i, i + 500);
    const results = await engram.rememberMany(batch.map((t) => ({ body: t.text })));
    results.forEach((r, j) => {
      if (r.ok) ids.set(r.memory.id, batch[j]!.diaId);
    });
  }
  // Graph upkeep trails the writes in its worker: the import ends when the graph is complete.
  if (engram.config.graph.enabled) await engram.graphStats();
  return { ms: performance.now() - started, ids };
}

function top(r: RecallResponse, ids: ReadonlyMap<string, string>, k: number): string[] {
  return r.hits.slice(0, k).map((h) => ids.get(h.id) ?? h.id);
}

async function ask(
  three: Engram,
  two: Engram,
  q: LocomoConversation['questions'][number],
  ids3: ReadonlyMap<string, string>,
  ids2: ReadonlyMap<string, string>,
): Promise<QuestionRun> {
  const r3 = await three.recall({ query: q.question, k: 10 });
  const r2 = await two.recall({ query: q.question, k: 10 });
  // The same three channels with the graph at weight 1.0 (the channel default of §3.2).
  const r1 = await three.recall({ query: q.question, k: 10, weights: { graph: 1 } });
  const relevant = new Set(q.evidence);
  const t3 = top(r3, ids3, 10);
  const t2 = top(r2, ids2, 10);
  const t1 = top(r1, ids3, 10);
  const two5 = new Set(t2.slice(0, 5));
  const unique = t3.slice(0, 5).filter((d) => !two5.has(d));
  return {
    category: q.category,
    graphTop5: r3.hits.slice(0, 5).filter((h) => h.channels.graph !== undefined).length,
    unique5: unique.length,
    uniqueRelevant5: unique.filter((d) => relevant.has(d)).length,
    recall10: {
      three: recallAtK(t3, relevant, 10),
      two: recallAtK(t2, relevant, 10),
      unit: recallAtK(t1, relevant, 10),
    },
    recall5: {
      three: recallAtK(t3, relevant, 5),
      two: recallAtK(t2, relevant, 5),
      unit: recallAtK(t1, relevant, 5),
    },
    ms: {
      three: r3.timings_ms.total ?? 0,
      two: r2.timings_ms.total ?? 0,
      graph: r3.timings_ms.graph ?? 0,
    },
  };
}

function median(xs: readonly number[]): number {
  return Math.round(percentile(xs, 50));
}

function round(n: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Runs the LoCoMo phase over the given conversations. */
const MODES = {
  without_graph: { graph: { enabled: false } },
  graph_worker: {},
  graph_inline: { graph: { worker: false } },
} as const satisfies Record<string, ConfigInput>;

type Mode = keyof typeof MODES;

/** Times the import of every conversation in each mode, `repeats` times, modes in rotating order. */
async function timeImports(
  convs: readonly LocomoConversation[],
  options: LocomoOptions,
): Promise<Record<Mode, number[]>> {
  const runs: Record<Mode, number[]> = { without_graph: [], graph_worker: [], graph_inline: [] };
  const modes = Object.keys(MODES) as Mode[];
  // Like the embedder's model (prepared before each timed import), the extraction thread and its
  // model start once per process: started here, outside the timings.
  const warm = new WorkerExtractor({ maxChars: 20_000, maxEntities: 24 });
  await warm.extractMany(['Warm Up started the extraction thread.']);
  await warm.close();
  for (let r = 0; r < options.importRepeats; r++) {
    const totals: Record<Mode, number> = { without_graph: 0, graph_worker: 0, graph_inline: 0 };
    for (const conv of convs) {
      const shift = (r + conv.index) % modes.length;
      for (const mode of [...modes.slice(shift), ...modes.slice(0, shift)]) {
        const path = join(options.dir, `import-${r}-${conv.index}-${mode}.db`);
        const engram = open(path, options.cacheDir, MODES[mode]);
        try {
          totals[mode] += (await load(engram, conv)).ms;
        } finally {
          await engram.close();
        }
      }
    }
    for (const mode of modes) runs[mode].push(Math.round(totals[mode]));
    process.stderr.write(`import run ${r + 1}: ${JSON.stringify(totals)}\n`);
  }
  return runs;
}

/** Runs the LoCoMo phase over the given conversations. */
export async function runLocomo(
  convs: readonly LocomoConversation[],
  options: LocomoOptions,
): Promise<LocomoResult> {
  const imports = await timeImports(convs, options);
  const runs: QuestionRun[] = [];
  let extractionMs = 0;
  let entities = 0;
  let turns = 0;
  for (const conv of convs) {
    const base = join(options.dir, `locomo-${conv.index}`);
    const three = open(`${base}-graph.db`, options.cacheDir, { ...options.graphConfig });
    const two = open(`${base}-plain.db`, options.cacheDir, MODES.without_graph);
    try {
      const ids3 = (await load(three, conv)).ids;
      const ids2 = (await load(two, conv)).ids;
      const t = performance.now();
      for (const turn of conv.turns)
        entities += extract(turn.text, { maxChars: 20_000, maxEntities: 24 }).entities.length;
      extractionMs += performance.now() - t;
      turns += conv.turns.length;
      for (const q of conv.questions) runs.push(await ask(three, two, q, ids3, ids2));
    } finally {
      await three.close();
      await two.close();
    }
    process.stderr.write(
      `locomo conversation ${conv.index}: ${conv.turns.length} turns, ${conv.questions.length} questions\n`,
    );
  }
  const weight = open(join(options.dir, 'config.db'), options.cacheDir, {
    ...options.graphConfig,
  });
  const graphWeight = weight.config.recall.weights.graph;
  await weight.close();
  return summarise(runs, imports, extractionMs, entities, turns, convs.length, graphWeight);
}

function summarise(
  runs: readonly QuestionRun[],
  imports: Record<Mode, number[]>,
  extractionMs: number,
  entities: number,
  turns: number,
  conversations: number,
  graphWeight: number,
): LocomoResult {
  const by_category: LocomoResult['by_category'] = {};
  for (const [c, name] of Object.entries(CATEGORY_NAMES)) {
    const group = runs.filter((r) => r.category === Number(c));
    by_category[name] = {
      n: group.length,
      three: round(mean(group.map((r) => r.recall10.three))),
      two: round(mean(group.map((r) => r.recall10.two))),
      weight_1: round(mean(group.map((r) => r.recall10.unit))),
    };
  }
  const r10 = {
    three: mean(runs.map((r) => r.recall10.three)),
    two: mean(runs.map((r) => r.recall10.two)),
    unit: mean(runs.map((r) => r.recall10.unit)),
  };
  const r5 = {
    three: mean(runs.map((r) => r.recall5.three)),
    two: mean(runs.map((r) => r.recall5.two)),
    unit: mean(runs.map((r) => r.recall5.unit)),
  };
  const lat = (xs: number[]) => ({
    p50: round(percentile(xs, 50), 2),
    p95: round(percentile(xs, 95), 2),
  });
  const three = lat(runs.map((r) => r.ms.three));
  const two = lat(runs.map((r) => r.ms.two));
  return {
    conversations,
    turns,
    questions: runs.length,
    graph_weight: graphWeight,
    import_ms: {
      without_graph: median(imports.without_graph),
      graph_worker: median(imports.graph_worker),
      graph_inline: median(imports.graph_inline),
      runs: imports,
      extra_share: round(median(imports.graph_worker) / median(imports.without_graph) - 1, 3),
      inline_extra_share: round(
        median(imports.graph_inline) / median(imports.without_graph) - 1,
        3,
      ),
    },
    extraction_ms: Math.round(extractionMs),
    entities_per_turn: round(entities / Math.max(1, turns), 2),
    graph_hits_top5: { graph_on: round(mean(runs.map((r) => r.graphTop5)), 3), weight_0: 0 },
    unique_top5: {
      per_question: round(mean(runs.map((r) => r.unique5)), 3),
      relevant_per_question: round(mean(runs.map((r) => r.uniqueRelevant5)), 4),
      questions_with_unique: runs.filter((r) => r.unique5 > 0).length,
    },
    recall_at_10: {
      three_channels: round(r10.three),
      two_channels: round(r10.two),
      delta: round(r10.three - r10.two),
      weight_1: round(r10.unit),
    },
    recall_at_5: {
      three_channels: round(r5.three),
      two_channels: round(r5.two),
      delta: round(r5.three - r5.two),
      weight_1: round(r5.unit),
    },
    by_category,
    latency_ms: {
      three,
      two,
      graph_channel: lat(runs.map((r) => r.ms.graph)),
      p95_delta: round(three.p95 - two.p95, 2),
    },
  };
}
