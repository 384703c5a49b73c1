/**
 * The agent-memory systems of the side-by-side benchmark, each fed one LoCoMo conversation the way
 * its documentation shows and asked the raw question:
 * - mem0's open-source `Memory` with `infer: false` (every turn stored verbatim, no LLM call), its
 *   default in-memory vector store, and engram's static GloVe sentence vectors through its
 *   LangChain-embeddings option (any object with `embedQuery`/`embedDocuments`);
 * - the reference MCP memory server (`@modelcontextprotocol/server-memory`) over stdio through the
 *   official MCP client, one entity per turn with the turn as its observation.
 *
 * Both are installed apart from engram's dependencies, in bench/peers/node_modules (`ensurePeers`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { keywordTerms } from '../../src/domain/text.js';
import type { StaticEmbedder } from '../../src/embed/static/static-embedder.js';
import type { LocomoTurn } from '../lib/locomo-data.js';
import type { PeerIndex } from './peers.js';

const HERE = import.meta.dirname;
const requirePeer = createRequire(join(HERE, 'package.json'));

/** Installs bench/peers/package.json's packages on first use (`npm ci` in this folder). */
export function ensurePeers(): void {
  if (existsSync(join(HERE, 'node_modules', 'mem0ai'))) return;
  process.stderr.write('installing the peer memory systems into bench/peers/node_modules\n');
  execFileSync('npm', ['ci', '--no-fund', '--no-audit'], { cwd: HERE, stdio: 'inherit' });
}

/** What the benchmark uses of mem0's `Memory` (mem0ai/oss). */
interface Mem0Memory {
  add(
    messages: string,
    config: { userId: string; infer: boolean; metadata: Record<string, string> },
  ): Promise<unknown>;
  search(
    query: string,
    config: { filters: { user_id: string }; topK: number },
  ): Promise<{ results: { metadata?: Record<string, unknown> }[] }>;
}
type Mem0Constructor = new (config: Record<string, unknown>) => Mem0Memory;

/** A peer index with the wall time its ingest took and how many turns it took in. */
export interface BuiltPeer extends PeerIndex {
  ingestMs: number;
  items: number;
  close(): Promise<void>;
}

const USER = 'locomo';
const DIMENSION = 100;

/** engram's static embedder behind LangChain's `Embeddings` interface. */
function langchainEmbeddings(embedder: StaticEmbedder) {
  const zero = new Array<number>(DIMENSION).fill(0);
  const embedDocuments = async (texts: string[]) =>
    (await embedder.embed(texts)).map((v) => (v ? Array.from(v) : zero));
  return {
    embedDocuments,
    embedQuery: async (text: string) => (await embedDocuments([text]))[0]!,
  };
}

/** mem0 OSS with every turn added verbatim (`infer: false`), searched with its defaults. */
export async function mem0Index(
  turns: readonly LocomoTurn[],
  embedder: StaticEmbedder,
): Promise<BuiltPeer> {
  process.env.MEM0_TELEMETRY = 'false';
  const { Memory } = requirePeer('mem0ai/oss') as { Memory: Mem0Constructor };
  const dir = mkdtempSync(join(tmpdir(), 'engram-peer-mem0-'));
  const memory = new Memory({
    embedder: { provider: 'langchain', config: { model: langchainEmbeddings(embedder) } },
    vectorStore: {
      provider: 'memory',
      config: { collectionName: 'locomo', dimension: DIMENSION, dbPath: join(dir, 'vectors.db') },
    },
    // Never called with infer: false; the client it builds still needs a key.
    llm: { provider: 'openai', config: { apiKey: 'not-used-offline' } },
    historyDbPath: join(dir, 'history.db'),
  });
  const started = performance.now();
  for (const t of turns)
    await memory.add(t.text, { userId: USER, infer: false, metadata: { dia: t.diaId } });
  const ingestMs = performance.now() - started;
  return {
    name: 'mem0 3.3 OSS (infer: false, engram static vectors)',
    ingestMs,
    items: turns.length,
    search: async (question, limit) => {
      const { results } = await memory.search(question, {
        filters: { user_id: USER },
        topK: limit,
      });
      return results.map((r) => String(r.metadata?.dia ?? ''));
    },
    close: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

interface GraphAnswer {
  entities: { name: string }[];
}

/** The reference MCP memory server over stdio: one entity per turn, searched with `search_nodes`. */
export async function mcpMemoryIndex(turns: readonly LocomoTurn[]): Promise<BuiltPeer[]> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-peer-mcp-memory-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [requirePeer.resolve('@modelcontextprotocol/server-memory/dist/index.js')],
    env: {
      ...(process.env as Record<string, string>),
      MEMORY_FILE_PATH: join(dir, 'memory.jsonl'),
    },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'engram-bench-peers', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    return result.structuredContent as unknown as GraphAnswer;
  };
  const started = performance.now();
  await call('create_entities', {
    entities: turns.map((t) => ({
      name: t.diaId,
      entityType: 'dialogue turn',
      observations: [t.text],
    })),
  });
  const ingestMs = performance.now() - started;
  const names = async (query: string) => (await call('search_nodes', { query })).entities;
  const built = { ingestMs, items: turns.length, close: async () => {} };
  return [
    {
      ...built,
      name: 'MCP memory server 2026.8 (search_nodes, the question)',
      search: async (question, limit) => (await names(question)).slice(0, limit).map((e) => e.name),
    },
    {
      ...built,
      name: 'MCP memory server 2026.8 (search_nodes per query word, most words first)',
      search: async (question, limit) => {
        const hits = new Map<string, number>();
        for (const word of keywordTerms(question))
          for (const e of await names(word)) hits.set(e.name, (hits.get(e.name) ?? 0) + 1);
        return [...hits]
          .sort((a, b) => b[1] - a[1])
          .slice(0, limit)
          .map(([name]) => name);
      },
      close: async () => {
        await client.close();
        rmSync(dir, { recursive: true, force: true });
      },
    },
  ];
}
