/**
 * Aggregation and reporting of the LoCoMo benchmark: per-question scores summarised by split
 * (conversations 1-5 for tuning, 6-10 held out, all ten) and by category, written as markdown
 * tables and as JSON.
 */
import { CATEGORY_NAMES } from '../lib/locomo-data.js';
import { averageScores, mean, percentile, type QuestionScores, RECALL_KS } from '../lib/metrics.js';

/** One question answered by one configuration. */
export interface QuestionRun {
  conversation: number;
  category: number;
  scores: QuestionScores;
  /** The same ranking at session level: a hit counts when it comes from an evidence session. */
  sessionScores: QuestionScores;
  /** 1 when any of the top 10 hits comes from an evidence session (session-level hit@10). */
  sessionHit10: number;
  ms: number;
  cpuMs: number;
}

/** Metrics of a group of questions. */
export interface Summary {
  n: number;
  recall: Record<string, number>;
  mrr: number;
  ndcg10: number;
  /** Session-level recall: the share of evidence sessions among the sessions of the top k hits. */
  session_recall: Record<string, number>;
  /**
   * Session-level hit@10, the metric other memory projects publish as session-level Recall@10:
   * the share of questions with at least one of the top 10 hits from an evidence session.
   */
  session_hit10: number;
  /** Wall time of the recall call, and the process CPU time it used (less sensitive to a busy machine). */
  latency_ms: { p50: number; p95: number; cpu_p50: number; cpu_p95: number };
  by_category: Record<string, { n: number; recall: Record<string, number>; mrr: number }>;
}

/** The splits every table shows. */
export const SPLITS = [
  { id: 'tuning', label: 'conversations 1-5 (tuning set)', conversations: [1, 2, 3, 4, 5] },
  { id: 'held_out', label: 'conversations 6-10 (held out)', conversations: [6, 7, 8, 9, 10] },
  { id: 'all', label: 'all ten conversations', conversations: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] },
] as const;

const pct = (x: number) => Math.round(x * 1000) / 10;
const ms = (x: number) => Math.round(x * 100) / 100;

function recallTable(scores: readonly QuestionScores[]) {
  const avg = averageScores(scores);
  const recall: Record<string, number> = {};
  for (const k of RECALL_KS) recall[`@${k}`] = pct(avg.recall[k]);
  return { n: avg.n, recall, mrr: Math.round(avg.mrr * 1000) / 1000, ndcg10: pct(avg.ndcg10) };
}

function latency(runs: readonly QuestionRun[]): Summary['latency_ms'] {
  const wall = runs.map((r) => r.ms);
  const cpu = runs.map((r) => r.cpuMs);
  return {
    p50: ms(percentile(wall, 50)),
    p95: ms(percentile(wall, 95)),
    cpu_p50: ms(percentile(cpu, 50)),
    cpu_p95: ms(percentile(cpu, 95)),
  };
}

/** Summarises the questions of one split. */
export function summarise(runs: readonly QuestionRun[]): Summary {
  const by_category: Summary['by_category'] = {};
  for (const [number, name] of Object.entries(CATEGORY_NAMES)) {
    const group = runs.filter((r) => r.category === Number(number));
    if (group.length > 0) {
      const t = recallTable(group.map((r) => r.scores));
      by_category[name] = { n: t.n, recall: t.recall, mrr: t.mrr };
    }
  }
  return {
    ...recallTable(runs.map((r) => r.scores)),
    session_recall: recallTable(runs.map((r) => r.sessionScores)).recall,
    session_hit10: pct(mean(runs.map((r) => r.sessionHit10))),
    latency_ms: latency(runs),
    by_category,
  };
}

/** Summaries of one configuration per split. */
export function summariseSplits(runs: readonly QuestionRun[]): Record<string, Summary> {
  const out: Record<string, Summary> = {};
  for (const split of SPLITS) {
    const group = runs.filter((r) =>
      (split.conversations as readonly number[]).includes(r.conversation),
    );
    if (group.length > 0) out[split.id] = summarise(group);
  }
  return out;
}

/** A measured configuration with its summaries. */
export interface VariantResult {
  id: string;
  label: string;
  kind: 'main' | 'ablation';
  splits: Record<string, Summary>;
}

const row = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;

/** The main table of one split: one row per configuration. */
export function splitTable(results: readonly VariantResult[], split: string): string {
  const head = row([
    'configuration',
    ...RECALL_KS.map((k) => `R@${k}`),
    'MRR',
    'NDCG@10',
    'session hit@10',
    'session R@10',
    'p50 ms',
    'p95 ms',
    'CPU p50 ms',
    'CPU p95 ms',
  ]);
  const sep = row(['---', ...RECALL_KS.map(() => '---:'), ...Array<string>(8).fill('---:')]);
  const lines = results.flatMap((r) => {
    const s = r.splits[split];
    if (!s) return [];
    return [
      row([
        r.label,
        ...RECALL_KS.map((k) => s.recall[`@${k}`]!.toFixed(1)),
        s.mrr.toFixed(3),
        s.ndcg10.toFixed(1),
        s.session_hit10.toFixed(1),
        s.session_recall['@10']!.toFixed(1),
        s.latency_ms.p50.toFixed(2),
        s.latency_ms.p95.toFixed(2),
        s.latency_ms.cpu_p50.toFixed(2),
        s.latency_ms.cpu_p95.toFixed(2),
      ]),
    ];
  });
  return [head, sep, ...lines].join('\n');
}

/** Recall at `k` by category (all ten conversations), one row per configuration. */
export function categoryTable(results: readonly VariantResult[], k: number): string {
  const names = Object.values(CATEGORY_NAMES);
  const head = row(['configuration', ...names.map((n) => `${n} R@${k}`), `overall R@${k}`]);
  const sep = row(['---', ...names.map(() => '---:'), '---:']);
  const lines = results.flatMap((r) => {
    const s = r.splits.all;
    if (!s) return [];
    const cells = names.map((n) => s.by_category[n]?.recall[`@${k}`]?.toFixed(1) ?? '-');
    return [row([r.label, ...cells, s.recall[`@${k}`]!.toFixed(1)])];
  });
  return [head, sep, ...lines].join('\n');
}
