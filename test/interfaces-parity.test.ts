/**
 * One recall, four interfaces: the library, the CLI (`--json`, spawned), MCP and HTTP (real
 * server) on the same store return the same hits in the same order with the same channel ranks.
 * And one set of response schemas (src/interfaces/responses/): every MCP tool declares the schema
 * the HTTP API documents for the same result, and every result parses under it without losing a
 * field, so a field the library returns cannot go missing from the published shapes.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { z } from 'zod';

import { createEngram, type Engram } from '../src/app.js';
import { inputSchemas } from '../src/domain/input.js';
import { silentLogger } from '../src/domain/log.js';
import type { RecallResponse } from '../src/domain/types.js';
import {
  EmbedderStatusSchema,
  ModelsStatusSchema,
  PruneResultSchema,
  UseModelResultSchema,
} from '../src/interfaces/http/model-schemas.js';
import { startHttpService } from '../src/interfaces/http/service.js';
import { createMcpServer } from '../src/interfaces/mcp/server.js';
import { TOOL_GROUPS } from '../src/interfaces/mcp/tools/index.js';
import {
  AutoRecallResultSchema,
  AutoRecallSettingsSchema,
  AutoRecallStatsSchema,
  RecallAnalysisSchema,
} from '../src/interfaces/responses/autorecall.js';
import {
  DormantFeedbackResultSchema,
  DormantInspectionSchema,
  DormantReviewSchema,
} from '../src/interfaces/responses/dormant.js';
import {
  DreamCalibrationSchema,
  DreamDiarySchema,
  DreamPreviewSchema,
  DreamRunPageSchema,
  DreamUndoReportSchema,
} from '../src/interfaces/responses/dreams.js';
import {
  MaintenanceReportSchema,
  ObserveResultSchema,
  ReviewListSchema,
} from '../src/interfaces/responses/lifecycle.js';
import {
  BatchResultSchema,
  HistorySchema,
  MemoryPageSchema,
  MemorySchema,
  PurgeResultSchema,
  RelationsResultSchema,
  RememberResultSchema,
  SupersedeResultSchema,
} from '../src/interfaces/responses/memories.js';
import { RecallResponseSchema } from '../src/interfaces/responses/recall.js';
import {
  SessionImportResultsSchema,
  SessionPageSchema,
  SessionPurgeResultSchema,
  SessionSchema,
  SessionSearchResultSchema,
} from '../src/interfaces/responses/sessions.js';
import { HealthSchema, StatusSchema } from '../src/interfaces/responses/status.js';
import { testCacheDir } from './cache-dir.js';
import {
  type Clock,
  dormantEngram,
  lastEvent,
  QUERY,
  rememberAll,
  scene,
  search,
} from './dormant-helpers.js';
import { tempDir } from './helpers.js';
import { serveEngram } from './http-helpers.js';
import { callTool, connectMcp } from './mcp-helpers.js';

const CLI = resolve(import.meta.dirname, '..', 'dist', 'bin', 'engram.js');

const MEMORIES = [
  'Alex prefers TypeScript over Python for backend services.',
  'The billing service runs on PostgreSQL 15 and listens on port 5433.',
  'Never deploy the billing service on Fridays.',
  'To rotate API keys: create the new key, deploy it, wait one hour, then revoke the old key.',
  'The team offsite is planned for the second week of March in Lisbon.',
  'Alex is the tech lead of the payments team.',
  'Staging database credentials rotate every thirty days.',
  'The on-call rotation changes every Monday at 10:00.',
  'Priya owns the search service and its Elasticsearch cluster.',
  'Use feature flags for every risky change to checkout.',
  'The design review for the mobile app is on Thursday.',
  'Customer invoices are generated nightly by the billing worker.',
  'The VPN endpoint moved to vpn2.example.com in January.',
  'Sam prefers short written updates over meetings.',
  'Backups of the main database are kept for 35 days.',
];

const QUERIES = [
  'what database does billing use',
  'who leads payments',
  'when can we deploy billing changes',
];

type Hit = { id: string; channels: RecallResponse['hits'][number]['channels'] };
const shape = (r: { hits: Hit[]; degraded: unknown; decision: unknown }) => ({
  hits: r.hits.map((h) => ({ id: h.id, channels: h.channels })),
  degraded: r.degraded,
  decision: r.decision,
});

describe('recall parity across interfaces', () => {
  it('library, CLI --json, MCP and HTTP return the same hits in the same order', async () => {
    const dir = tempDir();
    const config = join(dir, 'engram.yaml');
    writeFileSync(
      config,
      stringify({
        store: { path: join(dir, 'engram.db') },
        embedder: { cache_dir: testCacheDir() },
      }),
    );
    const library = createEngram({
      configFile: config,
      env: {},
      logger: silentLogger,
      background: false,
    });
    await library.prepareModels();
    for (const body of MEMORIES) await library.remember({ body, kind: 'fact' });
    await library.idle();

    const mcpEngram = createEngram({
      configFile: config,
      env: {},
      logger: silentLogger,
      background: false,
    });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'parity', version: '1.0.0' });
    await Promise.all([
      createMcpServer(mcpEngram, { log: silentLogger }).connect(serverSide),
      client.connect(clientSide),
    ]);
    const http = await startHttpService({
      configFile: config,
      config: { server: { port: 0 } },
      env: {},
      log: silentLogger,
    });
    try {
      for (const query of QUERIES) {
        const fromLibrary = shape(await library.recall({ query, k: 4 }));
        const fromCli = shape(
          JSON.parse(
            execFileSync(
              process.execPath,
              [CLI, '--config', config, '--json', 'search', query, '-k', '4'],
              { env: { PATH: process.env.PATH ?? '', HOME: dir } },
            ).toString(),
          ),
        );
        const mcp = (await client.callTool({
          name: 'recall',
          arguments: { query, k: 4 },
        })) as CallToolResult;
        const fromMcp = shape(mcp.structuredContent as never);
        const res = await fetch(`${http.url}/v1/spaces/default/recall`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query, k: 4 }),
        });
        const fromHttp = shape((await res.json()) as never);
        expect(fromLibrary.hits).toHaveLength(4);
        expect(fromLibrary.degraded).toEqual([]);
        expect(fromCli, `CLI: ${query}`).toEqual(fromLibrary);
        expect(fromMcp, `MCP: ${query}`).toEqual(fromLibrary);
        expect(fromHttp, `HTTP: ${query}`).toEqual(fromLibrary);
      }
    } finally {
      await client.close();
      await mcpEngram.close();
      await http.close();
      await library.close();
    }
  });
});

/** Memories whose entities link them in the knowledge graph (the graph channel reports a path). */
const LINKED = [
  { kind: 'fact' as const, body: 'Alex is the tech lead of the payments team.' },
  { kind: 'fact' as const, body: 'The payments team owns the billing service.' },
  { kind: 'fact' as const, body: 'The billing service runs on PostgreSQL 15.' },
  { kind: 'fact' as const, body: 'Priya works with Alex on the billing service.' },
];
const UNKNOWN = '01ARZ3NDEKTSV4RRFFQ69G5FAV';
/** A past conversation (§1.4), with provenance keys of its own that every edge must keep. */
const SESSION = {
  id: 'conv-billing',
  agent: 'claude',
  title: 'Billing database',
  source: { tool: 'chat-export', original_id: 'c-1', extra: { tags: ['ops'] } },
  turns: [
    { role: 'user', text: 'Which database does billing use?', at: '2025-05-02T09:00:00Z' },
    { role: 'assistant', text: 'Billing runs on PostgreSQL 15.', at: '2025-05-02T09:00:05Z' },
  ],
};

/** Near-duplicates (§10): the first pair is merged by a dream run, the second left to propose. */
const MERGED = ['Sam prefers dark mode in the editor.', 'In the editor, Sam prefers dark mode.'];
const PROPOSED = [
  'Bob drinks black coffee every morning.',
  'Every morning, Bob drinks black coffee.',
];

/**
 * Ids a scenario acts on: four linked memories, a recorded dormant-recall event and a dream run
 * that merged one pair of near-duplicates.
 */
interface Seeded {
  ids: string[];
  event: string;
  run: string;
}

/** A dream run of the duplicates stage that merged exactly the MERGED pair; returns its id. */
async function dreamed(engram: Engram): Promise<string> {
  const pair = await rememberAll(
    engram,
    MERGED.map((body) => ({ kind: 'fact' as const, body })),
  );
  const { run, entries } = await engram.dreamRun({ stages: ['duplicates'] });
  expect(entries.map((e) => [e.outcome, [...e.items].sort()])).toEqual([['applied', pair.sort()]]);
  await rememberAll(
    engram,
    PROPOSED.map((body) => ({ kind: 'fact' as const, body })),
  );
  // The preview and dry-run rows then carry a proposal with its scores.
  const preview = await engram.dreamPreview({ stages: ['duplicates'] });
  expect(preview.stages[0]!.proposals).toHaveLength(1);
  return run.id;
}

/** A store with linked memories, a built graph, one dormant-recall evaluation and a dream run. */
async function seeded(engram: Engram, clock: Clock): Promise<Seeded> {
  await engram.prepareModels();
  await scene(engram, clock);
  const ids = await rememberAll(engram, LINKED);
  await engram.graphRebuild();
  await search(engram, QUERY);
  await engram.importSessions([SESSION]);
  const event = (await lastEvent(engram)).id;
  return { ids, event, run: await dreamed(engram) };
}

/** One result to check: the schema both edges publish for it, and how each edge asks for it. */
interface ResultRow {
  schema: z.ZodType;
  mcp?: [tool: string, args: Record<string, unknown>];
  http?: { method: string; path: string; json?: unknown };
}

const S = '/v1/spaces/default';
const M = `${S}/memories`;

/** The results of a scenario, in order (later rows act on what earlier ones changed). */
function results({ ids, event, run }: Seeded): ResultRow[] {
  const [a, b, c, d] = ids as [string, string, string, string];
  const message = 'What database does the billing service run on?';
  return [
    {
      schema: RememberResultSchema,
      mcp: ['remember', { body: 'The roadmap review is on Monday.', source: { agent: 'test' } }],
      http: { method: 'POST', path: M, json: { body: 'The roadmap review is on Monday.' } },
    },
    {
      schema: BatchResultSchema,
      http: { method: 'POST', path: `${M}/batch`, json: { items: [{ body: 'x y' }, {}] } },
    },
    { schema: MemorySchema, mcp: ['get', { id: a }], http: { method: 'GET', path: `${M}/${a}` } },
    {
      schema: MemorySchema,
      mcp: ['revise', { id: a, body: 'Alex leads the payments team.' }],
      http: { method: 'PATCH', path: `${M}/${a}`, json: { body: 'Alex leads the payments team.' } },
    },
    { schema: MemoryPageSchema, mcp: ['list', {}], http: { method: 'GET', path: M } },
    {
      schema: RecallResponseSchema,
      mcp: ['recall', { query: 'Priya', k: 5 }],
      http: { method: 'POST', path: `${S}/recall`, json: { query: 'Priya', k: 5 } },
    },
    {
      schema: RelationsResultSchema,
      mcp: ['relate', { from_id: a, to_id: b }],
      http: { method: 'POST', path: `${M}/${a}/relations`, json: { to_id: b } },
    },
    { schema: RelationsResultSchema, http: { method: 'GET', path: `${M}/${a}/relations` } },
    {
      schema: SupersedeResultSchema,
      mcp: ['supersede', { old_id: c, new_id: d }],
      http: { method: 'POST', path: `${M}/${c}/supersede`, json: { by: d } },
    },
    {
      schema: HistorySchema,
      mcp: ['history', { id: c }],
      http: { method: 'GET', path: `${M}/${c}/history` },
    },
    {
      schema: MemorySchema,
      mcp: ['forget', { id: b }],
      http: { method: 'DELETE', path: `${M}/${b}` },
    },
    {
      schema: MemorySchema,
      mcp: ['restore', { id: b }],
      http: { method: 'POST', path: `${M}/${b}/restore` },
    },
    { schema: StatusSchema, mcp: ['status', {}], http: { method: 'GET', path: `${S}/status` } },
    {
      schema: RecallAnalysisSchema,
      mcp: ['analyze_for_recall', { message }],
      http: { method: 'POST', path: `${S}/auto-recall/analyze`, json: { message } },
    },
    {
      schema: AutoRecallSettingsSchema,
      mcp: ['configure_auto_recall', { enabled: true, mode: 'subtle', relevance_threshold: 0 }],
      http: {
        method: 'PATCH',
        path: `${S}/auto-recall/settings`,
        json: { enabled: true, mode: 'subtle', relevance_threshold: 0 },
      },
    },
    {
      schema: AutoRecallSettingsSchema,
      http: { method: 'GET', path: `${S}/auto-recall/settings` },
    },
    {
      schema: AutoRecallResultSchema,
      mcp: ['auto_recall', { message }],
      http: { method: 'POST', path: `${S}/auto-recall`, json: { message } },
    },
    {
      schema: ObserveResultSchema,
      mcp: ['observe_memory_usage', { memory_ids: [a, UNKNOWN] }],
      http: { method: 'POST', path: `${S}/observe`, json: { memory_ids: [a, UNKNOWN] } },
    },
    { schema: AutoRecallStatsSchema, http: { method: 'GET', path: `${S}/auto-recall/stats` } },
    { schema: ReviewListSchema, http: { method: 'GET', path: `${S}/review` } },
    {
      schema: MaintenanceReportSchema,
      http: { method: 'POST', path: `${S}/maintain`, json: { dry_run: true } },
    },
    {
      schema: DormantReviewSchema,
      mcp: ['dormant_review', {}],
      http: { method: 'GET', path: `${S}/dormant/events` },
    },
    {
      schema: DormantInspectionSchema,
      mcp: ['dormant_inspect', { event_id: event }],
      http: { method: 'POST', path: `${S}/dormant/events/${event}/inspect` },
    },
    {
      schema: DormantFeedbackResultSchema,
      mcp: ['dormant_feedback', { event_id: event, category: 'useful' }],
      http: {
        method: 'POST',
        path: `${S}/dormant/events/${event}/feedback`,
        json: { category: 'useful' },
      },
    },
    { schema: PurgeResultSchema, http: { method: 'POST', path: `${M}/${d}/purge` } },
    {
      schema: SessionImportResultsSchema,
      http: {
        method: 'POST',
        path: `${S}/sessions`,
        json: { records: [{ ...SESSION, id: 'conv-other' }, { turns: [] }] },
      },
    },
    { schema: SessionPageSchema, http: { method: 'GET', path: `${S}/sessions` } },
    {
      schema: SessionSchema,
      mcp: ['sessions_get', { id: SESSION.id }],
      http: { method: 'GET', path: `${S}/sessions/${SESSION.id}` },
    },
    {
      schema: SessionSearchResultSchema,
      mcp: ['sessions_search', { query: 'billing database' }],
      http: { method: 'POST', path: `${S}/sessions/search`, json: { query: 'billing database' } },
    },
    {
      schema: SessionPurgeResultSchema,
      http: { method: 'DELETE', path: `${S}/sessions/${SESSION.id}?reason=privacy` },
    },
    { schema: ModelsStatusSchema, http: { method: 'GET', path: '/v1/models' } },
    {
      schema: UseModelResultSchema,
      http: { method: 'POST', path: '/v1/models/use', json: { model: 'static:sif_a=0.01' } },
    },
    // Now with a transition: its coverage and the rebuild job as the store keeps it.
    { schema: ModelsStatusSchema, http: { method: 'GET', path: '/v1/models' } },
    { schema: EmbedderStatusSchema, http: { method: 'GET', path: '/v1/embedder' } },
    {
      schema: UseModelResultSchema,
      http: { method: 'POST', path: '/v1/models/use', json: { model: 'static' } },
    },
    { schema: PruneResultSchema, http: { method: 'POST', path: '/v1/models/prune' } },
    { schema: HealthSchema, http: { method: 'GET', path: '/v1/health' } },
    {
      schema: DreamPreviewSchema,
      mcp: ['dream_preview', {}],
      http: { method: 'GET', path: `${S}/dream/preview` },
    },
    {
      schema: DreamDiarySchema,
      mcp: ['dream_run', { dry_run: true }],
      http: { method: 'POST', path: `${S}/dream/runs`, json: { dry_run: true } },
    },
    {
      schema: DreamDiarySchema,
      mcp: ['dream_diary', { run_id: run }],
      http: { method: 'GET', path: `${S}/dream/runs/${run}` },
    },
    { schema: DreamRunPageSchema, http: { method: 'GET', path: `${S}/dream/runs` } },
    { schema: DreamCalibrationSchema, http: { method: 'GET', path: `${S}/dream/calibrate` } },
    {
      schema: DreamUndoReportSchema,
      http: { method: 'POST', path: `${S}/dream/runs/${run}/undo` },
    },
    // Now undone: the run's undo time and its entries marked undone.
    { schema: DreamDiarySchema, http: { method: 'GET', path: `${S}/dream/runs/${run}` } },
  ];
}

/** Parsing keeps every field: one the library returns but the schema lacks would be dropped. */
function expectLossless(schema: z.ZodType, value: unknown, what: string): void {
  expect(value, what).toBeTypeOf('object');
  expect(schema.parse(value), what).toEqual(value);
}

describe('one set of response schemas for MCP and HTTP', () => {
  it('every MCP tool declares the shared schema of its result, and its results keep every field', async () => {
    const { engram, clock } = dormantEngram({ config: { graph: { enabled: true } } });
    const rows = results(await seeded(engram, clock)).filter((r) => r.mcp);
    const tools = new Map(
      TOOL_GROUPS.flatMap((g) => g(inputSchemas(engram.config))).map((t) => [t.name, t]),
    );
    expect(new Set(rows.map((r) => r.mcp![0]))).toEqual(new Set(tools.keys()));
    const client = await connectMcp(engram);
    for (const { schema, mcp } of rows) {
      const [name, args] = mcp!;
      expect(tools.get(name)!.output, name).toBe(schema);
      const result = await callTool(client, name, args);
      expect(result.isError ?? false, `${name}: ${JSON.stringify(result.content)}`).toBe(false);
      expectLossless(schema, result.structuredContent, name);
      if (name === 'recall')
        expect(JSON.stringify(result.structuredContent), 'graph_path').toContain('"graph_path"');
    }
  });

  it('every HTTP JSON response keeps every field under the schema the route documents', async () => {
    const { engram, clock } = dormantEngram({ config: { graph: { enabled: true } } });
    const rows = results(await seeded(engram, clock)).filter((r) => r.http);
    const server = await serveEngram(engram);
    try {
      for (const { schema, http } of rows) {
        const { method, path, json } = http!;
        const res = await server.request(method, path, { json });
        expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
        expectLossless(schema, res.body, `${method} ${path}`);
        if (path.endsWith('/recall')) expect(res.text, 'graph_path').toContain('"graph_path"');
      }
    } finally {
      await server.close();
    }
  });
});
