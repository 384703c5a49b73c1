/** Markdown report of the PostgreSQL benchmark: the same numbers as the JSON, side by side. */
import type { PostgresReport, SizeResult } from './run.js';

const n = (x: number | null | undefined, digits = 2) =>
  x === null || x === undefined
    ? '–'
    : x.toLocaleString('en-US', { maximumFractionDigits: digits });

const MODES = ['first_pass', 'hybrid', 'vector', 'keyword'] as const;
const MODE_LABELS: Record<(typeof MODES)[number], string> = {
  first_pass: 'hybrid, first pass',
  hybrid: 'hybrid',
  vector: 'vector',
  keyword: 'keyword',
};
const RUNS = [
  ['sqlite', 'SQLite (default configuration)'],
  ['postgres_default', 'PostgreSQL (default configuration)'],
  ['postgres_exact', 'PostgreSQL, exact scan'],
  ['postgres_hnsw', 'PostgreSQL, HNSW index'],
] as const;

function sizeSection(s: SizeResult, efDefault: number): string[] {
  const latency = RUNS.map(([key, label]) => {
    const r = s.recall[key];
    // Reports written before the first pass was timed apart have no `first_pass`.
    return `| ${label} | ${MODES.map((m) => (r[m] ? `${n(r[m].p50_ms)} / ${n(r[m].p95_ms)}` : '–')).join(' | ')} |`;
  });
  const hnsw = s.hnsw.rows.map(
    (r) =>
      `| ${r.ef_search}${r.ef_search === efDefault ? ' (default)' : ''} | ${n(r.recall_at_10, 4)} | ${n(r.p50_ms)} / ${n(r.p95_ms)} |`,
  );
  return [
    `## ${n(s.size, 0)} items`,
    '',
    '| import | SQLite | PostgreSQL | PostgreSQL / SQLite |',
    '|---|---|---|---|',
    `| remember (API, embedding included), items/s | ${n(s.remember.sqlite.items_per_s, 0)} | ${n(s.remember.postgres.items_per_s, 0)} | ${n(s.ratios.remember_rate_pg_over_sqlite)} |`,
    `| move (JSONL import with vectors), items/s | ${n(s.transfer.sqlite.items_per_s, 0)} | ${n(s.transfer.postgres.items_per_s, 0)} | ${n(s.ratios.transfer_rate_pg_over_sqlite)} |`,
    `| HNSW index build (CONCURRENTLY, after the import), s | | ${n(s.index_build_s, 1)} | |`,
    `| store size, MB | ${n(s.store_bytes.sqlite / 1e6, 1)} | ${n((s.store_bytes.postgres ?? 0) / 1e6, 1)} | |`,
    '',
    'Recall latency per call, p50 / p95 ms (k = 10). The first hybrid pass meets every query for the first time (cold caches, and each keyword term counted once); the second is the steady state, and the channel runs follow it:',
    '',
    `| run | ${MODES.map((m) => MODE_LABELS[m]).join(' | ')} |`,
    `|---|${MODES.map(() => '---').join('|')}|`,
    ...latency,
    '',
    `HNSW channel against the exact scan (store-level vector search, k = 10, candidates re-scored exactly; a hit counts when its exact score reaches the exact 10th-best score, so ties are not misses; exact scan p50 / p95 ${n(s.hnsw.exact.p50_ms)} / ${n(s.hnsw.exact.p95_ms)} ms):`,
    '',
    '| ef_search | recall@10 | p50 / p95 ms |',
    '|---|---|---|',
    ...hnsw,
    '',
  ];
}

/** The report as Markdown. */
export function renderMarkdown(r: PostgresReport): string {
  const m = r.machine;
  return [
    `# PostgreSQL beside SQLite, ${r.date.slice(0, 10)}`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.ram_gb} GB RAM, Node ${m.node}; ${r.server} on the same machine (loopback). Load average at start ${m.load_avg_start.join(' / ')}, at end ${m.load_avg_end.join(' / ')} (the machine is shared, so absolute numbers are noisy; ratios come from one run).`,
    `Commit ${r.commit}. ${r.options.queries} queries per mode, seed ${r.options.seed}, the synthetic corpus of the scale benchmark (bench/scale/corpus.ts). Latencies are per \`recall\` call through \`createEngram\` (query embedding, fusion, hydration and access accounting included).`,
    `Index settings (\`store.ann\`): m ${r.ann.m}; SQLite ef_construction ${r.ann.ef_construction}, ef_search ${r.ann.ef_search}; PostgreSQL ef_construction ${r.ann.postgres_ef_construction}, ef_search ${r.ann.postgres_ef_search}; exact scan below ${n(r.ann.min_items, 0)} vectors per space.`,
    '',
    ...r.sizes.flatMap((s) => sizeSection(s, r.ann.postgres_ef_search)),
  ].join('\n');
}
