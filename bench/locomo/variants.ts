/**
 * The configurations the LoCoMo benchmark measures: each channel alone, the hybrids, each
 * reranking option, engram's out-of-the-box default, and ablations of the default's levers.
 * Request-level variants run on the default configuration; ablations change the configuration.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

import type { ConfigInput } from '../../src/config/schema.js';
import type { RecallRequest } from '../../src/domain/input.js';

/** One measured configuration. */
export interface Variant {
  id: string;
  label: string;
  /** Recall request fields added to every question (weights, rerank). */
  request: Partial<RecallRequest>;
  /** Configuration changes against engram's defaults (ablations only). */
  config?: ConfigInput;
  /** Part of the main comparison, or an ablation of the default. */
  kind: 'main' | 'ablation';
}

/** Whether the graph channel exists in this tree (the benchmark measures hybrid + graph then). */
export function graphChannelExists(): boolean {
  return existsSync(
    join(import.meta.dirname, '..', '..', 'src', 'retrieval', 'channels', 'graph.ts'),
  );
}

/** The variants to run, in report order. `default` is exactly what createEngram() does. */
export function benchmarkVariants(withGraph: boolean): Variant[] {
  // The first-stage variants leave the time channel out, so they stay comparable with earlier runs.
  const noGraph = withGraph ? { graph: 0, time: 0 } : { time: 0 };
  const main: Variant[] = [
    {
      id: 'keyword',
      label: 'keyword only (BM25, session context)',
      request: { weights: { vector: 0, ...noGraph }, rerank: false },
      kind: 'main',
    },
    {
      id: 'vector',
      label: 'vector only (static GloVe SIF)',
      request: { weights: { keyword: 0, ...noGraph }, rerank: false },
      kind: 'main',
    },
    {
      id: 'hybrid',
      label: 'hybrid (keyword + vector)',
      request: { weights: { ...noGraph }, rerank: false },
      kind: 'main',
    },
  ];
  if (withGraph)
    main.push({
      id: 'hybrid_graph',
      label: 'hybrid + graph',
      request: { weights: { time: 0 }, rerank: false },
      kind: 'main',
    });
  main.push({
    id: 'hybrid_time',
    label: withGraph ? 'hybrid + graph + time' : 'hybrid + time',
    request: { rerank: false },
    kind: 'main',
  });
  main.push({
    id: 'hybrid_rerank',
    label: 'hybrid + rerank (alignment)',
    request: { weights: { ...noGraph }, rerank: true },
    kind: 'main',
  });
  main.push({
    id: 'default',
    label: withGraph
      ? 'engram default: hybrid + graph + rerank (alignment)'
      : 'engram default: hybrid + rerank (alignment)',
    request: {},
    kind: 'main',
  });
  return [...main, ...ablations()];
}

function ablations(): Variant[] {
  return [
    {
      id: 'default_no_time',
      label: 'default without the time channel (recall.weights.time 0)',
      request: {},
      config: { recall: { weights: { time: 0 } } },
      kind: 'ablation',
    },
    {
      id: 'default_no_context',
      label: 'default without session context (recall.context.window 0)',
      request: {},
      config: { recall: { context: { window: 0 } } },
      kind: 'ablation',
    },
    {
      id: 'default_no_rerank_context',
      label: 'default, reranker without turn context (recall.rerank.context_window 0)',
      request: {},
      config: { recall: { rerank: { context_window: 0 } } },
      kind: 'ablation',
    },
    {
      id: 'default_no_frequency_boost',
      label: 'default without the access-frequency boost (recall.boosts.frequency 0)',
      request: {},
      config: { recall: { boosts: { frequency: 0 } } },
      kind: 'ablation',
    },
  ];
}
