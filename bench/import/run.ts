/**
 * Import benchmark (`npm run bench:import`): `importFrom` (the library behind `engram import
 * --from`) on a generated folder of BENCH_ITEMS (default 10 000) Markdown notes and an MCP memory
 * graph of BENCH_ITEMS observations, each imported RUNS (default 3) times into a fresh SQLite store
 * (static embedder, knowledge graph on, as shipped), then once more into the last store (the
 * idempotent re-run: nothing created). Each import run follows a baseline run: the same memories
 * through `rememberMany` alone, so a loaded machine's share of the figure can be told apart. Reports memories per second (median of the runs), the
 * relations written, the machine's facts and its load before and after, in
 * bench/results/import-<date>.{md,json}. Target: >= 2,000 items/s for both formats.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { createEngram } from '../../src/app.js';
import { silentLogger } from '../../src/domain/log.js';
import type { ImportFormat } from '../../src/importers/importer.js';
import { importerFor } from '../../src/importers/registry.js';
import { importFrom, type ImportSummary } from '../../src/importers/run.js';
import { type MachineFacts, machineFacts, machineMarkdown } from '../lib/machine.js';
import { writeMarkdownFolder, writeMcpMemoryFile } from './generate.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGET = 2_000;
const CACHE =
  process.env.ENGRAM_EMBEDDER_CACHE_DIR ?? join(ROOT, 'node_modules', '.cache', 'engram-test');

/** One timed baseline: the same memories through `rememberMany` alone (no reading, no links). */
interface Baseline {
  seconds: number;
  items_per_s: number;
  created: number;
}

/** One timed import. */
interface Run {
  seconds: number;
  items_per_s: number;
  created: number;
  relations_created: number;
  load_1m: number;
}

/** Everything measured for one format. */
interface FormatResult {
  format: ImportFormat;
  /** What was measured, when the format alone does not say it. */
  label: string;
  input: string;
  records: number;
  runs: Run[];
  median_items_per_s: number;
  baseline: Baseline[];
  median_baseline_items_per_s: number;
  target_met: boolean;
  rerun: { seconds: number; created: number; exists: number; relations_exists: number };
}

const log = (message: string) => process.stderr.write(`bench:import ${message}\n`);
const round = (x: number, digits = 0) => Math.round(x * 10 ** digits) / 10 ** digits;

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function open(store: string) {
  return createEngram({
    env: {},
    logger: silentLogger,
    background: false,
    config: { store: { path: store }, embedder: { cache_dir: CACHE } },
  });
}

/** Imports once into `store`; the model loads before the clock starts. */
async function timed(
  store: string,
  format: ImportFormat,
  path: string,
): Promise<{ seconds: number; summary: ImportSummary }> {
  const engram = open(store);
  try {
    await engram.prepareModels();
    const started = performance.now();
    const { summary } = await importFrom(engram, { format, path, batch_size: 1_000 });
    await engram.idle();
    return { seconds: (performance.now() - started) / 1000, summary };
  } finally {
    await engram.close();
  }
}

/** The remember inputs an import of `path` writes (provenance aside), read once. */
async function inputsOf(format: ImportFormat, path: string, store: string): Promise<unknown[]> {
  const engram = open(store);
  const inputs: unknown[] = [];
  try {
    const options = { space: engram.config.space, limits: engram.config.limits };
    for await (const chunk of importerFor(format).read(path, options))
      inputs.push(...chunk.drafts.map((d) => d.input));
  } finally {
    await engram.close();
  }
  return inputs;
}

/** Writes the inputs with `rememberMany` in batches of 1,000 into a fresh store, timed as an import. */
async function baseline(store: string, inputs: readonly unknown[]): Promise<Baseline> {
  const engram = open(store);
  try {
    await engram.prepareModels();
    const started = performance.now();
    let created = 0;
    for (let at = 0; at < inputs.length; at += 1_000) {
      const results = await engram.rememberMany(inputs.slice(at, at + 1_000), {
        priority: 'background',
      });
      created += results.filter((r) => r.ok && r.created).length;
    }
    await engram.idle();
    const seconds = (performance.now() - started) / 1000;
    return { seconds: round(seconds, 2), items_per_s: round(created / seconds), created };
  } finally {
    await engram.close();
  }
}

/** What one row of the benchmark imports. */
interface Case {
  format: ImportFormat;
  label: string;
  path: string;
  input: string;
  /** Alternate the runs with baseline runs (default true). */
  baseline?: boolean;
}

async function measure(dir: string, c: Case): Promise<FormatResult> {
  const { format, path, label } = c;
  const runs: Run[] = [];
  const base: Baseline[] = [];
  const tag = label.replace(/\W+/gu, '-');
  const inputs =
    c.baseline === false ? [] : await inputsOf(format, path, join(dir, `${tag}-in.db`));
  let last = '';
  for (let r = 0; r < RUNS; r++) {
    if (c.baseline !== false) {
      const b = await baseline(join(dir, `${tag}-baseline-${r}.db`), inputs);
      log(
        `${label} baseline ${r + 1}: ${b.created} memories in ${b.seconds} s = ${b.items_per_s}/s`,
      );
      base.push(b);
    }
    last = join(dir, `${tag}-${r}.db`);
    const { seconds, summary } = await timed(last, format, path);
    if (summary.error > 0) throw new Error(`${format}: ${summary.error} records failed`);
    const run = {
      seconds: round(seconds, 2),
      items_per_s: round(summary.created / seconds),
      created: summary.created,
      relations_created: summary.relations.created,
      load_1m: round(loadavg()[0]!, 2),
    };
    log(
      `${label} run ${r + 1}: ${run.created} memories in ${run.seconds} s = ${run.items_per_s}/s`,
    );
    runs.push(run);
  }
  const again = await timed(last, format, path);
  log(`${label} re-run: ${again.summary.created} created, ${again.summary.exists} already present`);
  const m = median(runs.map((r) => r.items_per_s));
  return {
    format,
    label,
    input: c.input,
    records: again.summary.records,
    runs,
    median_items_per_s: round(m),
    baseline: base,
    median_baseline_items_per_s: base.length ? round(median(base.map((b) => b.items_per_s))) : 0,
    target_met: m >= TARGET,
    rerun: {
      seconds: round(again.seconds, 2),
      created: again.summary.created,
      exists: again.summary.exists,
      relations_exists: again.summary.relations.exists,
    },
  };
}

function baselineCells(f: FormatResult): string {
  if (f.baseline.length === 0) return '- | -';
  const ratio = round(f.median_items_per_s / Math.max(1, f.median_baseline_items_per_s), 2);
  return `${f.median_baseline_items_per_s} (${f.baseline.map((x) => x.items_per_s).join(', ')}) | ${ratio}`;
}

function report(r: {
  date: string;
  items: number;
  machine: MachineFacts;
  load_average_after: number[];
  results: FormatResult[];
}): string {
  const rows = r.results.map(
    (f) =>
      `| ${f.label} | ${f.input} | ${f.runs.map((x) => x.items_per_s).join(', ')} | **${f.median_items_per_s}** | ≥ ${TARGET} (${f.target_met ? 'met' : 'missed'}) | ${baselineCells(f)} | ${f.runs[0]?.created} memories, ${f.runs[0]?.relations_created} relations | ${f.rerun.seconds} s: ${f.rerun.created} created, ${f.rerun.exists} already present, ${f.rerun.relations_exists} relations already present |`,
  );
  return [
    `# Import benchmark, ${r.date}`,
    '',
    `\`importFrom\` (the library behind \`engram import --from\`) on generated inputs of ${r.items} items, each imported ${RUNS} times into a fresh SQLite store (static embedder, knowledge graph on, batches of 1,000), timed from the first read to the graph's upkeep finished; the language model loads before the clock starts. items/s = memories created per second. Then one re-run into the last store (idempotent: nothing created). Baseline: the same memories (the importer's remember inputs, read beforehand) written with \`rememberMany\` alone in batches of 1,000 into a fresh store, timed the same way, alternating with the import runs: what this machine gives the write path (embedding, store, graph upkeep) at that moment, without reading the input, checking it or writing the relations. The row \`markdown, no wiki links\` imports the same notes with their links written as plain text: the difference to \`markdown\` is what the 10,000 \`related\` relations cost (each links the first three entities of one note to the first three of the other in the knowledge graph, see docs/graph.md).`,
    '',
    '| import | input | items/s per run | median | target | baseline items/s: median (runs) | import / baseline | written per run | re-run |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    '## Machine',
    '',
    machineMarkdown(r.machine),
    `- load average after (1/5/15 min): ${r.load_average_after.join(' / ')}`,
    `- load average (1 min) after each run: ${r.results.map((f) => `${f.label} ${f.runs.map((x) => x.load_1m).join(', ')}`).join('; ')}`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const machine = machineFacts();
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-import-'));
  try {
    const notes = join(dir, 'notes');
    log(`writing ${ITEMS} Markdown notes and an MCP memory graph of ${ITEMS} observations`);
    writeMarkdownFolder(notes, ITEMS);
    const graph = join(dir, 'memory.jsonl');
    const graphItems = writeMcpMemoryFile(graph, ITEMS);
    const plain = join(dir, 'plain-notes');
    writeMarkdownFolder(plain, ITEMS, { links: false });
    const cases: Case[] = [
      {
        format: 'markdown',
        label: 'markdown',
        path: notes,
        input: `${ITEMS} notes (one memory each), a wiki link each`,
      },
      {
        format: 'markdown',
        label: 'markdown, no wiki links',
        path: plain,
        input: `the same ${ITEMS} notes, their links written as plain text`,
        baseline: false,
      },
      {
        format: 'mcp-memory',
        label: 'mcp-memory',
        path: graph,
        input: `${ITEMS} observations + ${graphItems - ITEMS} relations (${graphItems} memories)`,
      },
    ];
    const results: FormatResult[] = [];
    for (const c of cases) results.push(await measure(dir, c));
    const date = machine.date.slice(0, 10);
    const out = {
      date,
      items: ITEMS,
      machine,
      load_average_after: loadavg().map((l) => round(l, 2)),
      results,
    };
    const base = join(ROOT, 'bench', 'results', `import-${date}`);
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(`${base}.json`, `${JSON.stringify(out, null, 2)}\n`);
    writeFileSync(`${base}.md`, report(out));
    log(`wrote ${base}.{md,json}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
