/**
 * Channel contribution eval of the knowledge graph (`npm run bench:graph`, §4, issue 6): on the
 * LoCoMo conversations, the three-channel run (keyword + vector + graph) against the two-channel
 * run (graph weighted 0): graph-channel hits in the top 5, hits unique to the three-channel run,
 * recall@10 with and without the graph, the latency delta, and extraction's share of import time;
 * then the graph channel's p95 cost at 100k synthetic items. Results go to
 * bench/results/graph-<date>.md and .json with the machine's facts.
 *
 * Options: --conversations 1,2 (default all), --scale N (default 100000, 0 skips),
 * --queries N (scale queries, default 300), --import-repeats N (timed LoCoMo imports per mode,
 * default 5; medians reported), --seed (42), --cache-dir (embedder cache),
 * --dir (stores; default a temp dir, removed), --out (bench/results).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { loadLocomo, selectConversations } from '../lib/locomo-data.js';
import { type LocomoResult, runLocomo } from './locomo.js';
import { runScale, type ScaleResult } from './scale.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

const { values: args } = parseArgs({
  options: {
    conversations: { type: 'string' },
    scale: { type: 'string', default: '100000' },
    queries: { type: 'string', default: '300' },
    'import-repeats': { type: 'string', default: '5' },
    seed: { type: 'string', default: '42' },
    'cache-dir': { type: 'string', default: join(ROOT, 'node_modules', '.cache', 'engram-test') },
    dir: { type: 'string' },
    out: { type: 'string', default: join(ROOT, 'bench', 'results') },
  },
});

function machine() {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model ?? 'unknown',
    cores: cpu.length,
    memory_gb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

interface Report {
  date: string;
  machine: ReturnType<typeof machine>;
  locomo: LocomoResult;
  scale: ScaleResult | null;
  targets: { name: string; limit: string; value: number | null; met: boolean | null }[];
}

function targets(locomo: LocomoResult, scale: ScaleResult | null): Report['targets'] {
  return [
    {
      name: 'extraction adds to import time (LoCoMo, static embedder, default worker upkeep, until the graph is complete)',
      limit: '≤ 30%',
      value: locomo.import_ms.extra_share,
      met: locomo.import_ms.extra_share <= 0.3,
    },
    {
      name: 'graph channel adds to recall p95 at 100k items',
      limit: '≤ 5 ms',
      value: scale?.recall_ms.p95_delta ?? null,
      met: scale ? scale.recall_ms.p95_delta <= 5 : null,
    },
    {
      name: 'three channels do not lower recall@10 on LoCoMo',
      limit: 'delta ≥ 0',
      value: locomo.recall_at_10.delta,
      met: locomo.recall_at_10.delta >= 0,
    },
  ];
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)}%`;
}

/** The import-time table: wall-clock until the graph is complete, until writes return, CPU. */
function importLines(l: LocomoResult): string[] {
  const t = l.import_ms;
  const n = t.runs.complete.without_graph.length;
  return [
    `Import of all turns (${BATCH_NOTE}), medians of ${n} runs, each mode in every run, modes in rotating order; graph off: ${t.without_graph} ms wall-clock, ${t.cpu.without_graph} ms CPU.`,
    '',
    '| graph upkeep | wall-clock until the graph is complete (ms) | added | wall-clock until the writes return (ms) | added | CPU, all threads (ms) | added |',
    '|---|---|---|---|---|---|---|',
    `| worker thread (default) | ${t.graph_worker} | ${pct(t.extra_share)} | ${t.graph_worker_returned} | ${pct(t.returned_extra_share)} | ${t.cpu.graph_worker} | ${pct(t.cpu.extra_share)} |`,
    `| inline | ${t.graph_inline} | ${pct(t.inline_extra_share)} | ${t.graph_inline} | ${pct(t.inline_extra_share)} | ${t.cpu.graph_inline} | ${pct(t.cpu.inline_extra_share)} |`,
    '',
    `Runs (wall-clock until complete, ms): graph off ${t.runs.complete.without_graph.join(', ')}; worker ${t.runs.complete.graph_worker.join(', ')}; inline ${t.runs.complete.graph_inline.join(', ')}.`,
  ];
}

const BATCH_NOTE = '`rememberMany` batches of 500, a fresh store per conversation and mode';

function markdown(r: Report): string {
  const l = r.locomo;
  const m = r.machine;
  const lines = [
    `# Knowledge graph: channel contribution — ${r.date}`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memory_gb} GB, ${m.platform}, Node ${m.node}. Shared machine: other work may run at the same time.`,
    '',
    '## Targets',
    '',
    '| target | limit | value | met |',
    '|---|---|---|---|',
    ...r.targets.map(
      (t) =>
        `| ${t.name} | ${t.limit} | ${t.value ?? 'n/a'} | ${t.met === null ? 'n/a' : t.met ? 'yes' : 'no'} |`,
    ),
    '',
    `## LoCoMo (${l.conversations} conversations, ${l.turns} turns, ${l.questions} questions)`,
    '',
    'One store per conversation and mode, one item per turn (`<speaker> said, "<text>"` plus the image caption), the raw question as query, k = 10, static GloVe embedder, frequency boost off in both runs so earlier questions cannot reorder later ones.',
    '',
    `Fusion weights are the configured defaults (graph ${l.graph_weight}); the last column repeats the three-channel run with the graph at weight 1.0.`,
    '',
    '| measure | three channels (graph on) | two channels (graph weight 0) | delta | three channels, graph weight 1.0 |',
    '|---|---|---|---|---|',
    `| recall@10 | ${l.recall_at_10.three_channels} | ${l.recall_at_10.two_channels} | ${l.recall_at_10.delta} | ${l.recall_at_10.weight_1} |`,
    `| recall@5 | ${l.recall_at_5.three_channels} | ${l.recall_at_5.two_channels} | ${l.recall_at_5.delta} | ${l.recall_at_5.weight_1} |`,
    `| graph-channel hits in the top 5 (mean per question) | ${l.graph_hits_top5.graph_on} | ${l.graph_hits_top5.weight_0} | |`,
    `| recall p50 (ms) | ${l.latency_ms.three.p50} | ${l.latency_ms.two.p50} | ${Math.round((l.latency_ms.three.p50 - l.latency_ms.two.p50) * 100) / 100} |`,
    `| recall p95 (ms) | ${l.latency_ms.three.p95} | ${l.latency_ms.two.p95} | ${l.latency_ms.p95_delta} |`,
    '',
    ...importLines(l),
    '',
    `Hits in the three-channel top 5 absent from the two-channel top 5: ${l.unique_top5.per_question} per question (${l.unique_top5.questions_with_unique} of ${l.questions} questions have one), of which evidence turns: ${l.unique_top5.relevant_per_question} per question.`,
    `Graph channel alone: p50 ${l.latency_ms.graph_channel.p50} ms, p95 ${l.latency_ms.graph_channel.p95} ms. The graph's two costs apart (all turns, one pass on the writing thread, median of ${l.import_ms.runs.complete.without_graph.length}): extraction ${l.components.extraction_ms} ms, graph writes ${l.components.writes_ms} ms; ${l.components.entities_per_turn} entities per turn.`,
    '',
    '| category | questions | recall@10 three | recall@10 two | recall@10 three, graph 1.0 |',
    '|---|---|---|---|---|',
    ...Object.entries(l.by_category).map(
      ([c, v]) => `| ${c} | ${v.n} | ${v.three} | ${v.two} | ${v.weight_1} |`,
    ),
  ];
  if (r.scale) {
    const s = r.scale;
    lines.push(
      '',
      `## Scale (${s.items} synthetic items, ${s.queries} queries, embedder off)`,
      '',
      `Graph: ${s.graph.entities} entities, ${s.graph.mentions} mentions, ${s.graph.edges} edges. Graph hits per query (top 10): ${s.graph_hits_per_query}.`,
      '',
      '| measure | graph on | graph weight 0 | delta |',
      '|---|---|---|---|',
      `| recall p50 (ms) | ${s.recall_ms.graph_on.p50} | ${s.recall_ms.graph_off.p50} | ${Math.round((s.recall_ms.graph_on.p50 - s.recall_ms.graph_off.p50) * 100) / 100} |`,
      `| recall p95 (ms) | ${s.recall_ms.graph_on.p95} | ${s.recall_ms.graph_off.p95} | ${s.recall_ms.p95_delta} |`,
      `| import (ms) | ${s.import_ms.with_graph} | ${s.import_ms.without_graph} | ${pct(s.import_ms.extra_share)} |`,
      '',
      `Graph channel alone: p50 ${s.recall_ms.graph_channel.p50} ms, p95 ${s.recall_ms.graph_channel.p95} ms.`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const data = loadLocomo();
  const picked = args.conversations
    ? selectConversations(data, args.conversations.split(',').map(Number))
    : data.conversations;
  const dir = args.dir ?? mkdtempSync(join(tmpdir(), 'engram-graph-bench-'));
  mkdirSync(dir, { recursive: true });
  try {
    const locomo = await runLocomo(picked, {
      dir,
      cacheDir: args['cache-dir'],
      importRepeats: Number(args['import-repeats']),
    });
    const size = Number(args.scale);
    const scale =
      size > 0 ? await runScale(dir, size, Number(args.queries), Number(args.seed)) : null;
    const date = new Date().toISOString().slice(0, 10);
    const report: Report = {
      date,
      machine: machine(),
      locomo,
      scale,
      targets: targets(locomo, scale),
    };
    mkdirSync(args.out, { recursive: true });
    writeFileSync(join(args.out, `graph-${date}.json`), `${JSON.stringify(report, null, 2)}\n`);
    writeFileSync(join(args.out, `graph-${date}.md`), markdown(report));
    process.stdout.write(markdown(report));
  } finally {
    if (!args.dir) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
