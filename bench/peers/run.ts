/**
 * Side-by-side benchmark (`npm run bench:peers`): the LoCoMo questions through engram (public API),
 * the search libraries Orama and MiniSearch, and the agent-memory systems mem0 OSS and the
 * reference MCP memory server, in one process: recall@5/10, MRR, p50/p95 latency, import rate, and
 * the ratios engram / peer. Writes bench/results/peers-<date>.md and .json.
 *
 *   npx tsx bench/peers/run.ts [--conversations 1-10] [--out DIR]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { StaticEmbedder } from '../../src/embed/static/static-embedder.js';
import { loadLocomo, type LocomoConversation } from '../lib/locomo-data.js';
import { type MachineFacts, machineFacts } from '../lib/machine.js';
import { mean, percentile, recallAtK, reciprocalRank } from '../lib/metrics.js';
import {
  benchCacheDir,
  buildConversationStore,
  openCopy,
  type Protocol,
  rankedDiaIds,
  type StoreCopy,
} from '../locomo/engram-store.js';
import { type BuiltPeer, ensurePeers, mcpMemoryIndex, mem0Index } from './memory-systems.js';
import { miniSearchIndex, oramaIndex, type PeerIndex } from './peers.js';
import {
  type PeerKind,
  type PeerRatio,
  type PeerRow,
  peersMarkdown,
  type PeersPayload,
} from './report.js';

/** Answers of one system: per-question scores and latency, and what its ingest took. */
interface Measured {
  name: string;
  kind: PeerKind;
  r5: number[];
  r10: number[];
  rr: number[];
  ms: number[];
  ingestMs: number;
  items: number;
}

const LIMIT = 10;

function record(into: Measured, ranked: readonly string[], evidence: Set<string>, ms: number) {
  into.r5.push(recallAtK(ranked, evidence, 5));
  into.r10.push(recallAtK(ranked, evidence, 10));
  into.rr.push(reciprocalRank(ranked, evidence));
  into.ms.push(ms);
}

function summary(m: Measured): PeerRow {
  const r = (xs: number[]) => Math.round(mean(xs) * 1000) / 10;
  const ms = (p: number) => Math.round(percentile(m.ms, p) * 1000) / 1000;
  return {
    name: m.name,
    kind: m.kind,
    recall5: r(m.r5),
    recall10: r(m.r10),
    mrr: Math.round(mean(m.rr) * 1000) / 1000,
    p50_ms: ms(50),
    p95_ms: ms(95),
    import_per_s: Math.round(m.items / (m.ingestMs / 1000)),
  };
}

/**
 * engram's lightest request: the keyword channel alone, no session context, no reranking. What is
 * left is what a durable store costs: the full-text query, reading the hits, access accounting.
 */
const LIGHTEST = {
  config: { recall: { context: { window: 0 } } },
  request: { weights: { vector: 0, graph: 0, time: 0 }, rerank: false },
} as const;

/** One way of asking engram: how its store was built and what each recall sends. */
interface EngramVariant {
  name: string;
  protocol: Protocol;
  config?: object;
  request?: object;
}

const ENGRAM: readonly EngramVariant[] = [
  { name: 'engram (default configuration)', protocol: 'turn' },
  { name: 'engram, body only (no session, turn, speaker or date)', protocol: 'body' },
  {
    name: 'engram, lightest request (keyword only, no context, no rerank)',
    protocol: 'turn',
    ...LIGHTEST,
  },
];

/** A system asked in turn with every question of one conversation. */
interface Asked {
  measured: Measured;
  ask(question: string): Promise<[string[], number]>;
  close(): Promise<void>;
}

/** Whatever `build` takes in, timed and counted into `into`. */
async function built<T>(into: Measured, items: number, build: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const value = await build();
  into.ingestMs += performance.now() - started;
  into.items += items;
  return value;
}

function peerAsked(index: PeerIndex, into: Measured, close = async () => {}): Asked {
  return {
    measured: into,
    ask: async (question) => {
      const started = performance.now();
      const ranked = await index.search(question, LIMIT);
      return [ranked, performance.now() - started];
    },
    close,
  };
}

/** The systems of the run, their measurements kept across conversations. */
class Systems {
  private readonly all = new Map<string, Measured>();
  readonly stages = new Map<string, number[]>();

  constructor(private readonly embedder: StaticEmbedder) {}

  measured(name: string, kind: PeerKind): Measured {
    if (!this.all.has(name))
      this.all.set(name, { name, kind, r5: [], r10: [], rr: [], ms: [], ingestMs: 0, items: 0 });
    return this.all.get(name)!;
  }

  rows(): PeerRow[] {
    return [...this.all.values()].map(summary);
  }

  async engram(conversation: LocomoConversation): Promise<Asked[]> {
    const asked: Asked[] = [];
    const templates = new Map<Protocol, Awaited<ReturnType<typeof buildConversationStore>>>();
    for (const variant of ENGRAM) {
      const into = this.measured(variant.name, 'engram');
      let template = templates.get(variant.protocol);
      if (!template) {
        template = await buildConversationStore(conversation, variant.protocol);
        templates.set(variant.protocol, template);
      }
      into.ingestMs += template.ingestMs;
      into.items += conversation.turns.length;
      const copy: StoreCopy = openCopy(template, variant.config);
      await copy.engram.recall({ query: 'warm up', k: 1, ...variant.request });
      const keepStages = variant === ENGRAM[0];
      asked.push({
        measured: into,
        ask: async (question) => {
          const answer = await rankedDiaIds(copy, {
            query: question,
            k: LIMIT,
            ...variant.request,
          });
          if (keepStages)
            for (const [stage, ms] of Object.entries(answer.stages))
              this.stages.set(stage, [...(this.stages.get(stage) ?? []), ms]);
          return [answer.ranked, answer.ms];
        },
        close: () => copy.close(),
      });
    }
    for (const template of templates.values()) template.remove();
    return asked;
  }

  async peers(conversation: LocomoConversation): Promise<Asked[]> {
    const turns = conversation.turns;
    const n = turns.length;
    const asked: Asked[] = [];
    const library = async (name: string, build: () => Promise<PeerIndex>) => {
      const into = this.measured(name, 'library');
      asked.push(peerAsked(await built(into, n, build), into));
    };
    await library('Orama 3.1 hybrid (BM25 + engram static vectors)', () =>
      oramaIndex(turns, this.embedder),
    );
    await library('MiniSearch 7.2 BM25', async () => miniSearchIndex(turns));
    const system = (peer: BuiltPeer) => {
      const into = this.measured(peer.name, 'memory');
      into.ingestMs += peer.ingestMs;
      into.items += peer.items;
      asked.push(peerAsked(peer, into, () => peer.close()));
    };
    system(await mem0Index(turns, this.embedder));
    for (const peer of await mcpMemoryIndex(turns)) system(peer);
    return asked;
  }
}

/** Every question of every conversation through each system, alternating per question. */
async function measure(conversations: readonly LocomoConversation[], embedder: StaticEmbedder) {
  const systems = new Systems(embedder);
  let questions = 0;
  for (const conversation of conversations) {
    const asked = [...(await systems.engram(conversation)), ...(await systems.peers(conversation))];
    for (const q of conversation.questions) {
      const evidence = new Set(q.evidence);
      for (const system of asked) {
        const [ranked, ms] = await system.ask(q.question);
        record(system.measured, ranked, evidence, ms);
      }
    }
    questions += conversation.questions.length;
    for (const system of asked) await system.close();
    process.stderr.write(`${conversation.sampleId} done\n`);
  }
  return { rows: systems.rows(), stages: systems.stages, questions };
}

function ratiosTo(ours: PeerRow, peers: readonly PeerRow[]): PeerRatio[] {
  const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : null);
  return peers.map((p) => ({
    engram: ours.name,
    peer: p.name,
    kind: p.kind,
    recall5: ratio(ours.recall5, p.recall5),
    recall10: ratio(ours.recall10, p.recall10),
    mrr: ratio(ours.mrr, p.mrr),
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
  ensurePeers();
  const [from, to] = values.conversations.split('-').map(Number);
  const machine = machineFacts();
  const conversations = loadLocomo().conversations.filter(
    (c) => c.index >= from! && c.index <= (to ?? from!),
  );
  const embedder = new StaticEmbedder({ cacheDir: benchCacheDir() });
  await embedder.prepare();
  const result = await measure(conversations, embedder);
  await embedder.close();
  const engramRows = result.rows.filter((r) => r.kind === 'engram');
  const peers = result.rows.filter((r) => r.kind !== 'engram');
  const stageP50 = Object.fromEntries(
    [...result.stages].map(([stage, ms]) => [stage, Math.round(percentile(ms, 50) * 100) / 100]),
  );
  write(values.out, machine, {
    conversations: conversations.map((c) => c.index),
    questions: result.questions,
    rows: [...engramRows, ...peers],
    ratios: engramRows.slice(0, 2).flatMap((ours) => ratiosTo(ours, peers)),
    engram_stage_p50_ms: stageP50,
  });
}

await main();
