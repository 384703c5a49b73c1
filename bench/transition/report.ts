/** The transition benchmark's results: their shape, the medians over runs, and the markdown. */
import { type MachineFacts, machineMarkdown } from '../lib/machine.js';
import type { ModelKind, RecallRun, ScenarioOptions, ThroughputRun } from './scenarios.js';
import type { BuildFacts } from './setup.js';
import type { WindowStats } from './windows.js';

/** Everything measured on one backend. */
export interface BackendResult {
  build: BuildFacts;
  /** PostgreSQL: the build of every run's schema. */
  builds?: BuildFacts[];
  throughput: ThroughputRun[];
  recall: RecallRun[];
  server?: string;
}

/** The whole run, as written to JSON. */
export interface TransitionReport {
  date: string;
  machine: MachineFacts;
  load_average_after: number[];
  wall_s: number;
  options: ScenarioOptions & {
    n: number;
    pg_n: number;
    repeats: number;
    openai_repeats: number;
    pg_repeats: number;
    recall_repeats: number;
    quick: boolean;
  };
  sqlite: BackendResult | { skipped: string };
  postgres: BackendResult | { skipped: string };
  /** Findings written after the run (kept in the JSON, so `--render` keeps them). */
  notes?: string[];
}

/** Targets: the swap (ms), and p95 during a rebuild over p95 without. */
const SWAP_TARGET_MS = 1_000;
const P95_RATIO_TARGET = 2;

/** The median of numbers (null when there are none). */
export function median(values: readonly (number | null | undefined)[]): number | null {
  const xs = values.filter((v): v is number => typeof v === 'number').sort((a, b) => a - b);
  if (xs.length === 0) return null;
  const h = xs.length >> 1;
  return xs.length % 2 ? xs[h]! : Math.round(((xs[h - 1]! + xs[h]!) / 2) * 100) / 100;
}

const fmt = (x: number | null | undefined) =>
  x === null || x === undefined ? '-' : x.toLocaleString('en-US');
/** " (min-max)" of several values, nothing for one. */
function spread(values: readonly (number | null | undefined)[]): string {
  const v = values.filter((x): x is number => typeof x === 'number');
  return v.length > 1 ? ` (${fmt(Math.min(...v))}-${fmt(Math.max(...v))})` : '';
}
const medSpread = (values: readonly (number | null | undefined)[]) =>
  `${fmt(median(values))}${spread(values)}`;

type Run = ThroughputRun | RecallRun;
const finalSwap = (r: Run) => r.timing.swap_calls.find((c) => c.swapped)?.ms ?? null;
/** The swap `useModel` tries at once (refused: nothing of the new model is there yet). */
const useSwap = (r: Run) =>
  r.timing.swap_calls.find((c) => !c.swapped && c.started_at < r.timing.started_at)?.ms ?? null;
const indexS = (r: Run) => {
  const ms = r.timing.index_calls?.[0]?.ms;
  return ms === undefined ? null : Math.round(ms / 10) / 100;
};
const MODEL_LABEL: Record<ModelKind, string> = {
  static: 'static variant (100 dims)',
  openai: 'OpenAI-compatible stand-in (384 dims)',
};

/** The stand-in's requests by size, most frequent first. */
function requestSizes(r: Run): string {
  const s = r.stand_in?.request_sizes;
  if (!s) return '-';
  return Object.entries(s)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([texts, n]) => `${n}×${texts}`)
    .join(', ');
}

function throughputRow(backend: string, kind: ModelKind, rs: readonly ThroughputRun[]): string {
  const t = rs.map((r) => r.timing);
  const perCpu = t.map((x) => (x.cpu_s > 0 ? Math.round(x.embedded / x.cpu_s) : null));
  const ok = rs.every(
    (r) => r.timing.job_state === 'succeeded' && r.published_after === r.timing.model,
  );
  const cells = [
    backend,
    MODEL_LABEL[kind],
    String(rs.length),
    `**${medSpread(t.map((x) => x.items_per_s))}**`,
    medSpread(t.map((x) => x.fill_s)),
    medSpread(rs.map(indexS)),
    medSpread(rs.map(finalSwap)),
    medSpread(t.map((x) => x.items_per_s_with_swap)),
    fmt(median(perCpu)),
    medSpread(t.map((x) => x.use_ms)),
    `${fmt(median(t.map((x) => x.passes)))} / ${fmt(median(t.map((x) => x.embedded)))} / ${fmt(median(t.map((x) => x.failed)))}`,
    ok ? 'yes' : '**no**',
    requestSizes(rs[0]!),
  ];
  return `| ${cells.join(' | ')} |`;
}

function throughputRows(backend: string, runs: readonly ThroughputRun[]): string[] {
  return (['static', 'openai'] as const).flatMap((kind) => {
    const rs = runs.filter((r) => r.kind === kind);
    return rs.length ? [throughputRow(backend, kind, rs)] : [];
  });
}

function swapRows(backend: string, n: number, r: BackendResult): string[] {
  return (['static', 'openai'] as const).flatMap((kind) => {
    const rs = r.throughput.filter((x) => x.kind === kind);
    if (rs.length === 0) return [];
    const inRebuild = rs.map(finalSwap);
    const direct = rs.flatMap((x) => x.direct_swaps.map((s) => s.ms));
    const refused = rs.flatMap((x) => x.direct_swaps.filter((s) => !s.swapped)).length;
    const measured = [...inRebuild, ...direct].filter((x): x is number => x !== null);
    const worst = measured.length ? Math.max(...measured) : null;
    const met = worst === null ? '-' : worst <= SWAP_TARGET_MS ? 'met' : '**missed**';
    const cells = [
      backend,
      fmt(n),
      MODEL_LABEL[kind],
      medSpread(inRebuild),
      String(direct.length),
      fmt(median(direct)),
      fmt(direct.length ? Math.max(...direct) : null),
      String(refused),
      medSpread(rs.map(useSwap)),
      `≤ ${fmt(SWAP_TARGET_MS)}: ${met} (worst ${fmt(worst)})`,
    ];
    return [`| ${cells.join(' | ')} |`];
  });
}

const q = (w: WindowStats) => `${fmt(w.p50_ms)} / ${fmt(w.p95_ms)} (${w.recalls})`;
const outcome = (w: WindowStats) =>
  `${w.failed} / ${w.degraded}${w.degraded ? ` (${Object.keys(w.degraded_reasons).join(', ')})` : ''}`;

function recallRow(backend: string, r: RecallRun): string {
  const w = r.windows;
  const met = w.p95_ratio === null ? '' : w.p95_ratio <= P95_RATIO_TARGET ? ' met' : ' **missed**';
  const cells = [
    backend,
    r.mode,
    r.kind,
    q(w.baseline),
    q(w.during),
    `**${fmt(w.p95_ratio)}**${met}`,
    fmt(w.p50_ratio),
    `${fmt(w.during.max_ms)} (${fmt(w.during.late_max_ms)})`,
    `${fmt(w.baseline.per_s)} / ${fmt(w.during.per_s)}`,
    q(w.startup),
    q(w.index),
    `${fmt(w.swap.max_ms)} (${w.swap.recalls})`,
    q(w.after),
    fmt(w.after.max_ms),
    outcome(w.baseline),
    outcome(w.during),
    `${outcome(w.after)}`,
    fmt(r.timing.items_per_s),
    fmt(finalSwap(r)),
  ];
  return `| ${cells.join(' | ')} |`;
}

const allWindows = (r: RecallRun) => [
  r.windows.baseline,
  r.windows.startup,
  r.windows.during,
  r.windows.swap,
  r.windows.after,
];

function recallSummary(runs: readonly RecallRun[]): string {
  const groups = new Map<string, RecallRun[]>();
  for (const r of runs) {
    const key = `${r.mode}, ${r.kind} rebuild`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.entries()]
    .map(([key, rs]) => {
      const ratios = rs.map((r) => r.windows.p95_ratio);
      const ratio = median(ratios);
      const failed = rs.flatMap(allWindows).reduce((n, w) => n + w.failed, 0);
      const degradedDuring = rs.reduce(
        (n, r) => n + r.windows.during.degraded + r.windows.swap.degraded,
        0,
      );
      const degradedAfter = rs.reduce((n, r) => n + r.windows.after.degraded, 0);
      const met = ratio === null ? '-' : ratio <= P95_RATIO_TARGET ? 'met' : '**missed**';
      const longest = Math.max(
        ...rs.flatMap((r) => [
          r.windows.during.max_ms ?? 0,
          r.windows.swap.max_ms ?? 0,
          r.windows.after.max_ms ?? 0,
        ]),
      );
      const baseMax = Math.max(...rs.map((r) => r.windows.baseline.max_ms ?? 0));
      return `- ${key}: ${rs.length} run(s); p95 during / p95 without, median **${fmt(ratio)}**${spread(ratios)} (target ≤ ${P95_RATIO_TARGET}: ${met}); longest recall from the rebuild's start to the end of the run **${fmt(longest)} ms** (without: ${fmt(baseMax)} ms); failed recalls ${failed}; recalls with a degraded entry during the rebuild or across the swap ${degradedDuring}, after the swap ${degradedAfter}.`;
    })
    .join('\n');
}

const RECALL_HEAD = `| backend | mode | new model | without: p50 / p95 ms (recalls) | during | p95 ratio | p50 ratio | during: max ms (of which sent late) | recalls/s without / during | rebuild start | of which index build | across the swap: max ms (recalls) | after the swap | after the swap: max ms | failed / degraded without | during | after | rebuild items/s under recall | swap ms |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|`;
const THROUGHPUT_HEAD = `| backend | new model | runs | fill items/s, median (min-max) | fill s | index build s | swap ms | items/s, whole job | items per CPU s | useModel ms | passes / embedded / failed | published after | stand-in requests (count×texts) |
|---|---|---|---|---|---|---|---|---|---|---|---|---|`;
const SWAP_HEAD = `| backend | items | new model | final swap of the rebuild, ms median (min-max) | direct swaps | direct median ms | direct max ms | refused | useModel's swap attempt, ms | target |
|---|---|---|---|---|---|---|---|---|---|`;

/** PostgreSQL statements seen running over a second during the throughput runs. */
function slowStatements(runs: readonly ThroughputRun[]): string {
  const lines = runs.flatMap((r, i) =>
    (r.slow_statements ?? []).map(
      (x) =>
        `- run ${i + 1} (${r.kind}), ${x.backend} pid ${x.pid}: ${fmt(x.ms)} ms${x.waits.length ? `, waiting on ${x.waits.join(', ')}` : ''}: \`${x.query.replace(/\s+/g, ' ').slice(0, 160)}\``,
    ),
  );
  return lines.length
    ? `\nStatements seen running over a second in the store's database during these runs (pg_stat_activity, polled every 250 ms):\n\n${lines.join('\n')}\n`
    : '';
}

function buildLine(r: BackendResult): string {
  const builds = r.builds ?? [r.build];
  const b = r.build;
  const many =
    builds.length > 1 ? ` (a new schema per run; medians of ${builds.length} builds)` : '';
  return `Base store${many}: ${fmt(b.items)} memories remembered (\`rememberMany\`, batches of 1,000, static model, graph on) in ${medSpread(builds.map((x) => x.remember_s))} s (${fmt(median(builds.map((x) => x.remember_items_per_s)))} items/s); HNSW index of ${b.published_model} built in ${medSpread(builds.map((x) => x.index_s))} s.`;
}

function backendSection(name: string, r: BackendResult | { skipped: string }, n: number): string {
  if ('skipped' in r) return `## ${name}\n\nNot measured: ${r.skipped}.\n`;
  const key = name.toLowerCase();
  return `## ${name}${r.server ? ` (${r.server})` : ''}, ${fmt(n)} memories

${buildLine(r)}

${recallSummary(r.recall)}

### Recall beside the rebuild (p50 / p95 ms, recalls in the window)

${RECALL_HEAD}
${r.recall.map((x) => recallRow(key, x)).join('\n')}

### Rebuild throughput (nothing else running in the store)

${THROUGHPUT_HEAD}
${throughputRows(key, r.throughput).join('\n')}
${slowStatements(r.throughput)}
### Swap

${SWAP_HEAD}
${swapRows(key, n, r).join('\n')}
`;
}

const METHOD = `How it is measured:
- Every run starts from a store in the base state: a copy of the SQLite folder (the file and its
  saved HNSW index), or a new PostgreSQL schema built for that run and dropped after it.
- Throughput: a fresh process opens the store (job worker off), calls \`useModel\`, then
  \`runJobHere\` for the \`models.rebuild\` job until it ends. Fill = from \`runJobHere\` until
  every vector of the new model is made; the engine then builds the new model's approximate index
  (\`models.prepareIndex\`) and swaps; items/s of the whole job include both. The store's
  \`models.swap\` and \`models.prepareIndex\` are wrapped on the instance the service uses, so
  each call is timed where the rebuild makes it.
- Swap: the rebuild's final (publishing) call, timed as above; then direct calls of
  \`store.models.swap(model, Date.now())\` alternating between the previous and the new model
  (both complete) in the same process, each timed alone. \`useModel\` also makes one swap call at
  once (refused: it publishes at once only a model whose vectors are already complete).
- Recall beside the rebuild, cross-process: a serving process (job worker off, as a server beside a
  separate worker) recalls the scale benchmark's queries one at a time (k = 10, default hybrid
  recall), a pause between recalls; after the baseline a second process runs the transition as
  above. In-process: the same process recalls and runs the transition (as \`engram serve\` does
  when its own job worker picks the rebuild up). Each recall counts in the window it was sent in:
  without = before the rebuild process was spawned (or \`useModel\` called); rebuild start = from
  then until \`runJobHere\` (process start, embedder load); during = from \`runJobHere\` until the
  final swap call (index build included; "of which index build" is that part alone); across the
  swap = recalls overlapping that call; after = the window after it. Latency counts from when a
  recall was due (the previous one's end plus the pause), so a recall the process could not even
  send while its event loop was held up counts with that wait (no coordinated omission); a
  held-up process also sends fewer recalls (recalls/s).
- Failed = \`recall\` threw; degraded = the envelope's \`degraded\` list was not empty.
- The stand-in (test/support/openai-standin.ts) answers in its own process; the serving process
  embeds its queries there too once the stand-in's model is published.
- The JSON keeps per run the recalls per second and the slowest of each second (\`timeline\`,
  seconds from the baseline's start, with \`marks\` for the rebuild's steps).`;

/** The markdown report. */
export function renderReport(r: TransitionReport): string {
  const o = r.options;
  return `# Model transition benchmark, ${r.date.slice(0, 10)}

Run: \`npx tsx bench/transition/run.ts${o.quick ? ' --quick' : ''}\` (n ${fmt(o.n)}, PostgreSQL n ${fmt(o.pg_n)}; throughput runs: ${o.repeats} static, ${o.openai_repeats} stand-in, ${o.pg_repeats} each on PostgreSQL; ${o.recall_repeats} cross-process recall run(s) with the static variant, one with the stand-in, one in-process; baseline ${o.baselineMs / 1000} s, after the swap ${o.afterMs / 1000} s, ${o.thinkMs} ms between recalls; ${o.swapRounds} direct swaps each way). Wall time ${fmt(r.wall_s)} s.

New models: \`${o.staticChoice}\` (the built-in GloVe embedder with another SIF weighting: another model id and other vectors at the same cost), and \`openai:${o.openaiModel}\` served by the OpenAI-compatible stand-in, ${o.openaiDimension} dimensions, \`embedder.openai.batch_size\` ${o.openaiBatch}.

${METHOD}

${r.notes?.length ? `## Findings\n\n${r.notes.map((n) => `- ${n}`).join('\n')}\n\n` : ''}${backendSection('SQLite', r.sqlite, o.n)}
${backendSection('PostgreSQL', r.postgres, o.pg_n)}
Machine:
${machineMarkdown(r.machine)}
- load average at the end (1/5/15 min): ${r.load_average_after.join(' / ')}

The machine is shared (${r.machine.cores} cores); with a load average above the core count a
process waits for a core, so absolute times vary between runs; the ratios come from one run each.
`;
}
