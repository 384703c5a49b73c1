/**
 * LoCoMo retrieval benchmark (`npm run bench:locomo`), following the paper's protocol
 * (../shared/bench/README.md): one engram store per conversation, one item per dialogue turn, the
 * raw question as the query, recall@k = fraction of evidence turns in the top k, questions without
 * evidence score 1, overall = mean over all questions. Everything goes through engram's public
 * API. Writes bench/results/locomo-<date>.md and .json.
 *
 *   npx tsx bench/locomo/run.ts [--conversations 1-10] [--variants default,hybrid] [--out DIR]
 *     [--protocol turn|speaker-date|body|mcp]   (how turns are stored; see engram-store.ts)
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { loadConfig } from '../../src/config/load.js';
import { loadLocomo, type LocomoConversation } from '../lib/locomo-data.js';
import { machineFacts } from '../lib/machine.js';
import { hitAtK, scoreRanking } from '../lib/metrics.js';
import {
  buildConversationStore,
  type ConversationTemplate,
  openCopy,
  type Protocol,
  PROTOCOLS,
  rankedDiaIds,
} from './engram-store.js';
import { type QuestionRun, summarise, summariseSplits, type VariantResult } from './report.js';
import { writeReport } from './report-file.js';
import { benchmarkVariants, graphChannelExists, type Variant } from './variants.js';

/** Wall and CPU time of one recall. */
interface Timing {
  ms: number;
  cpuMs: number;
}

/** Depth every ranking is scored at (the largest recall cut-off). */
const DEPTH = 50;

function parseRange(text: string): number[] {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const [a, b] = part.split('-').map(Number);
    for (let i = a!; i <= (b ?? a!); i++) out.add(i);
  }
  return [...out];
}

const log = (message: string) => process.stderr.write(`${message}\n`);

/** The session of a dialogue id (`D3:7` is turn 7 of session 3). */
const sessionOf = (diaId: string) => diaId.split(':')[0]!;

/** Answers every question of one conversation with one configuration on a fresh store copy. */
async function runVariant(
  template: ConversationTemplate,
  conversation: LocomoConversation,
  variant: Variant,
): Promise<{ runs: QuestionRun[]; defaultK: Timing[] }> {
  const copy = openCopy(template, variant.config);
  try {
    // First use loads the word vectors; that one-off cost is not a query's latency.
    await copy.engram.recall({ query: 'warm up', k: 1 });
    const runs: QuestionRun[] = [];
    for (const q of conversation.questions) {
      const answer = await rankedDiaIds(copy, { ...variant.request, query: q.question, k: DEPTH });
      const sessions = answer.ranked.map(sessionOf);
      const evidenceSessions = new Set(q.evidence.map(sessionOf));
      runs.push({
        conversation: conversation.index,
        category: q.category,
        scores: scoreRanking(answer.ranked, new Set(q.evidence)),
        sessionScores: scoreRanking(sessions, evidenceSessions),
        sessionHit10: hitAtK(sessions, evidenceSessions, 10),
        ms: answer.ms,
        cpuMs: answer.cpuMs,
      });
    }
    // What a caller asking with the default k waits for (same pool and stages).
    const defaultK: Timing[] = [];
    if (variant.id === 'default')
      for (const q of conversation.questions) {
        const { ms, cpuMs } = await rankedDiaIds(copy, { query: q.question });
        defaultK.push({ ms, cpuMs });
      }
    return { runs, defaultK };
  } finally {
    await copy.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      conversations: { type: 'string', default: '1-10' },
      variants: { type: 'string' },
      out: { type: 'string', default: join(import.meta.dirname, '..', 'results') },
      protocol: { type: 'string', default: 'turn' },
    },
  });
  const protocol = values.protocol as Protocol;
  if (!PROTOCOLS.includes(protocol))
    throw new Error(`--protocol must be one of ${PROTOCOLS.join(', ')}`);
  const machine = machineFacts();
  const data = loadLocomo();
  const wanted = parseRange(values.conversations);
  const conversations = data.conversations.filter((c) => wanted.includes(c.index));
  const withGraph = graphChannelExists();
  const pick = values.variants?.split(',');
  const variants = benchmarkVariants(withGraph).filter((v) => !pick || pick.includes(v.id));
  const runs = new Map<string, QuestionRun[]>(variants.map((v) => [v.id, []]));
  const defaultK: Timing[] = [];
  const ingest: { conversation: number; turns: number; items: number; ms: number }[] = [];
  const started = performance.now();
  for (const conversation of conversations) {
    const template = await buildConversationStore(conversation, protocol);
    ingest.push({
      conversation: conversation.index,
      turns: conversation.turns.length,
      items: template.items,
      ms: template.ingestMs,
    });
    log(
      `${conversation.sampleId}: ${template.items} turns stored in ${Math.round(template.ingestMs)} ms`,
    );
    try {
      for (const variant of variants) {
        const out = await runVariant(template, conversation, variant);
        runs.get(variant.id)!.push(...out.runs);
        defaultK.push(...out.defaultK);
      }
    } finally {
      template.remove();
    }
  }
  const results: VariantResult[] = variants.map((v) => ({
    id: v.id,
    label: v.label,
    kind: v.kind,
    splits: summariseSplits(runs.get(v.id)!),
  }));
  const defaultLatency = defaultK.length
    ? summarise(runs.get('default')!.map((r, i) => ({ ...r, ...defaultK[i]! }))).latency_ms
    : null;
  const config = loadConfig({ env: {} }).recall;
  const leversPath = join(import.meta.dirname, 'levers.md');
  mkdirSync(values.out, { recursive: true });
  const written = writeReport(values.out, {
    machine,
    protocol,
    config,
    withGraph,
    conversations: conversations.map((c) => c.index),
    questions: conversations.reduce((n, c) => n + c.questions.length, 0),
    noEvidence: conversations.reduce(
      (n, c) => n + c.questions.filter((q) => q.evidence.length === 0).length,
      0,
    ),
    notes: data.notes.filter((n) => conversations.some((c) => c.sampleId === n.sampleId)),
    ingest,
    results,
    defaultLatency,
    seconds: Math.round((performance.now() - started) / 100) / 10,
    levers: existsSync(leversPath) ? readFileSync(leversPath, 'utf8') : '',
  });
  for (const file of written) log(`wrote ${file}`);
  writeFileSync(
    process.stdout.fd,
    `${JSON.stringify(results.map((r) => [r.id, r.splits.all?.recall]))}\n`,
  );
}

await main();
