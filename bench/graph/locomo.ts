/**
 * The graph channel's contribution on LoCoMo: per conversation, one store with the graph (three
 * channels) and one without it (two channels, the graph's weight is 0 and its upkeep off), the
 * same turns imported into both, then every question asked of both. Measures import time, the
 * graph channel's hits in the top 5, hits only the three-channel run returns, recall@10 and
 * latency.
 */
import { join } from 'node:path';

import type { Engram } from '../../src/app.js';
import type { ConfigInput } from '../../src/config/schema.js';
import type { RecallResponse } from '../../src/domain/types.js';
import { CATEGORY_NAMES, type LocomoConversation } from '../lib/locomo-data.js';
import { mean, percentile, recallAtK } from '../lib/metrics.js';
import {
  type ImportComponents,
  type ImportTimes,
  load,
  MODES,
  openEngram as open,
  timeComponents,
  timeImports,
} from './import-time.js';

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
  /** Medians of the timed imports of all turns, until the graph is complete (import-time.ts). */
  import_ms: ImportTimes;
  /** Extraction alone and graph writes alone, one pass over all turns on this thread. */
  components: ImportComponents;
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

function round(n: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Runs the LoCoMo phase over the given conversations. */
export async function runLocomo(
  convs: readonly LocomoConversation[],
  options: LocomoOptions,
): Promise<LocomoResult> {
  const timing = { dir: options.dir, cacheDir: options.cacheDir, repeats: options.importRepeats };
  const imports = await timeImports(convs, timing);
  const components = await timeComponents(convs, timing);
  const runs: QuestionRun[] = [];
  for (const conv of convs) {
    const base = join(options.dir, `locomo-${conv.index}`);
    const three = open(`${base}-graph.db`, options.cacheDir, { ...options.graphConfig });
    const two = open(`${base}-plain.db`, options.cacheDir, MODES.without_graph);
    try {
      const ids3 = (await load(three, conv)).ids;
      const ids2 = (await load(two, conv)).ids;
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
  const turns = convs.reduce((n, c) => n + c.turns.length, 0);
  return summarise(runs, { imports, components }, turns, convs.length, graphWeight);
}

function summarise(
  runs: readonly QuestionRun[],
  { imports, components }: { imports: ImportTimes; components: ImportComponents },
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
    import_ms: imports,
    components,
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
