/**
 * Lifecycle benchmark: `maintain` over 100k items (target <= 10 s), `process_message` latency
 * at 10k items (target p95 <= 20 ms) and what related memories on writes add to `remember` at 10k
 * items (related.ts), and the success metrics of auto-recall over simulated days, on vs off
 * (simulate.ts). Writes bench/results/lifecycle-<date>.{md,json} with the machine facts, medians
 * over the runs and the ratio of each measurement to its target; `--only` runs some parts
 * (maintain, process, related, simulate) and names them in the files' names.
 *
 *   npx tsx bench/lifecycle/run.ts [--items 100000] [--recall-items 10000] [--messages 400] [--runs 3]
 *     [--related-writes 200] [--sim-items 2000] [--sim-days 90] [--sim-conversations 8]
 *     [--sim-messages 4] [--only maintain,process,related,simulate]
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { createEngram, type Engram } from '../../src/app.js';
import { defaultCacheDir } from '../../src/config/load.js';
import type { ConfigInput } from '../../src/config/schema.js';
import { silentLogger } from '../../src/domain/log.js';
import { percentile } from '../lib/metrics.js';
import { memories, messages } from './corpus.js';
import { benchRelated, relatedMarkdown } from './related.js';
import { benchSimulation, simulationMarkdown } from './simulate.js';

const DAY = 86_400_000;
const LOAD_AT_START = loadavg().map((x) => Math.round(x * 100) / 100);
const { values: args } = parseArgs({
  options: {
    items: { type: 'string', default: '100000' },
    'recall-items': { type: 'string', default: '10000' },
    messages: { type: 'string', default: '400' },
    runs: { type: 'string', default: '3' },
    'related-writes': { type: 'string', default: '200' },
    'sim-items': { type: 'string', default: '2000' },
    'sim-days': { type: 'string', default: '90' },
    'sim-conversations': { type: 'string', default: '8' },
    'sim-messages': { type: 'string', default: '4' },
    only: { type: 'string' },
  },
});
const PARTS = ['maintain', 'process', 'related', 'simulate'] as const;
const ONLY = args.only?.split(',').map((p) => p.trim());
for (const part of ONLY ?? [])
  if (!(PARTS as readonly string[]).includes(part))
    throw new Error(`--only: unknown part ${part} (one of ${PARTS.join(', ')})`);
const runs = (part: (typeof PARTS)[number]) => !ONLY || ONLY.includes(part);
const N_ITEMS = Number(args.items);
const N_RECALL = Number(args['recall-items']);
const N_MESSAGES = Number(args.messages);
const RUNS = Number(args.runs);
const N_RELATED_WRITES = Number(args['related-writes']);

function median(values: number[]): number {
  return percentile(values, 50);
}

function round(x: number, digits = 2): number {
  return Math.round(x * 10 ** digits) / 10 ** digits;
}

function open(
  dir: string,
  clock: { now: number },
  embedder: boolean,
  extra: ConfigInput = {},
): Engram {
  const local = resolve('node_modules/.cache/engram-test');
  return createEngram({
    env: {},
    background: false,
    logger: silentLogger,
    now: () => clock.now,
    config: {
      ...extra,
      store: { path: join(dir, 'engram.db') },
      embedder: embedder
        ? { cache_dir: existsSync(local) ? local : defaultCacheDir() }
        : { provider: 'none' },
      limits: { max_batch_items: 2000 },
    },
  });
}

async function load(engram: Engram, n: number, now: number, seed: number): Promise<string[]> {
  const ids: string[] = [];
  const all = memories(n, now, 365, seed);
  for (let i = 0; i < all.length; i += 2000) {
    const results = await engram.rememberMany(all.slice(i, i + 2000), {
      strict: true,
      priority: 'background',
    });
    for (const r of results) if (r.ok) ids.push(r.memory.id);
  }
  return ids;
}

async function benchMaintain() {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-lifecycle-'));
  const clock = { now: Date.parse('2026-06-01T03:30:00Z') };
  const engram = open(dir, clock, false);
  try {
    let t = performance.now();
    const ids = await load(engram, N_ITEMS, clock.now, 1);
    const loadMs = performance.now() - t;
    t = performance.now();
    const used = ids.filter((_, i) => i % 10 === 0);
    for (let i = 0; i < used.length; i += 1000)
      await engram.observeMemoryUsage({
        memory_ids: used.slice(i, i + 1000),
        context_tags: ['bench'],
      });
    const observeMs = performance.now() - t;
    const dry: number[] = [];
    const real: number[] = [];
    const backup: number[] = [];
    let last;
    for (let run = 0; run < RUNS; run++) {
      clock.now += DAY;
      t = performance.now();
      await engram.maintain({ dry_run: true });
      dry.push(performance.now() - t);
      t = performance.now();
      last = await engram.maintain();
      real.push(performance.now() - t);
      backup.push(last.timings_ms.backup ?? 0);
    }
    const size = statSync(join(dir, 'engram.db')).size;
    return {
      items: N_ITEMS,
      uses_recorded: used.length,
      load_s: round(loadMs / 1000),
      observe_ms_per_1000: round(observeMs / (used.length / 1000)),
      dry_run_s: { median: round(median(dry) / 1000, 3), runs: dry.map((x) => round(x / 1000, 3)) },
      maintain_s: {
        median: round(median(real) / 1000, 3),
        runs: real.map((x) => round(x / 1000, 3)),
      },
      backup_s: { median: round(median(backup) / 1000, 3) },
      last_run: {
        scanned: last!.items_scanned,
        strength_updates: last!.strength_updates,
        promoted: last!.promoted,
        archived: last!.archived,
      },
      store_mb: round(size / 1048576, 1),
    };
  } finally {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function timeMessages(engram: Engram, list: string[], mode: 'silent' | 'subtle') {
  const all: number[] = [];
  const triggered: number[] = [];
  let found = 0;
  for (const [i, message] of list.entries()) {
    const history = i > 0 ? [list[i - 1]!] : [];
    const t = performance.now();
    const r = await engram.processMessage({
      message,
      history,
      conversation_id: `c${i % 25}`,
      mode,
    });
    const ms = performance.now() - t;
    all.push(ms);
    if (r.triggered) triggered.push(ms);
    found += r.count + r.reinforced;
  }
  const stats = (xs: number[]) => ({
    n: xs.length,
    p50: round(percentile(xs, 50)),
    p95: round(percentile(xs, 95)),
    p99: round(percentile(xs, 99)),
  });
  return { all: stats(all), triggered: stats(triggered), related_found: found };
}

async function benchProcess() {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-recall-'));
  const clock = { now: Date.parse('2026-06-01T09:00:00Z') };
  const engram = open(dir, clock, true);
  try {
    await engram.prepareModels();
    const t = performance.now();
    await load(engram, N_RECALL, clock.now, 3);
    await engram.backfill();
    const loadMs = performance.now() - t;
    await engram.configureAutoRecall({ enabled: true, min_interval_s: 0 });
    await timeMessages(engram, messages(30, 9), 'silent'); // warm-up: model pages, JIT
    const list = messages(N_MESSAGES, 4);
    const silent = await timeMessages(engram, list, 'silent');
    const subtle = await timeMessages(engram, list, 'subtle');
    return { items: N_RECALL, load_s: round(loadMs / 1000), messages: N_MESSAGES, silent, subtle };
  } finally {
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function machine() {
  return {
    date: new Date().toISOString(),
    node: process.version,
    os: `${platform()} ${release()}`,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memory_gb: round(totalmem() / 1073741824, 1),
    load_average_start: LOAD_AT_START,
    load_average_end: loadavg().map((x) => round(x)),
  };
}

type Result = Awaited<ReturnType<typeof run>>;

function maintainMarkdown(m: NonNullable<Result['maintain']>): string {
  return `## maintain over ${m.items} items (target ≤ 10 s)

| measurement | median | runs | ratio to target |
|---|---|---|---|
| maintain (backup + decay + transitions, one transaction) | ${m.maintain_s.median} s | ${m.maintain_s.runs.join(', ')} | ${round(m.maintain_s.median / 10, 3)} |
| of which the online backup | ${m.backup_s.median} s | | |
| maintain --dry-run | ${m.dry_run_s.median} s | ${m.dry_run_s.runs.join(', ')} | ${round(m.dry_run_s.median / 10, 3)} |

Last run: ${m.last_run.scanned} scanned, ${m.last_run.strength_updates} strength updates, ${m.last_run.promoted} promoted, ${m.last_run.archived} archived. Store ${m.store_mb} MB. Loading took ${m.load_s} s; ${m.uses_recorded} uses were recorded first (${m.observe_ms_per_1000} ms per 1000).
`;
}

function processMarkdown(p: NonNullable<Result['process_message']>): string {
  return `## process_message at ${p.items} items (target p95 ≤ 20 ms)

${p.messages} messages (questions, statements, small talk), one earlier message as history, 25 conversations, cooldown 0, static GloVe embedder.

| mode | calls | p50 ms | p95 ms | p99 ms | p95 ratio to target |
|---|---|---|---|---|---|
| silent, all messages | ${p.silent.all.n} | ${p.silent.all.p50} | ${p.silent.all.p95} | ${p.silent.all.p99} | ${round(p.silent.all.p95 / 20, 3)} |
| silent, triggered only | ${p.silent.triggered.n} | ${p.silent.triggered.p50} | ${p.silent.triggered.p95} | ${p.silent.triggered.p99} | ${round(p.silent.triggered.p95 / 20, 3)} |
| subtle, all messages | ${p.subtle.all.n} | ${p.subtle.all.p50} | ${p.subtle.all.p95} | ${p.subtle.all.p99} | ${round(p.subtle.all.p95 / 20, 3)} |
| subtle, triggered only | ${p.subtle.triggered.n} | ${p.subtle.triggered.p50} | ${p.subtle.triggered.p95} | ${p.subtle.triggered.p99} | ${round(p.subtle.triggered.p95 / 20, 3)} |

Related memories found: ${p.silent.related_found} (silent, reinforced), ${p.subtle.related_found} (subtle, returned).
`;
}

function markdown(result: Result): string {
  const sections = [
    result.maintain && maintainMarkdown(result.maintain),
    result.process_message && processMarkdown(result.process_message),
    result.related_on_write && relatedMarkdown(result.related_on_write),
    result.auto_recall_simulation && simulationMarkdown(result.auto_recall_simulation),
  ].filter(Boolean);
  return `# Lifecycle benchmark — ${result.machine.date.slice(0, 10)}

Machine: ${result.machine.cpu}, ${result.machine.cores} cores, ${result.machine.memory_gb} GB, ${result.machine.os}, Node ${result.machine.node}.
Shared machine: load average (1, 5, 15 min) ${result.machine.load_average_start.join(', ')} at the start and ${result.machine.load_average_end.join(', ')} at the end on ${result.machine.cores} cores, so other work competed for the CPU; medians of ${RUNS} runs where repeated.${ONLY ? ` Parts run: ${ONLY.join(', ')}.` : ''}

${sections.join('\n')}`;
}

async function run() {
  const maintain = runs('maintain') ? await benchMaintain() : undefined;
  const processMessage = runs('process') ? await benchProcess() : undefined;
  const related = runs('related')
    ? await benchRelated(
        (dir, clock, config) => open(dir, clock, true, config),
        load,
        N_RECALL,
        N_RELATED_WRITES,
      )
    : undefined;
  const simulation = runs('simulate')
    ? await benchSimulation((dir, clock, config) => open(dir, clock, true, config), {
        items: Number(args['sim-items']),
        days: Number(args['sim-days']),
        conversationsPerDay: Number(args['sim-conversations']),
        messagesPerConversation: Number(args['sim-messages']),
      })
    : undefined;
  return {
    machine: machine(),
    maintain,
    process_message: processMessage,
    related_on_write: related,
    auto_recall_simulation: simulation,
  };
}

const result = await run();
const out = resolve('bench/results');
mkdirSync(out, { recursive: true });
const stamp = `${result.machine.date.slice(0, 10)}${ONLY ? `-${ONLY.join('-')}` : ''}`;
writeFileSync(join(out, `lifecycle-${stamp}.json`), `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(join(out, `lifecycle-${stamp}.md`), markdown(result));
process.stdout.write(markdown(result));
