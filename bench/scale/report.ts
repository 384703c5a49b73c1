/** Markdown rendering of a scale benchmark run (bench/results/scale-<date>.md). */
import type { ModeResult } from './phase.js';
import type { ScaleReport, SizeResult } from './run.js';
import { ratio } from './stats.js';

const fmt = (n: number | null | undefined, digits = 2) =>
  n === null || n === undefined
    ? '–'
    : n.toLocaleString('en-US', { maximumFractionDigits: digits });
const mib = (bytes: number) => `${fmt(bytes / 2 ** 20, 1)} MiB`;

function row(cells: (string | number)[]): string {
  return `| ${cells.join(' | ')} |`;
}

function latencyTable(s: SizeResult): string[] {
  const lines = [
    row([
      'mode',
      'exact p50',
      'exact p95',
      'exact p99',
      'HNSW p50',
      'HNSW p95',
      'HNSW p99',
      'HNSW/exact p95',
    ]),
    row(Array(8).fill('---')),
  ];
  for (const e of s.exact.modes) {
    const a = s.ann.modes.find((m) => m.mode === e.mode) as ModeResult | undefined;
    lines.push(
      row([
        e.mode,
        fmt(e.p50_ms),
        fmt(e.p95_ms),
        fmt(e.p99_ms),
        fmt(a?.p50_ms),
        fmt(a?.p95_ms),
        fmt(a?.p99_ms),
        fmt(a ? ratio(a.p95_ms, e.p95_ms) : null),
      ]),
    );
  }
  return lines;
}

function breakdown(s: SizeResult): string[] {
  const lines = ['Median stage timings of the envelope (`timings_ms`), hybrid:', ''];
  for (const [label, r] of [
    ['exact', s.exact],
    ['HNSW', s.ann],
  ] as const) {
    const hybrid = r.modes.find((m) => m.mode === 'hybrid');
    if (!hybrid) continue;
    const parts = Object.entries(hybrid.timings_median_ms).map(([k, v]) => `${k} ${fmt(v)}`);
    lines.push(`- ${label}: ${parts.join(', ')} ms`);
  }
  for (const [label, r] of [
    ['exact', s.exact],
    ['HNSW', s.ann],
  ] as const) {
    const rounds = r.modes.map(
      (m) => `${m.mode} ${m.p95_by_round_ms.map((v) => fmt(v)).join(' / ')}`,
    );
    lines.push(
      `- ${label}, p95 of each round (ms): ${rounds.join('; ')}; load average at the end of each round: ${r.load_avg_1m.join(' / ')}`,
    );
  }
  const degraded = [s.exact, s.ann].flatMap((r) =>
    r.modes.flatMap((m) => Object.entries(m.degraded).map(([k, v]) => `${m.mode}: ${k} × ${v}`)),
  );
  if (degraded.length) lines.push(`- degraded responses: ${degraded.join('; ')}`);
  return lines;
}

function sizeSection(s: SizeResult): string[] {
  const i = s.import;
  return [
    `## ${fmt(s.size, 0)} memories`,
    '',
    `Measured ${s.measured_at.slice(0, 16).replace('T', ' ')} UTC on commit ${s.commit}.`,
    `Import (\`rememberMany\`, batches of 1,000, static embedder, entity extraction on): ${fmt(i.created, 0)} created (${fmt(i.duplicates, 0)} exact duplicates, ${fmt(i.errors, 0)} errors) in ${fmt(i.seconds)} s = **${fmt(i.items_per_s, 0)} items/s** overall; ${fmt(i.steady_items_per_s, 0)} items/s after the first batch (${fmt(i.first_batch_ms, 0)} ms, which loads the language model); ${fmt(i.vectors_pending, 0)} left vector-pending; RSS ${i.rss_mb} MB.`,
    `On disk: store ${mib(s.disk.store_bytes)} + WAL ${mib(s.disk.wal_bytes)}; HNSW index file ${mib(s.disk.index_bytes)}.`,
    `HNSW build in the background of the first process that recalls: served from the index after ${fmt(s.build.serving_s, 1)} s (recall no longer degraded), fully built after ${fmt(s.build.build_s, 1)} s (${fmt(s.import.created / Math.max(0.001, s.build.build_s), 0)} vectors/s, mirror load included); closing (waits for the save) ${fmt(s.build.close_ms, 0)} ms.`,
    `Default configuration at this size: **${s.default_vectors === 'ann' ? 'HNSW' : 'exact scan'}** (store.ann.min_items).`,
    '',
    ...latencyTable(s),
    '',
    row(['', 'exact', 'HNSW', 'HNSW/exact']),
    row(['---', '---', '---', '---']),
    row([
      'process open (ms)',
      s.exact.open_ms,
      s.ann.open_ms,
      fmt(ratio(s.ann.open_ms, s.exact.open_ms)),
    ]),
    row([
      'first recall, loads mirror/index (ms)',
      s.exact.first_recall_ms,
      s.ann.first_recall_ms,
      fmt(ratio(s.ann.first_recall_ms, s.exact.first_recall_ms)),
    ]),
    row([
      'RSS after load (MB)',
      s.exact.rss_after_load_mb,
      s.ann.rss_after_load_mb,
      fmt(ratio(s.ann.rss_after_load_mb, s.exact.rss_after_load_mb)),
    ]),
    row([
      'in-memory keyword index answering after first recall (s)',
      s.exact.keyword_index_s ?? 'off',
      s.ann.keyword_index_s ?? 'off',
      '',
    ]),
    row([
      'RSS with the keyword index built (MB)',
      s.exact.rss_after_keyword_index_mb ?? '',
      s.ann.rss_after_keyword_index_mb ?? '',
      fmt(ratio(s.ann.rss_after_keyword_index_mb, s.exact.rss_after_keyword_index_mb)),
    ]),
    row([
      'RSS after queries (MB)',
      s.exact.rss_after_queries_mb,
      s.ann.rss_after_queries_mb,
      fmt(ratio(s.ann.rss_after_queries_mb, s.exact.rss_after_queries_mb)),
    ]),
    row(['ANN recall@10 vs exact (vector channel)', '1', fmt(s.ann_recall_at_10, 3), '']),
    '',
    ...breakdown(s),
    '',
    row(['target', 'limit', 'measured', 'met']),
    row(['---', '---', '---', '---']),
    ...s.targets.map((t) => row([t.name, t.limit, fmt(t.value, 3), t.met ? 'yes' : '**no**'])),
    '',
  ];
}

function sweepSection(r: ScaleReport): string[] {
  if (!r.ann_sweep) return [];
  const lines = [
    `## HNSW parameter sweep (${fmt(r.ann_sweep.items, 0)} memories, 300 queries, hnswlib-node)`,
    '',
    'Recall@10 of the exactly re-scored top 10 against the exact scan (ties at the 10th score count as hits).',
    '',
    row([
      'm',
      'ef_construction',
      'build items/s',
      'index MiB',
      'candidates',
      'ef_search',
      'recall@10',
      'p50 ms',
      'p95 ms',
    ]),
    row(Array(9).fill('---')),
  ];
  for (const x of r.ann_sweep.rows)
    lines.push(
      row([
        x.m,
        x.ef_construction,
        fmt(x.build_items_per_s, 0),
        fmt(x.index_bytes / 2 ** 20, 1),
        x.candidates,
        x.ef_search,
        fmt(x.recall_at_10, 3),
        fmt(x.p50_ms),
        fmt(x.p95_ms),
      ]),
    );
  return [...lines, ''];
}

/** The run as a markdown page. */
export function renderMarkdown(r: ScaleReport): string {
  const m = r.machine;
  return [
    `# Scale benchmark, ${r.date.slice(0, 10)}`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.ram_gb} GB RAM, Node ${m.node}, ${m.platform}. Load average at start ${m.load_avg_start.join(' / ')}, at end ${m.load_avg_end.join(' / ')} (the machine is shared).`,
    `Commit ${r.commit}. ${r.options.queries} queries per mode, seed ${r.options.seed}; latencies are per \`recall\` call through \`createEngram\` (k = 10, query embedding, fusion, hydration and access accounting included), each phase in a fresh process; exact and HNSW phases alternate ${r.options.rounds} times and each number is the median over the rounds. Memories are written over two years (2024-2025, oldest first); \`hybrid_dated\` asks the same questions naming a day, a month or a year of that span in turn (\`on March 3, 2025\`, \`in March 2025\`, \`in 2025\`), so the time channel searches too; \`hybrid_steady\` asks ${r.options.queries} questions of another seed, none asked before, once every mode above has run in the process (its steady state: the first rows include the process's first few hundred recalls).`,
    `HNSW settings: m ${r.ann_defaults.m}, ef_construction ${r.ann_defaults.ef_construction}, ef_search ${r.ann_defaults.ef_search}, default min_items ${fmt(r.ann_defaults.min_items, 0)} (the HNSW runs below force it on at every size).`,
    '',
    ...r.notes.map((n) => `- ${n}`),
    ...(r.notes.length ? [''] : []),
    ...r.sizes.flatMap(sizeSection),
    ...sweepSection(r),
  ].join('\n');
}
