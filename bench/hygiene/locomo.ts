/**
 * Recall before and after a dream run on LoCoMo (§10, issue: R@10 within 0.5 of before): one store
 * per conversation as bench/locomo builds it, the default recall over every question, then a dream
 * run with the default settings on a second copy of the store, then the same questions there. A merged turn's
 * dialogue ids count for its keeper (the keeper took the lesser's sentences it lacked). Prints a
 * markdown table and returns the numbers for run.ts.
 *
 *   npx tsx bench/hygiene/locomo.ts [--conversations 1-10]
 */
import { parseArgs } from 'node:util';

import { loadLocomo, type LocomoConversation } from '../lib/locomo-data.js';
import { averageScores, type QuestionScores, scoreRanking } from '../lib/metrics.js';
import {
  buildConversationStore,
  openCopy,
  rankedDiaIds,
  type StoreCopy,
} from '../locomo/engram-store.js';

/** Recall of one conversation before and after its dream run, and what the run did. */
export interface LocomoDreamRow {
  conversation: number;
  items: number;
  merged: number;
  folded: number;
  dream_ms: number;
  before: QuestionScores;
  after: QuestionScores;
}

async function scores(copy: StoreCopy, conversation: LocomoConversation): Promise<QuestionScores> {
  const out: QuestionScores[] = [];
  for (const q of conversation.questions) {
    const { ranked } = await rankedDiaIds(copy, { query: q.question, k: 50 });
    out.push(scoreRanking(ranked, new Set(q.evidence)));
  }
  return averageScores(out);
}

/** One conversation: build, measure, dream, measure again. */
export async function dreamConversation(conversation: LocomoConversation): Promise<LocomoDreamRow> {
  const template = await buildConversationStore(conversation);
  // Before and after on two copies of the built store: the questions asked of the first leave
  // access counts behind, which the second must not see.
  const first = openCopy(template);
  const copy = openCopy(template);
  try {
    await first.engram.recall({ query: 'warm up', k: 1 });
    const before = await scores(first, conversation);
    await first.close();
    await copy.engram.recall({ query: 'warm up', k: 1 });
    const started = performance.now();
    const diary = await copy.engram.dreamRun();
    const dreamMs = performance.now() - started;
    await copy.engram.backfill();
    const applied = diary.entries.filter((e) => e.outcome === 'applied');
    const diaIdsOf = new Map(copy.diaIdsOf);
    for (const e of applied.filter((a) => a.action === 'merge')) {
      const [lesser, keeper] = e.items as [string, string];
      diaIdsOf.set(keeper, [...(diaIdsOf.get(keeper) ?? []), ...(diaIdsOf.get(lesser) ?? [])]);
    }
    const after = await scores({ ...copy, diaIdsOf }, conversation);
    return {
      conversation: conversation.index,
      items: template.items,
      merged: applied.filter((a) => a.action === 'merge').length,
      folded: applied.filter((a) => a.action === 'fold').length,
      dream_ms: Math.round(dreamMs),
      before,
      after,
    };
  } finally {
    await copy.close();
    template.remove();
  }
}

/** Every chosen conversation. */
export async function dreamLocomo(indexes: readonly number[]): Promise<LocomoDreamRow[]> {
  const data = loadLocomo();
  const rows: LocomoDreamRow[] = [];
  for (const conversation of data.conversations.filter((c) => indexes.includes(c.index))) {
    process.stderr.write(`conversation ${conversation.index}...\n`);
    rows.push(await dreamConversation(conversation));
  }
  return rows;
}

const pct = (x: number) => (100 * x).toFixed(1);

/** The markdown table of the rows and their mean. */
export function locomoTable(rows: readonly LocomoDreamRow[]): string {
  const lines = [
    '| conv | items | merged | folded | dream ms | R@10 before | R@10 after | R@5 before | R@5 after |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows)
    lines.push(
      `| ${r.conversation} | ${r.items} | ${r.merged} | ${r.folded} | ${r.dream_ms} | ${pct(r.before.recall[10])} | ${pct(r.after.recall[10])} | ${pct(r.before.recall[5])} | ${pct(r.after.recall[5])} |`,
    );
  const mean = (f: (r: LocomoDreamRow) => number) =>
    rows.reduce((s, r) => s + f(r), 0) / Math.max(1, rows.length);
  lines.push(
    `| mean | | ${rows.reduce((s, r) => s + r.merged, 0)} | ${rows.reduce((s, r) => s + r.folded, 0)} | | ${pct(mean((r) => r.before.recall[10]))} | ${pct(mean((r) => r.after.recall[10]))} | ${pct(mean((r) => r.before.recall[5]))} | ${pct(mean((r) => r.after.recall[5]))} |`,
  );
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { conversations: { type: 'string', default: '1-10' } } });
  const [a, b] = values.conversations!.split('-').map(Number);
  const indexes = Array.from({ length: (b ?? a!) - a! + 1 }, (_, i) => a! + i);
  console.log(locomoTable(await dreamLocomo(indexes)));
}
