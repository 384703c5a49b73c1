/**
 * Model transitions (§8) through the library, on every backend: choosing a model starts a rebuild
 * while recall stays fully semantic on the published model; writes during the rebuild are embedded
 * with the new model before the swap; the swap is atomic under concurrent recall; choosing the
 * published model cancels; a rollback is a swap until pruned, and refused after. The new model is
 * the OpenAI-compatible stand-in server (a real HTTP server on 127.0.0.1), or a second static variant.
 */
import { afterEach, describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { STATIC_MODEL_ID } from '../src/embed/static/static-embedder.js';
import { BACKENDS } from './backends.js';
import { tempDir, testEngram } from './helpers.js';
import { type OpenAiStandIn, startOpenAiStandIn } from './support/openai-standin.js';

const TOPICS = ['tea', 'bikes', 'chess', 'python', 'gardens', 'trains', 'violins', 'sailing'];

function bodies(n: number, tag = ''): string[] {
  return Array.from({ length: n }, (_, i) => {
    const topic = TOPICS[i % TOPICS.length]!;
    return `Note ${i}${tag}: the team talked about ${topic} and ${TOPICS[(i * 3 + 1) % TOPICS.length]} on day ${i}.`;
  });
}

async function fill(engram: Engram, texts: readonly string[]): Promise<void> {
  await engram.rememberMany(texts.map((body) => ({ body })));
}

const servers: OpenAiStandIn[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function standIn(): Promise<OpenAiStandIn> {
  const server = await startOpenAiStandIn({ dimension: 24 });
  servers.push(server);
  return server;
}

/** The ranked ids and vector-channel state of one recall. */
async function recallIds(engram: Engram, query: string) {
  const r = await engram.recall({ query, k: 10 });
  return { ids: r.hits.map((h) => h.id).join(','), degraded: r.degraded };
}

describe.each(BACKENDS)('model transitions ($name)', (backend) => {
  const open = (url: string | undefined, extra: Record<string, unknown> = {}) =>
    testEngram({
      dir: tempDir(),
      config: {
        ...backend.fresh(),
        embedder: { backfill_batch: 7, ...(url ? { openai: { base_url: url } } : {}) },
        // The stand-in answers over HTTP: on a loaded machine a query's embedding may take longer
        // than the default budget, which these tests are not about.
        recall: { semantic_budget_ms: 60_000 },
        graph: { enabled: false },
        ...extra,
      },
    });

  it('rebuilds into the stand-in model, recall stays on the old model without degradation, then swaps', async () => {
    const server = await standIn();
    const engram = open(server.url);
    await fill(engram, bodies(60));
    const before = await recallIds(engram, 'chess and trains');
    expect(before.degraded).toEqual([]);

    const started = await engram.useModel({ model: 'openai:stand-in-embed' });
    expect(started).toMatchObject({ action: 'started', model: 'openai:stand-in-embed' });
    const status = await engram.modelsStatus();
    expect(status.published?.id).toBe(STATIC_MODEL_ID);
    expect(status.target?.model.id).toBe('openai:stand-in-embed');
    expect(status.target?.coverage).toMatchObject({ items: 60, failed: 0 });

    // Recall at every checkpoint of the rebuild: the old model's answer, never degraded.
    const during: Promise<{ ids: string; degraded: unknown[] }>[] = [];
    const job = await engram.runJobHere(
      {
        kind: 'models.rebuild',
        payload: { model: 'openai:stand-in-embed' },
        dedupe_key: 'models.rebuild',
      },
      (p) => {
        if (p.swapped !== true) during.push(recallIds(engram, 'chess and trains'));
      },
    );
    const answers = await Promise.all(during);
    for (const a of answers) expect(a).toEqual(before);
    expect(job.state).toBe('succeeded');
    expect(job.progress).toMatchObject({ swapped: true, embedded: 60, failed: 0 });
    expect(answers.length).toBeGreaterThan(5);

    const after = await engram.modelsStatus();
    expect(after.published?.id).toBe('openai:stand-in-embed');
    expect(after.target).toBeNull();
    expect(after.standby.map((m) => m.id)).toEqual([STATIC_MODEL_ID]);
    const r = await engram.recall({ query: 'chess and trains', k: 10 });
    expect(r.degraded).toEqual([]);
    expect(r.hits.some((h) => h.channels.vector !== undefined)).toBe(true);
    expect((await engram.status()).store.vectors.pending).toBe(0);
  });

  it('answers every recall during the rebuild from one model: the old one before the swap, the new one after', async () => {
    const server = await standIn();
    const engram = open(server.url);
    await fill(engram, bodies(40));
    const query = 'violins and sailing';
    const old = (await recallIds(engram, query)).ids;
    await engram.useModel({ model: 'openai:stand-in-embed' });
    let finished = false;
    const rebuild = engram
      .runJobHere({
        kind: 'models.rebuild',
        payload: { model: 'openai:stand-in-embed' },
        dedupe_key: 'models.rebuild',
      })
      .finally(() => (finished = true));
    const seen: string[] = [];
    while (!finished) {
      const r = await recallIds(engram, query);
      expect(r.degraded).toEqual([]);
      seen.push(r.ids);
      // Recall here never waits on I/O; a timer turn lets the rebuild's HTTP replies in.
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect((await rebuild).state).toBe('succeeded');
    const fresh = (await recallIds(engram, query)).ids;
    for (const ids of seen) expect([old, fresh]).toContain(ids);
    expect(seen.length).toBeGreaterThan(0);
  });

  it('embeds items written while the rebuild runs with the new model', async () => {
    const server = await standIn();
    const engram = open(server.url);
    await fill(engram, bodies(30));
    await engram.useModel({ model: 'openai:stand-in-embed' });
    let midWrite: Promise<unknown> | undefined;
    const job = await engram.runJobHere(
      {
        kind: 'models.rebuild',
        payload: { model: 'openai:stand-in-embed' },
        dedupe_key: 'models.rebuild',
      },
      () => {
        // A write while the first pass runs: a later pass embeds it before the swap, or, when
        // it commits after the swap, the write itself embeds it with the published new model.
        midWrite ??= fill(engram, ['Written mid-rebuild: the harbour crane is painted blue.']);
      },
    );
    await midWrite;
    expect(midWrite).toBeDefined();
    expect(job.state).toBe('succeeded');
    expect(job.progress?.pass).toBeGreaterThanOrEqual(1);
    const status = await engram.modelsStatus();
    expect(status.published?.id).toBe('openai:stand-in-embed');
    expect((await engram.status()).store.vectors.pending).toBe(0);
    const r = await engram.recall({ query: 'harbour crane painted blue', k: 3 });
    expect(r.degraded).toEqual([]);
    expect(r.hits[0]?.body).toContain('harbour crane');
    expect(r.hits[0]?.channels.vector).toBeDefined();
  });

  it('embeds again a write whose vectors were made for the model a swap replaced before it committed', async () => {
    const server = await standIn();
    const engram = open(server.url);
    await fill(engram, bodies(10));
    const store = engram.storeForTransfer;
    const create = store.createItems.bind(store);
    let swapped = false;
    // The whole transition runs between the write's embedding (static model) and its commit.
    store.createItems = async (drafts) => {
      if (!swapped) {
        swapped = true;
        await engram.useModel({ model: 'openai:stand-in-embed' });
        const job = await engram.runJobHere({
          kind: 'models.rebuild',
          payload: { model: 'openai:stand-in-embed' },
          dedupe_key: 'models.rebuild',
        });
        expect(job.state).toBe('succeeded');
      }
      return create(drafts);
    };
    const written = await engram.remember({ body: 'The harbour crane is painted blue.' });
    expect(swapped).toBe(true);
    expect((await engram.modelsStatus()).published?.id).toBe('openai:stand-in-embed');
    expect((await engram.status()).store.vectors.pending).toBe(0);
    const r = await engram.recall({ query: 'harbour crane painted blue', k: 3 });
    expect(r.hits[0]?.id).toBe(written.memory.id);
    expect(r.hits[0]?.channels.vector).toBeDefined();
  });

  it('records an item the new model fails on, finishes the rebuild, and leaves that item vector-pending', async () => {
    const server = await standIn();
    const engram = open(server.url);
    await fill(engram, [...bodies(20), 'POISON: this note makes the server refuse it.']);
    server.set({ failOnInput: 'POISON' });
    await engram.useModel({ model: 'openai:stand-in-embed' });
    const job = await engram.runJobHere({
      kind: 'models.rebuild',
      payload: { model: 'openai:stand-in-embed' },
      dedupe_key: 'models.rebuild',
    });
    expect(job.progress).toMatchObject({ swapped: true, failed: 1, embedded: 20 });
    expect((await engram.status()).store.vectors.pending).toBe(1);
  });

  it('cancels the transition when the published model is chosen again, keeping its vectors', async () => {
    const engram = open(undefined);
    await fill(engram, bodies(10));
    const started = await engram.useModel({ model: 'static:sif_a=0.01' });
    expect(started.action).toBe('started');
    expect(started.model).toBe(`${STATIC_MODEL_ID}~a=0.01`);
    const cancelled = await engram.useModel({ model: 'static' });
    expect(cancelled).toMatchObject({ action: 'cancelled', model: STATIC_MODEL_ID });
    const status = await engram.modelsStatus();
    expect(status.target).toBeNull();
    expect((await engram.job(started.job!.id)).state).toBe('cancelled');
    expect(await engram.useModel({ model: 'static' })).toMatchObject({ action: 'unchanged' });
  });

  it('rolls back by a swap while the old vectors are kept, and refuses after prune', async () => {
    const engram = open(undefined);
    await fill(engram, bodies(12));
    const target = `${STATIC_MODEL_ID}~a=0.01`;
    await engram.useModel({ model: 'static:sif_a=0.01' });
    await engram.runJobHere({
      kind: 'models.rebuild',
      payload: { model: target },
      dedupe_key: 'models.rebuild',
    });
    expect((await engram.modelsStatus()).published?.id).toBe(target);

    const back = await engram.rollbackModel();
    expect(back).toMatchObject({ action: 'published', model: STATIC_MODEL_ID, previous: target });
    expect((await engram.recall({ query: 'chess' })).degraded).toEqual([]);

    // Forward again (a swap too: the variant's vectors are kept), then prune the old model.
    expect(await engram.useModel({ model: target })).toMatchObject({ action: 'published' });
    const pruned = await engram.pruneModels();
    expect(pruned).toEqual({ models: [STATIC_MODEL_ID], vectors: 12 });
    await expect(engram.rollbackModel()).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('were pruned'),
    });
  });

  it('refuses a model it cannot use, naming what is wrong', async () => {
    const engram = open(undefined);
    await expect(engram.useModel({ model: 'nonsense:x' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'model' },
    });
    await expect(engram.useModel({ model: 'onnx:/no/such/folder' })).rejects.toMatchObject({
      message: expect.stringContaining('/no/such/folder'),
    });
  });
});
