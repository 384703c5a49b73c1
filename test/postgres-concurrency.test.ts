/**
 * Several engram processes and clients on one PostgreSQL database (§12): concurrent writers lose
 * nothing — no item, no tag added by a read-modify-write plan, no version number, no access —
 * and an exact duplicate written by several clients at once is stored once.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { testEngram } from './helpers.js';
import { dropSchema, PG_URL, pgConfig, randomSchema } from './postgres-helpers.js';

function engrams(schema: string, count: number): Engram[] {
  return Array.from({ length: count }, () =>
    testEngram({ config: { ...pgConfig(schema), embedder: { provider: 'none' } } }),
  );
}

function worker(schema: string, name: string, count: number, sharedId: string) {
  return new Promise<{ worker: string; created: number }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, 'fixtures', 'store-worker.ts'),
        'write',
        'postgres',
        PG_URL!,
        schema,
        name,
        String(count),
        sharedId,
      ],
      { cwd: join(import.meta.dirname, '..'), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0)
        resolve(JSON.parse(out.trim().split('\n').pop()!) as { worker: string; created: number });
      else reject(new Error(`worker ${name} exited ${code}: ${err}`));
    });
  });
}

if (PG_URL) {
  describe('several engram clients on one PostgreSQL database', () => {
    it('lose no item, tag, version or access when they write at once', async () => {
      const schema = randomSchema();
      try {
        const clients = engrams(schema, 4);
        const shared = await clients[0]!.remember({ body: 'The shared runbook', tags: ['start'] });
        const id = shared.memory.id;
        await Promise.all(
          clients.map(async (client, c) => {
            for (let i = 0; i < 6; i++) {
              await Promise.all([
                client.rememberMany(
                  [0, 1, 2].map((j) => ({ body: `client ${c} batch ${i} item ${j}` })),
                ),
                client.tag(id, { add: [`c${c}-${i}`] }),
                client.revise(id, { body: `The shared runbook, edit ${c}.${i}` }),
                client.storeForTransfer.recordAccess('default', [id], Date.now()),
              ]);
            }
          }),
        );
        const reader = clients[3]!;
        const memory = await reader.get(id);
        expect(new Set(memory.tags)).toEqual(
          new Set([
            'start',
            ...[0, 1, 2, 3].flatMap((c) => [0, 1, 2, 3, 4, 5].map((i) => `c${c}-${i}`)),
          ]),
        );
        expect(memory.access_count).toBe(24);
        const history = await reader.history(id);
        expect(history.versions.map((v) => v.version)).toEqual(
          Array.from({ length: 25 }, (_, i) => i + 1),
        );
        expect(new Set(history.versions.slice(1).map((v) => v.body)).size).toBe(24);
        expect((await reader.status()).store.items_total).toBe(1 + 4 * 6 * 3);
        expect(await reader.storeForTransfer.integrityCheck()).toEqual({ ok: true, problems: [] });
      } finally {
        await dropSchema(schema);
      }
    });

    it('store an exact duplicate written by several clients at once only once', async () => {
      const schema = randomSchema();
      try {
        const clients = engrams(schema, 5);
        await clients[0]!.status();
        const results = await Promise.all(
          clients.map((client) =>
            client.remember({ body: 'Deploy freeze starts on Friday at noon' }),
          ),
        );
        expect(results.filter((r) => r.created)).toHaveLength(1);
        expect(new Set(results.map((r) => r.memory.id)).size).toBe(1);
        expect((await clients[1]!.list()).items).toHaveLength(1);
      } finally {
        await dropSchema(schema);
      }
    });

    it('lose nothing when separate processes write at once', async () => {
      const schema = randomSchema();
      try {
        const [client] = engrams(schema, 1);
        const shared = await client!.remember({ body: 'Tagged by every process' });
        const summaries = await Promise.all(
          ['a', 'b', 'c'].map((name) => worker(schema, name, 10, shared.memory.id)),
        );
        expect(summaries.map((s) => s.created)).toEqual([10, 10, 10]);
        const memory = await client!.get(shared.memory.id);
        expect(memory.tags).toHaveLength(30);
        expect((await client!.status()).store.items_total).toBe(31);
      } finally {
        await dropSchema(schema);
      }
    }, 180_000);
  });
} else {
  it('tests several processes on PostgreSQL only when ENGRAM_TEST_PG_URL names a server', () => {
    expect(process.env.ENGRAM_TEST_PG_URL ?? '').toBe('');
  });
}
