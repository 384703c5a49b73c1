/** The markdown of the side-by-side benchmark (bench/results/peers-<date>.md). */
import { type MachineFacts, machineMarkdown } from '../lib/machine.js';

/** What a system is: engram itself, a search library, or an agent-memory system. */
export type PeerKind = 'engram' | 'library' | 'memory';

/** One system's summary row. */
export interface PeerRow {
  name: string;
  kind: PeerKind;
  recall5: number;
  recall10: number;
  mrr: number;
  p50_ms: number;
  p95_ms: number;
  /** Turns taken in per second of ingest wall time (index or store build, embedding included). */
  import_per_s: number;
}

/** One engram configuration against one peer; null where the peer scored 0. */
export interface PeerRatio {
  engram: string;
  peer: string;
  kind: PeerKind;
  recall5: number | null;
  recall10: number | null;
  mrr: number | null;
  p50_latency: number | null;
}

/** What one run measured. */
export interface PeersPayload {
  conversations: number[];
  questions: number;
  /** engram's configurations first (the default first), then the peers. */
  rows: PeerRow[];
  /** The default configuration and the body-only store against every peer. */
  ratios: PeerRatio[];
  /** Median of engram's own per-stage timings (`timings_ms` of the recall envelope). */
  engram_stage_p50_ms: Record<string, number>;
}

const RECALL_TARGET = 1.25;

const x = (v: number | null) => (v === null ? 'n/a (peer scored 0)' : `${v}x`);

function verdict(p: PeersPayload): string[] {
  const ours = p.rows[0]!;
  const lines = [
    `Targets: R@10 at least ${RECALL_TARGET}x every agent-memory system, p50 latency below mem0's.`,
  ];
  for (const r of p.ratios.filter((r) => r.kind === 'memory')) {
    const met = r.recall10 === null || r.recall10 >= RECALL_TARGET;
    lines.push(`- ${r.engram} / ${r.peer}: R@10 ${x(r.recall10)} (${met ? 'met' : 'not met'})`);
  }
  const mem0 = p.rows.find((r) => r.name.startsWith('mem0'));
  if (mem0)
    lines.push(
      `- p50 latency: engram ${ours.p50_ms} ms, mem0 ${mem0.p50_ms} ms ` +
        `(${ours.p50_ms < mem0.p50_ms ? 'met' : 'not met'})`,
    );
  return lines;
}

const PROTOCOL = [
  'the protocol of bench/locomo: one index per conversation, one document per dialogue turn, the ',
  'raw question as the query, recall@k = share of evidence turns in the top k, MRR = mean of ',
  '1 / rank of the first evidence turn. One process, one pass, each question asked of every system ',
  'in turn. Latency is one search call (for the per-word MCP row, all its calls).',
].join('');

/** One bullet per system: how it was fed and asked. */
const SYSTEMS = [
  '- **engram**: `recall` with k = 10 through the public API. The default store keeps each turn ' +
    "with its session, turn, speaker and date (§1.3 provenance); the body-only store, the turn's " +
    'text alone, as the peers get it.',
  "- **Orama**: query embedding (engram's static embedder) + hybrid search (its English stemmer, " +
    "engram's stop-word list, vector similarity floor 0 because its default 0.8 drops nearly " +
    'every SIF vector, default 0.5/0.5 hybrid weights).',
  "- **MiniSearch**: default BM25, lowercase terms, engram's stop-word list, no stemming.",
  '- **mem0**: the open-source `Memory` of `mem0ai/oss`, each turn `add`ed with `infer: false` ' +
    "(no LLM call; the turn is stored verbatim), its default `memory` vector store (SQLite), engram's " +
    'static GloVe sentence vectors through its LangChain-embeddings option, `search` with its ' +
    'defaults (semantic + BM25 with its built-in stemmer; the optional `natural` package is not ' +
    'installed).',
  '- **MCP memory server**: `@modelcontextprotocol/server-memory` over stdio through the official ' +
    'MCP client, one entity per turn (the turn as its observation), created in one ' +
    '`create_entities` call. `search_nodes` matches the query as one substring, so the question ' +
    'itself finds almost nothing; the second row asks it once per query word (stop-words removed) ' +
    'and ranks entities by how many words found them, as an agent working around that would.',
  '- **Import rate**: turns per second of ingest wall time (engram: `rememberMany` in batches of ' +
    '500, vector backfill, and close with graph upkeep; the libraries: building the index, ' +
    'embedding included).',
];

/** The markdown report. */
export function peersMarkdown(machine: MachineFacts, p: PeersPayload): string {
  return [
    `# engram beside peer memory systems and search libraries on LoCoMo — ${machine.date.slice(0, 10)}`,
    '',
    `Conversations ${p.conversations.join(', ')} (${p.questions} questions), ${PROTOCOL}`,
    '',
    ...SYSTEMS,
    '',
    '## Machine',
    machineMarkdown(machine),
    '',
    '| system | R@5 | R@10 | MRR | p50 ms | p95 ms | import turns/s |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...p.rows.map(
      (r) =>
        `| ${r.name} | ${r.recall5} | ${r.recall10} | ${r.mrr} | ${r.p50_ms} | ${r.p95_ms} | ` +
        `${r.import_per_s} |`,
    ),
    '',
    '| engram / peer | R@5 | R@10 | MRR | p50 latency |',
    '|---|---:|---:|---:|---:|',
    ...p.ratios.map(
      (r) =>
        `| ${r.engram} / ${r.peer} | ${x(r.recall5)} | ${x(r.recall10)} | ${x(r.mrr)} | ` +
        `${x(r.p50_latency)} |`,
    ),
    '',
    ...verdict(p),
    '',
    '| engram stage (default configuration) | p50 ms |',
    '|---|---:|',
    ...Object.entries(p.engram_stage_p50_ms).map(([stage, ms]) => `| ${stage} | ${ms} |`),
    '',
  ].join('\n');
}
