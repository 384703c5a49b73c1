/**
 * One recall, four interfaces: the library, the CLI (`--json`, spawned), MCP and HTTP (real
 * server) on the same store return the same hits in the same order with the same channel ranks.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { createEngram } from '../src/app.js';
import { silentLogger } from '../src/domain/log.js';
import type { RecallResponse } from '../src/domain/types.js';
import { startHttpService } from '../src/interfaces/http/service.js';
import { createMcpServer } from '../src/interfaces/mcp/server.js';
import { testCacheDir } from './cache-dir.js';
import { tempDir } from './helpers.js';

const CLI = resolve(import.meta.dirname, '..', 'dist', 'interfaces', 'cli', 'main.js');

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
