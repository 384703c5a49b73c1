/**
 * What auto-recall on writes (§6) adds to `remember`: on a store of `items` memories, single writes
 * timed with auto-recall off and in subtle mode within the default budget
 * (`auto_recall.related_budget_ms`), and in subtle mode with an unbounded budget (a second service
 * on the same store) for the related search's own cost. The three are interleaved write by write,
 * so all see the same machine load; the settings are switched between writes, untimed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Engram } from '../../src/app.js';
import type { ConfigInput } from '../../src/config/schema.js';
import type { RememberResult } from '../../src/domain/types.js';
import { percentile } from '../lib/metrics.js';
import { memories } from './corpus.js';

/** Opens a service on the store in `dir` with extra configuration. */
export type OpenEngram = (dir: string, clock: { now: number }, config: ConfigInput) => Engram;
/** Loads `n` synthetic memories into a service. */
export type LoadStore = (engram: Engram, n: number, now: number, seed: number) => Promise<unknown>;

/** Latency percentiles of one series, in ms. */
export interface Latency {
  n: number;
  p50: number;
  p95: number;
  p99: number;
}

/** The result of the related-memories benchmark. */
export interface RelatedBench {
  items: number;
  writes: number;
  budget_ms: number;
  off: Latency;
  subtle: Latency & { returned: number; skipped: number; related_per_write: number };
  unbounded: Latency & { related_per_write: number };
  added_ms: { subtle: { p50: number; p95: number }; unbounded: { p50: number; p95: number } };
}

const UNBOUNDED_MS = 60_000;
const WARM_UP_WRITES = 20;

function round(x: number, digits = 2): number {
  return Math.round(x * 10 ** digits) / 10 ** digits;
}

function latency(xs: number[]): Latency {
  return {
    n: xs.length,
    p50: round(percentile(xs, 50)),
    p95: round(percentile(xs, 95)),
    p99: round(percentile(xs, 99)),
  };
}

async function timed(
  engram: Engram,
  input: object,
): Promise<{ ms: number; result: RememberResult }> {
  const t = performance.now();
  const result = await engram.remember(input as Parameters<Engram['remember']>[0]);
  return { ms: performance.now() - t, result };
}

/** Runs the benchmark on a fresh store of `items` memories with `writes` timed writes per series. */
export async function benchRelated(
  open: OpenEngram,
  load: LoadStore,
  items: number,
  writes: number,
): Promise<RelatedBench> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-bench-related-'));
  const clock = { now: Date.parse('2026-06-01T09:00:00Z') };
  const engram = open(dir, clock, {});
  const unbounded = open(dir, clock, { auto_recall: { related_budget_ms: UNBOUNDED_MS } });
  try {
    await engram.prepareModels();
    await unbounded.prepareModels();
    await load(engram, items, clock.now, 3);
    await engram.backfill();
    const toggle = (enabled: boolean) => engram.configureAutoRecall({ enabled, mode: 'subtle' });
    await toggle(true);
    await engram.prepareAutoRecall();
    await unbounded.prepareAutoRecall();
    const inputs = memories(3 * (writes + WARM_UP_WRITES), clock.now, 30, 11);
    const series = { off: [] as number[], subtle: [] as number[], unbounded: [] as number[] };
    const counts = { returned: 0, skipped: 0, found: 0, foundUnbounded: 0 };
    for (let i = 0; i < writes + WARM_UP_WRITES; i++) {
      const record = i >= WARM_UP_WRITES;
      await toggle(false);
      const off = await timed(engram, inputs[3 * i]!);
      await toggle(true);
      const subtle = await timed(engram, inputs[3 * i + 1]!);
      const free = await timed(unbounded, inputs[3 * i + 2]!);
      if (!record) continue;
      series.off.push(off.ms);
      series.subtle.push(subtle.ms);
      series.unbounded.push(free.ms);
      if (subtle.result.related_memories) counts.returned++;
      if (subtle.result.related_skipped) counts.skipped++;
      counts.found += subtle.result.related_memories?.length ?? 0;
      counts.foundUnbounded += free.result.related_memories?.length ?? 0;
    }
    const [off, subtle, free] = [
      latency(series.off),
      latency(series.subtle),
      latency(series.unbounded),
    ];
    const added = (l: Latency) => ({ p50: round(l.p50 - off.p50), p95: round(l.p95 - off.p95) });
    return {
      items,
      writes,
      budget_ms: engram.config.auto_recall.related_budget_ms,
      off,
      subtle: {
        ...subtle,
        returned: counts.returned,
        skipped: counts.skipped,
        related_per_write: round(counts.found / Math.max(1, counts.returned)),
      },
      unbounded: { ...free, related_per_write: round(counts.foundUnbounded / writes) },
      added_ms: { subtle: added(subtle), unbounded: added(free) },
    };
  } finally {
    await unbounded.close();
    await engram.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The report section of the benchmark. */
export function relatedMarkdown(r: RelatedBench): string {
  const row = (name: string, l: Latency, added: string) =>
    `| ${name} | ${l.n} | ${l.p50} | ${l.p95} | ${l.p99} | ${added} |`;
  return `## related memories on remember at ${r.items} items (auto-recall on writes, §6)

${r.writes} single writes per series, interleaved write by write: auto-recall off, subtle mode within the default budget (auto_recall.related_budget_ms = ${r.budget_ms} ms), and subtle mode with an unbounded budget (a second service on the same store) for the related search's own cost. Static GloVe embedder, SQLite.

| remember | writes | p50 ms | p95 ms | p99 ms | added p50 / p95 ms |
|---|---|---|---|---|---|
${row('auto-recall off', r.off, '')}
${row(`subtle, budget ${r.budget_ms} ms`, r.subtle, `${r.added_ms.subtle.p50} / ${r.added_ms.subtle.p95}`)}
${row('subtle, unbounded budget', r.unbounded, `${r.added_ms.unbounded.p50} / ${r.added_ms.unbounded.p95}`)}

Within the budget: ${r.subtle.returned} writes returned related memories (${r.subtle.related_per_write} per write on average), ${r.subtle.skipped} returned \`related_skipped: budget_exceeded\`. Unbounded: ${r.unbounded.related_per_write} related memories per write.
`;
}
