/**
 * Model transitions through the built CLI (§8): `models use --wait` rebuilds with a progress bar
 * and swaps; `models status`, `rollback`, `prune`, `embedder status`; and a rebuild killed with
 * SIGKILL resumes in another process without embedding again what was finished. The new model is
 * served by the OpenAI-compatible stand-in server (a real HTTP server on 127.0.0.1).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import { createEngram } from '../src/app.js';
import { silentLogger } from '../src/domain/log.js';
import { PROBE_TEXT } from '../src/embed/openai/openai-embedder.js';
import { STATIC_MODEL_ID } from '../src/embed/static/static-embedder.js';
import { testCacheDir } from './cache-dir.js';
import { CLI, runCli } from './cli-run.js';
import { killRunning, startNode } from './fixtures/processes.js';
import { tempDir } from './helpers.js';
import { type OpenAiStandIn, startOpenAiStandIn } from './support/openai-standin.js';

const servers: OpenAiStandIn[] = [];
afterEach(async () => {
  killRunning();
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A store of `n` memories and a configuration file pointing the openai provider at `url`. */
async function store(n: number, url: string, extra: Record<string, unknown> = {}) {
  const dir = tempDir();
  const config = join(dir, 'engram.yaml');
  writeFileSync(
    config,
    stringify({
      store: { path: join(dir, 'engram.db') },
      embedder: { cache_dir: testCacheDir(), backfill_batch: 10, openai: { base_url: url } },
      graph: { enabled: false },
      ...extra,
    }),
  );
  const open = () =>
    createEngram({ configFile: config, logger: silentLogger, background: false, env: {} });
  const seed = open();
  await seed.rememberMany(
    Array.from({ length: n }, (_, i) => ({ body: `Memory ${i}: notes on topic ${i % 13}.` })),
  );
  await seed.close();
  return { config, open };
}

/** Texts the stand-in embedded, probes left out. */
function embeddedTexts(server: OpenAiStandIn, from = 0): string[] {
  return server.requests
    .slice(from)
    .flatMap((r) => ((r.body as { input?: string[] }).input ?? []).filter((t) => t !== PROBE_TEXT));
}

async function standIn(): Promise<OpenAiStandIn> {
  const server = await startOpenAiStandIn({ dimension: 12 });
  servers.push(server);
  return server;
}

describe('models commands (SQLite)', () => {
  it('use --wait rebuilds and swaps; status, rollback, prune and embedder status report it', async () => {
    const server = await standIn();
    const { config } = await store(35, server.url);
    const run = (...args: string[]) =>
      runCli(['--config', config, ...args], { timeoutMs: 120_000 });

    const used = await run('--json', 'models', 'use', 'openai:stand-in', '--wait');
    expect(used.code, used.stderr).toBe(0);
    expect(JSON.parse(used.stdout)).toMatchObject({
      action: 'published',
      model: 'openai:stand-in',
    });
    expect(embeddedTexts(server)).toHaveLength(35);

    const status = await run('models', 'status');
    expect(status.stdout).toContain('published: openai:stand-in (12 dimensions, 35 vectors)');
    expect(status.stdout).toContain(`standby: ${STATIC_MODEL_ID} (100 dimensions, 35 vectors)`);

    const found = await run('--json', 'search', 'notes on topic 7');
    expect(JSON.parse(found.stdout).degraded).toEqual([]);

    const back = await run('models', 'rollback');
    expect(back.stdout).toContain(`${STATIC_MODEL_ID} is published (was openai:stand-in)`);
    const pruned = await run('--json', 'models', 'prune');
    expect(JSON.parse(pruned.stdout)).toEqual({ models: ['openai:stand-in'], vectors: 35 });
    const refused = await run('models', 'rollback');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('were pruned');

    const embedder = await run('embedder', 'status');
    expect(embedder.code, embedder.stderr).toBe(0);
    expect(embedder.stdout).toContain('vector-pending items: 0');
    expect(embedder.stdout).toContain(`published: ${STATIC_MODEL_ID} available`);
  }, 180_000);

  it('refuses an unknown provider with the field named', async () => {
    const server = await standIn();
    const { config } = await store(1, server.url);
    const r = await runCli(['--config', config, 'models', 'use', 'word2vec:x']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('unknown provider "word2vec"');
  });

  it('resumes a rebuild killed with SIGKILL without embedding finished items again', async () => {
    const server = await standIn();
    const total = 120;
    // A short lease, so the next process may take the job over soon after the kill.
    const { config, open } = await store(total, server.url, { worker: { lease_ms: 1_000 } });
    // Slow answers, so the kill lands mid-rebuild.
    server.set({ delayMs: 40 });
    const child = startNode(
      [CLI, '--config', config, 'models', 'use', 'openai:stand-in', '--wait'],
      {
        timeoutMs: 120_000,
      },
    );
    // The probe and four batches answered: at least three batches are stored and checkpointed.
    await Promise.race([server.waitForRequests(6), child.done]);
    child.kill('SIGKILL');
    const killed = await child.done;
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    server.set({ delayMs: 0 });

    const engram = open();
    const before = (await engram.modelsStatus()).target!;
    expect(before.model.id).toBe('openai:stand-in');
    const stored = before.coverage.done;
    expect(stored).toBeGreaterThanOrEqual(30);
    expect(stored).toBeLessThan(total);
    // Recall meanwhile is on the old model, with nothing degraded.
    expect((await engram.recall({ query: 'notes on topic 3' })).degraded).toEqual([]);

    const from = server.requests.length;
    const job = await engram.runJobHere({
      kind: 'models.rebuild',
      payload: { model: 'openai:stand-in' },
      dedupe_key: 'models.rebuild',
    });
    expect(job).toMatchObject({ state: 'succeeded', progress: { swapped: true } });
    expect(job.last_error).toContain('lease expired');
    // Only what was not stored before the kill was embedded again.
    expect(embeddedTexts(server, from)).toHaveLength(total - stored);
    expect((await engram.modelsStatus()).published?.id).toBe('openai:stand-in');
    expect((await engram.status()).store.vectors.pending).toBe(0);
    await engram.close();
  }, 180_000);
});
