/**
 * Compares a handful of recall configurations on LoCoMo, for choosing settings on the tuning set
 * (conversations 1-5) before the held-out set is ever looked at. Each configuration runs on its
 * own copy of each conversation's store; prints recall@1/5/10/25/50, MRR, R@50 by category and
 * CPU time per query.
 *
 *   npx tsx bench/locomo/sweep.ts 1-5 '{"rrf30": {"config": {"recall": {"rrf_k": 30}}}}'
 */
import type { ConfigInput } from '../../src/config/schema.js';
import type { RecallRequest } from '../../src/domain/input.js';
import { loadLocomo } from '../lib/locomo-data.js';
import {
  averageScores,
  percentile,
  type QuestionScores,
  RECALL_KS,
  scoreRanking,
} from '../lib/metrics.js';
import { buildConversationStore, openCopy, rankedDiaIds } from './engram-store.js';

type Configs = Record<string, { config?: ConfigInput; request?: Partial<RecallRequest> }>;

const [range = '1-5', json = '{"default": {}}'] = process.argv.slice(2);
const [from, to] = range.split('-').map(Number);
const configs = JSON.parse(json) as Configs;
const conversations = loadLocomo().conversations.filter(
  (c) => c.index >= from! && c.index <= (to ?? from!),
);
const scores = new Map<string, { category: number; s: QuestionScores }[]>();
const cpu = new Map<string, number[]>();

for (const conversation of conversations) {
  const template = await buildConversationStore(conversation);
  for (const [name, { config, request }] of Object.entries(configs)) {
    const store = openCopy(template, config);
    await store.engram.recall({ query: 'warm up', k: 1 });
    for (const q of conversation.questions) {
      const answer = await rankedDiaIds(store, { ...request, query: q.question, k: 50 });
      cpu.set(name, [...(cpu.get(name) ?? []), answer.cpuMs]);
      const s = scoreRanking(answer.ranked, new Set(q.evidence));
      scores.set(name, [...(scores.get(name) ?? []), { category: q.category, s }]);
    }
    await store.close();
  }
  template.remove();
}

const pct = (x: number) => (x * 100).toFixed(1);
for (const [name, runs] of scores) {
  const all = averageScores(runs.map((r) => r.s));
  const byCategory = [1, 2, 3, 4, 5].map((c) =>
    pct(averageScores(runs.filter((r) => r.category === c).map((r) => r.s)).recall[50]),
  );
  console.log(
    name.padEnd(28),
    RECALL_KS.map((k) => pct(all.recall[k])).join(' '),
    `mrr ${all.mrr.toFixed(3)}`,
    `| R@50 by category ${byCategory.join(' ')}`,
    `| CPU p50 ${percentile(cpu.get(name)!, 50).toFixed(2)} ms`,
  );
}
