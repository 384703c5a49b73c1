/**
 * Decision recall (§5.1) on LoCoMo, side by side in one run on the same stores:
 * - quality: R@5, R@10 and MRR@10 of the ordinary default against the decision stage with the
 *   alignment adapter (pool 30, k 10; with its rank prior and without), and the latency it adds
 *   (p50/p95 per question, the variants asked each question in turn);
 * - `low_confidence`: how well the best relevance separates adversarial questions (category 5: no
 *   answer in the conversation) from single-hop ones (AUROC), and the rate of low_confidence at
 *   the configured threshold in each;
 * - the deadline: 50 concurrent searches against an OpenAI-compatible stand-in chat server that
 *   answers after 10 s; every search must fall back within the deadline + 50 ms.
 *
 *   npx tsx bench/decision/run.ts [--conversations 1-5] [--out bench/results]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { loadConfig } from '../../src/config/load.js';
import { startOpenAiStandIn } from '../../test/support/openai-standin.js';
import { CATEGORY_NAMES, loadLocomo } from '../lib/locomo-data.js';
import { machineFacts, machineMarkdown } from '../lib/machine.js';
import { mean, percentile, scoreRanking } from '../lib/metrics.js';
import { buildConversationStore, openCopy } from '../locomo/engram-store.js';

interface Row {
  conversation: number;
  category: number;
  r5: number;
  r10: number;
  mrr: number;
  ms: number;
  /** The decision stage's own time (judging, sources), when it ran. */
  stageMs: number | null;
  maxRelevance: number | null;
  lowConfidence: boolean | null;
}

const K = 10;
const log = (m: string) => process.stderr.write(`${m}\n`);

function parseRange(text: string): number[] {
  const out: number[] = [];
  for (const part of text.split(',')) {
    const [a, b] = part.split('-').map(Number);
    for (let i = a!; i <= (b ?? a!); i++) out.push(i);
  }
  return out;
}

/** P(score of a positive > score of a negative), ties counting half. */
function auroc(positives: readonly number[], negatives: readonly number[]): number {
  let wins = 0;
  for (const p of positives) for (const n of negatives) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (positives.length * negatives.length);
}

const NO_SOURCES = { graph: 0, docs: 0, sessions: 0 };
const VARIANTS = [
  { id: 'default', label: 'ordinary default (hybrid + graph + time + rerank)', config: {} },
  {
    id: 'decision_alignment',
    label: 'decision stage, alignment adapter (rank prior 0.3, the default), pool 30, no sources',
    config: { recall: { decision: { adapter: 'alignment' as const, sources: NO_SOURCES } } },
  },
  {
    id: 'decision_alignment_no_prior',
    label: 'decision stage, alignment score alone (rank prior 0), pool 30, no sources',
    config: {
      recall: {
        decision: {
          adapter: 'alignment' as const,
          sources: NO_SOURCES,
          alignment: { rank_prior: 0 },
        },
      },
    },
  },
  {
    id: 'decision_alignment_pool',
    label: 'decision stage, alignment adapter with pool weighting (as the reranker), pool 30',
    config: {
      recall: {
        decision: {
          adapter: 'alignment' as const,
          sources: NO_SOURCES,
          alignment: { pool_weighting: true },
        },
      },
    },
  },
  {
    id: 'decision_graph3',
    label: 'decision stage, alignment, pool 30 + graph source 3',
    config: {
      recall: { decision: { adapter: 'alignment' as const, sources: { ...NO_SOURCES, graph: 3 } } },
    },
  },
  {
    id: 'decision_docs3',
    label: 'decision stage, alignment, pool 30 + docs source 3',
    config: {
      recall: { decision: { adapter: 'alignment' as const, sources: { ...NO_SOURCES, docs: 3 } } },
    },
  },
];

async function quality(conversations: number[]) {
  const data = loadLocomo();
  const rows = new Map<string, Row[]>(VARIANTS.map((v) => [v.id, []]));
  for (const conversation of data.conversations.filter((c) => conversations.includes(c.index))) {
    const template = await buildConversationStore(conversation);
    log(`${conversation.sampleId}: ${template.items} turns`);
    // Every variant answers each question in turn, so they share the machine's load of the moment.
    const copies = VARIANTS.map((variant) => ({
      variant,
      copy: openCopy(template, variant.config),
    }));
    try {
      try {
        for (const { copy } of copies) await copy.engram.recall({ query: 'warm up', k: 1 });
        for (const q of conversation.questions)
          for (const { variant, copy } of copies) {
            const started = performance.now();
            const r = await copy.engram.recall({ query: q.question, k: K });
            const ms = performance.now() - started;
            const ranked = r.hits.flatMap((h) => copy.diaIdsOf.get(h.id) ?? [h.id]);
            const s = scoreRanking(ranked, new Set(q.evidence));
            const rel = r.hits.map((h) => h.relevance ?? NaN).filter((x) => !Number.isNaN(x));
            rows.get(variant.id)!.push({
              conversation: conversation.index,
              category: q.category,
              r5: s.recall[5],
              r10: s.recall[10],
              mrr: s.mrr,
              ms,
              stageMs: r.timings_ms.decision ?? null,
              maxRelevance: rel.length ? Math.max(...rel) : null,
              lowConfidence: r.decision.low_confidence ?? null,
            });
          }
      } finally {
        await Promise.all(copies.map(({ copy }) => copy.close()));
      }
    } finally {
      template.remove();
    }
  }
  return rows;
}

async function deadline(searches: number) {
  const server = await startOpenAiStandIn({ delayMs: 10_000 });
  const data = loadLocomo();
  const conversation = data.conversations[0]!;
  const template = await buildConversationStore(conversation);
  const copy = openCopy(template, {
    recall: {
      decision: { adapter: 'openai-compatible', openai: { base_url: server.url, model: 'judge' } },
    },
  });
  try {
    await copy.engram.recall({ query: 'warm up', k: 1, decision: 'off' });
    const deadlineMs = copy.engram.config.recall.decision.deadline_ms;
    const questions = conversation.questions.slice(0, searches);
    // Four searches at a time (a busy agent host), each timed from its call to its answer.
    const results: { ms: number; state: string; reason?: string }[] = [];
    for (let i = 0; i < questions.length; i += 4)
      results.push(
        ...(await Promise.all(
          questions.slice(i, i + 4).map(async (q) => {
            const started = performance.now();
            const r = await copy.engram.recall({ query: q.question, k: K });
            return {
              ms: performance.now() - started,
              state: r.decision.state,
              reason: r.decision.reason,
            };
          }),
        )),
      );
    const over = results.map((r) => r.ms - deadlineMs);
    return {
      deadline_ms: deadlineMs,
      searches: results.length,
      fell_back: results.filter((r) => r.state === 'fell_back' && r.reason === 'deadline_expired')
        .length,
      over_deadline_ms: {
        p50: percentile(over, 50),
        p99: percentile(over, 99),
        max: Math.max(...over),
      },
    };
  } finally {
    await copy.close();
    template.remove();
    await server.close();
  }
}

function summary(rows: readonly Row[]) {
  return {
    n: rows.length,
    r5: mean(rows.map((r) => r.r5)),
    r10: mean(rows.map((r) => r.r10)),
    mrr: mean(rows.map((r) => r.mrr)),
    p50_ms: percentile(
      rows.map((r) => r.ms),
      50,
    ),
    p95_ms: percentile(
      rows.map((r) => r.ms),
      95,
    ),
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      conversations: { type: 'string', default: '1-10' },
      out: { type: 'string', default: join(import.meta.dirname, '..', 'results') },
      searches: { type: 'string', default: '50' },
    },
  });
  const machine = machineFacts();
  const conversations = parseRange(values.conversations);
  const rows = await quality(conversations);
  const splits = {
    tune: (r: Row) => r.conversation <= 5,
    held_out: (r: Row) => r.conversation >= 6,
    all: () => true,
  };
  const table: Record<string, Record<string, ReturnType<typeof summary>>> = {};
  for (const [split, keep] of Object.entries(splits))
    for (const v of VARIANTS) {
      const picked = rows.get(v.id)!.filter(keep);
      if (picked.length) (table[split] ??= {})[v.id] = summary(picked);
    }
  const decided = rows.get('decision_alignment')!;
  const single = decided.filter((r) => r.category === 4 && r.maxRelevance !== null);
  const adversarial = decided.filter((r) => r.category === 5 && r.maxRelevance !== null);
  const separation = {
    auroc: auroc(
      single.map((r) => r.maxRelevance!),
      adversarial.map((r) => r.maxRelevance!),
    ),
    single_hop: {
      n: single.length,
      low_confidence: mean(single.map((r) => (r.lowConfidence ? 1 : 0))),
    },
    adversarial: {
      n: adversarial.length,
      low_confidence: mean(adversarial.map((r) => (r.lowConfidence ? 1 : 0))),
    },
    min_relevance: loadConfig({ env: {} }).recall.decision.min_relevance,
  };
  // Latency added, question by question on copies of the same store, the two asked in turn.
  const base = rows.get('default')!;
  const added = decided.map((r, i) => r.ms - base[i]!.ms);
  const stage = decided.flatMap((r) => (r.stageMs === null ? [] : [r.stageMs]));
  const latency = {
    added_p50_ms: percentile(added, 50),
    added_p95_ms: percentile(added, 95),
    stage_p50_ms: percentile(stage, 50),
    stage_p95_ms: percentile(stage, 95),
  };
  const deadlineRun = await deadline(Number(values.searches));
  const result = {
    date: new Date().toISOString(),
    machine,
    conversations,
    table,
    separation,
    latency,
    deadline: deadlineRun,
  };
  mkdirSync(values.out, { recursive: true });
  const day = result.date.slice(0, 10);
  writeFileSync(join(values.out, `decision-${day}.json`), `${JSON.stringify(result, null, 2)}\n`);
  const pct = (x: number) => (100 * x).toFixed(1);
  const lines = [
    `# Decision recall on LoCoMo (${day})`,
    '',
    machineMarkdown(machine),
    '',
    `Run: \`npx tsx bench/decision/run.ts --conversations ${values.conversations}\`. k = ${K}; the decision stage judges a pool of 30 with the alignment adapter; every variant answers each question in turn, on copies of the same stores. \`decision_alignment\` is the adapter as shipped (rank prior 0.3); \`decision_alignment_no_prior\` judges by the alignment score alone; \`decision_alignment_pool\` weighs query terms by how many of the pool hold them, as the reranker does.`,
    '',
    '| split | variant | n | R@5 | R@10 | MRR@10 | p50 ms | p95 ms |',
    '|---|---|---|---|---|---|---|---|',
    ...Object.entries(table).flatMap(([split, byVariant]) =>
      Object.entries(byVariant).map(
        ([id, s]) =>
          `| ${split} | ${id} | ${s.n} | ${pct(s.r5)} | ${pct(s.r10)} | ${pct(s.mrr)} | ${s.p50_ms.toFixed(2)} | ${s.p95_ms.toFixed(2)} |`,
      ),
    ),
    '',
    `Added latency per question (decision minus default, same question, asked in turn): p50 ${latency.added_p50_ms.toFixed(2)} ms, p95 ${latency.added_p95_ms.toFixed(2)} ms. The stage's own time (\`timings_ms.decision\`: context lookup and judging 30): p50 ${latency.stage_p50_ms.toFixed(2)} ms, p95 ${latency.stage_p95_ms.toFixed(2)} ms.`,
    '',
    `low_confidence: AUROC of the best relevance, ${CATEGORY_NAMES[4]} (n ${single.length}) against ${CATEGORY_NAMES[5]} (n ${adversarial.length}): **${separation.auroc.toFixed(3)}**. At min_relevance ${separation.min_relevance}: low_confidence on ${pct(separation.single_hop.low_confidence)}% of single-hop and ${pct(separation.adversarial.low_confidence)}% of adversarial questions.`,
    '',
    `Deadline: ${deadlineRun.searches} searches (four at a time) against a stand-in judge that answers after 10 s, deadline ${deadlineRun.deadline_ms} ms: ${deadlineRun.fell_back} fell back with deadline_expired; time past the deadline p50 ${deadlineRun.over_deadline_ms.p50.toFixed(1)} ms, p99 ${deadlineRun.over_deadline_ms.p99.toFixed(1)} ms, max ${deadlineRun.over_deadline_ms.max.toFixed(1)} ms.`,
    '',
  ];
  writeFileSync(join(values.out, `decision-${day}.md`), lines.join('\n'));
  log(lines.join('\n'));
}

await main();
