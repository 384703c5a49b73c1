/**
 * One engram store per LoCoMo conversation, built and queried through the public API only
 * (createEngram, rememberMany, recall): one `episode` item per dialogue turn, with the turn's
 * session, position and speaker as its provenance and the session's date as its creation time, the
 * way an agent would store a conversation. Each
 * measured configuration gets its own copy of the built store, so no run sees the access counts
 * another left behind.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { createEngram, type Engram } from '../../src/app.js';
import type { ConfigInput } from '../../src/config/schema.js';
import type { RecallRequest } from '../../src/domain/input.js';
import { silentLogger } from '../../src/domain/log.js';
import { createMcpServer } from '../../src/interfaces/mcp/server.js';
import type { LocomoConversation } from '../lib/locomo-data.js';

/** Where engram's word-vector cache lives for benchmark runs (shared with the tests). */
export function benchCacheDir(): string {
  return (
    process.env.ENGRAM_TEST_CACHE_DIR ??
    join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'engram-test')
  );
}

/** Opens an engram with `config` on a store file (engram's defaults for everything else). */
export function openEngram(path: string, config: ConfigInput = {}): Engram {
  return createEngram({
    config: {
      ...config,
      store: { ...config.store, path },
      embedder: { cache_dir: benchCacheDir(), ...config.embedder },
    },
    env: {},
    logger: silentLogger,
    background: false,
  });
}

/** A built conversation store (closed), ready to be copied for each configuration. */
export interface ConversationTemplate {
  dir: string;
  /**
   * Dialogue ids of each item id. A turn repeating an earlier turn of the same speaker word for
   * word is an exact duplicate, which engram stores once (§2): that item stands for both turns.
   */
  diaIdsOf: Map<string, string[]>;
  items: number;
  ingestMs: number;
  remove(): void;
}

const BATCH = 500;
const STORE_FILE = 'engram.db';

/**
 * How the turns are stored:
 * - `turn`: with `source.session`, `source.turn`, `source.speaker` and the session's date (the
 *   paper's protocol, and the default);
 * - `speaker-date`: with the speaker and the date, no session or turn;
 * - `body`: the text alone;
 * - `mcp`: the text alone through engram's MCP `remember` tool, one MCP connection per LoCoMo
 *   session, as an agent that sends only a body would.
 */
export const PROTOCOLS = ['turn', 'speaker-date', 'body', 'mcp'] as const;
/** A storage protocol. */
export type Protocol = (typeof PROTOCOLS)[number];

type Turn = LocomoConversation['turns'][number];

/** The remember input of a turn under a library protocol. */
function turnInput(conversation: LocomoConversation, t: Turn, protocol: Protocol) {
  if (protocol === 'body') return { body: t.text };
  const dated = t.time !== undefined ? { created_at: t.time } : {};
  if (protocol === 'speaker-date')
    return { body: t.text, kind: 'episode', source: { speaker: t.speaker }, ...dated };
  return {
    body: t.text,
    kind: 'episode',
    source: {
      session: `${conversation.sampleId}/session_${t.session}`,
      turn: t.turn,
      speaker: t.speaker,
    },
    ...dated,
  };
}

/** Stores the turns through the library in batches; returns each turn's item id. */
async function storeByLibrary(
  engram: Engram,
  conversation: LocomoConversation,
  protocol: Protocol,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < conversation.turns.length; i += BATCH) {
    const turns = conversation.turns.slice(i, i + BATCH);
    const results = await engram.rememberMany(
      turns.map((t) => turnInput(conversation, t, protocol)),
    );
    results.forEach((r, j) => {
      if (!r.ok) throw new Error(`turn ${turns[j]!.diaId} was refused: ${r.error.message}`);
      ids.push(r.memory.id);
    });
  }
  return ids;
}

/** Stores the turns through MCP `remember`, body only, one connection per LoCoMo session. */
async function storeByMcp(engram: Engram, conversation: LocomoConversation): Promise<string[]> {
  const ids: string[] = [];
  const sessions = new Map<number, Turn[]>();
  for (const t of conversation.turns)
    sessions.set(t.session, [...(sessions.get(t.session) ?? []), t]);
  for (const turns of sessions.values()) {
    const server = createMcpServer(engram, { log: silentLogger });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'locomo-bench', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    for (const t of turns) {
      const result = (await client.callTool({
        name: 'remember',
        arguments: { body: t.text },
      })) as CallToolResult;
      if (result.isError)
        throw new Error(`turn ${t.diaId} was refused: ${JSON.stringify(result.content)}`);
      ids.push((result.structuredContent as { memory: { id: string } }).memory.id);
    }
    await client.close();
  }
  return ids;
}

/** Stores every turn of `conversation` in a fresh temporary store and closes it. */
export async function buildConversationStore(
  conversation: LocomoConversation,
  protocol: Protocol = 'turn',
): Promise<ConversationTemplate> {
  const dir = mkdtempSync(join(tmpdir(), `engram-locomo-${conversation.sampleId}-`));
  const engram = openEngram(join(dir, STORE_FILE));
  const diaIdsOf = new Map<string, string[]>();
  const started = performance.now();
  const ids =
    protocol === 'mcp'
      ? await storeByMcp(engram, conversation)
      : await storeByLibrary(engram, conversation, protocol);
  // The MCP protocol stores turns session by session, which is the conversation's order too.
  ids.forEach((id, i) => {
    diaIdsOf.set(id, [...(diaIdsOf.get(id) ?? []), conversation.turns[i]!.diaId]);
  });
  // Vectors deferred past the write budget are filled now, so every run sees a complete store.
  await engram.backfill();
  // Closing waits for background upkeep (the knowledge graph), so it counts as ingest time.
  await engram.close();
  const ingestMs = performance.now() - started;
  return {
    dir,
    diaIdsOf,
    items: diaIdsOf.size,
    ingestMs,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** An engram on a private copy of a built store. */
export interface StoreCopy {
  engram: Engram;
  diaIdsOf: Map<string, string[]>;
  close(): Promise<void>;
}

/** Copies the built store (with whatever engram keeps beside it) and opens it with `config`. */
export function openCopy(template: ConversationTemplate, config: ConfigInput = {}): StoreCopy {
  const dir = mkdtempSync(join(tmpdir(), 'engram-locomo-run-'));
  cpSync(template.dir, dir, { recursive: true });
  const engram = openEngram(join(dir, STORE_FILE), config);
  return {
    engram,
    diaIdsOf: template.diaIdsOf,
    close: async () => {
      await engram.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The ranking, wall time and CPU time of one recall, and engram's own stage timings. */
export interface RankedAnswer {
  ranked: string[];
  ms: number;
  cpuMs: number;
  stages: Record<string, number>;
}

/** Runs one recall and maps its hits back to dialogue ids, timing the whole API call. */
export async function rankedDiaIds(
  store: Pick<StoreCopy, 'engram' | 'diaIdsOf'>,
  request: RecallRequest,
): Promise<RankedAnswer> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const response = await store.engram.recall(request);
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return {
    ranked: response.hits.flatMap((h) => store.diaIdsOf.get(h.id) ?? [h.id]),
    ms,
    cpuMs: (used.user + used.system) / 1000,
    stages: response.timings_ms,
  };
}
