/**
 * Side-by-side benchmark (`npm run bench:peers`): the LoCoMo questions through engram (default
 * configuration, public API), Orama's hybrid search with engram's static vectors, and MiniSearch's
 * BM25, in one process: recall@5, recall@10 and p50 latency, and the ratios engram / peer. Writes
 * bench/results/peers-<date>.md and .json.
 *
 *   npx tsx bench/peers/run.ts [--conversations 1-10] [--out DIR]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { StaticEmbedder } from '../../src/embed/static/static-embedder.js';
import { loadLocomo, type LocomoConversation } from '../lib/locomo-data.js';
import { type MachineFacts, machineFacts } from '../lib/machine.js';
import { mean, percentile, recallAtK } from '../lib/metrics.js';
import {
  benchCacheDir,
  buildConversationStore,
  openCopy,
  rankedDiaIds,
} from '../locomo/engram-store.js';
import { miniSearchIndex, oramaIndex, type PeerIndex } from './peers.js';
import { type PeerRatio, type PeerRow, peersMarkdown, type PeersPayload } from './report.js';

/** Answers of one system: per-question recall and latency. */
interface Measured {
  name: string;
  r5: number[];
  r10: number[];
  ms: number[];
}

const LIMIT = 10;

function measured(name: string): Measured {
  return { name, r5: [], r10: [], ms: [] };
}

function record(into: Measured, ranked: readonly string[], evidence: Set<string>, ms: number) {
  into.r5.push(recallAtK(ranked, evidence, 5));
  into.r10.push(recallAtK(ranked, evidence, 10));
  into.ms.push(ms);
}

async function timed(index: PeerIndex, question: string): Promise<[string[], number]> {
  const started = performance.now();
  const ranked = await index.search(question, LIMIT);
  return [ranked, performance.now() - started];
}

function summary(m: Measured): PeerRow {
  const r = (xs: number[]) => Math.round(mean(xs) * 1000) / 10;
  const ms = (p: number) => Math.round(percentile(m.ms, p) * 1000) / 1000;
  return { name: m.name, recall5: r(m.r5), recall10: r(m.r10), p50_ms: ms(50), p95_ms: ms(95) };
}

/**
 * engram's lightest request: the keyword channel alone, no session context, no reranking. What is
 * left is what a durable store costs: the full-text query, reading the hits, access accounting.
 */
const LIGHTEST = {
  config: { recall: { context: { window: 0 } } },
  request: { weights: { vector: 0, graph: 0, time: 0 }, rerank: false },
} as const;

/** Every question of every conversation through engram and each peer, alternating per question. */
async function measure(conversations: readonly LocomoConversation[], embedder: StaticEmbedder) {
  const engram = measured('engram (default configuration)');
  const lightest = measured('engram, lightest request (keyword only, no context, no rerank)');
  const peers = new Map<string, Measured>();
  const stages = new Map<string, number[]>();
  for (const conversation of conversations) {
    const template = await buildConversationStore(conversation);
    const store = openCopy(template);
    await store.engram.recall({ query: 'warm up', k: 1 });
    const light = openCopy(template, LIGHTEST.config);
    await light.engram.recall({ query: 'warm up', k: 1, ...LIGHTEST.request });
    const indexes = [
      await oramaIndex(conversation.turns, embedder),
      miniSearchIndex(conversation.turns),
    ];
    for (const q of conversation.questions) {
      const evidence = new Set(q.evidence);
      const answer = await rankedDiaIds(store, { query: q.question, k: LIMIT });
      record(engram, answer.ranked, evidence, answer.ms);
      for (const [stage, ms] of Object.entries(answer.stages))
        stages.set(stage, [...(stages.get(stage) ?? []), ms]);
      const plain = await rankedDiaIds(light, { query: q.question, k: LIMIT, ...LIGHTEST.request });
      record(lightest, plain.ranked, evidence, plain.ms);
      for (const index of indexes) {
        const [ranked, ms] = await timed(index, q.question);
        if (!peers.has(index.name)) peers.set(index.name, measured(index.name));
        record(peers.get(index.name)!, ranked, evidence, ms);
      }
    }
    await store.close();
    await light.close();
    template.remove();
    process.stderr.write(`${conversation.sampleId} done\n`);
  }
  return { engram, lightest, peers: [...peers.values()], stages };
}

function ratiosTo(ours: PeerRow, peers: readonly PeerRow[]): PeerRatio[] {
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  return peers.map((p) => ({
    peer: p.name,
    recall5: ratio(ours.recall5, p.recall5),
    recall10: ratio(ours.recall10, p.recall10),
    p50_latency: ratio(ours.p50_ms, p.p50_ms),
  }));
}

function write(out: string, machine: MachineFacts, payload: PeersPayload) {
  mkdirSync(out, { recursive: true });
  const stem = join(out, `peers-${machine.date.slice(0, 10)}`);
  writeFileSync(`${stem}.json`, `${JSON.stringify({ machine, ...payload }, null, 2)}\n`);
  writeFileSync(`${stem}.md`, peersMarkdown(machine, payload));
  process.stderr.write(`wrote ${stem}.md and ${stem}.json\n`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      conversations: { type: 'string', default: '1-10' },
      out: { type: 'string', default: join(import.meta.dirname, '..', 'results') },
    },
  });
  const [from, to] = values.conversations.split('-').map(Number);
  const machine = machineFacts();
  const conversations = loadLocomo().conversations.filter(
    (c) => c.index >= from! && c.index <= (to ?? from!),
  );
  const embedder = new StaticEmbedder({ cacheDir: benchCacheDir() });
  await embedder.prepare();
  const result = await measure(conversations, embedder);
  await embedder.close();
  const ours = summary(result.engram);
  const peers = result.peers.map(summary);
  const stageP50 = Object.fromEntries(
    [...result.stages].map(([stage, ms]) => [stage, Math.round(percentile(ms, 50) * 100) / 100]),
  );
  write(values.out, machine, {
    conversations: conversations.map((c) => c.index),
    questions: result.engram.r5.length,
    rows: [ours, ...peers],
    lightest: summary(result.lightest),
    ratios: ratiosTo(ours, peers),
    engram_stage_p50_ms: stageP50,
  });
}

await main();
