/**
 * Auto-recall on writes (§6): a single `remember` returns the existing memories related to the new
 * one (`related_memories`, `hint`) in subtle mode, in interactive mode only when asked, never in
 * silent mode or with auto-recall off; within `auto_recall.related_budget_ms`, else
 * `related_skipped: 'budget_exceeded'`. On the library, the built CLI, HTTP and MCP.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it, vi } from 'vitest';
import { stringify } from 'yaml';

import type { Engram } from '../src/app.js';
import type { ConfigInput } from '../src/config/schema.js';
import { silentLogger } from '../src/domain/log.js';
import type { RememberResult } from '../src/domain/types.js';
import type { Embedder } from '../src/embed/embedder.js';
import { StaticEmbedder } from '../src/embed/static/static-embedder.js';
import { testCacheDir } from './cache-dir.js';
import { runCli } from './cli-run.js';
import { traceCli } from './cli-trace.js';
import { tempDir, testConfig, testEngram } from './helpers.js';
import { serveEngram } from './http-helpers.js';
import { callTool, connectMcp } from './mcp-helpers.js';

const SEED = [
  { body: 'Alice Johnson leads the Phoenix billing project.', title: 'Phoenix lead' },
  { body: 'The Phoenix billing project deploys to staging every Friday.' },
  { body: 'Bob is allergic to peanuts.' },
  { body: 'The office wifi password rotates monthly.' },
];
/** Related to the first two seeds, to neither of the others. */
const NEW = 'Phoenix billing project: Alice wants the staging deploy moved to Thursday.';
/** A budget no test machine misses, for the tests about what is returned rather than when. */
const GENEROUS: ConfigInput = { auto_recall: { related_budget_ms: 10_000 } };
const RELATED_KEYS = ['related_memories', 'hint', 'related_skipped'];

type Seeded = { engram: Engram; ids: string[] };

async function seed(engram: Engram): Promise<string[]> {
  await engram.prepareModels();
  const ids: string[] = [];
  for (const m of SEED) ids.push((await engram.remember({ ...m, kind: 'fact' })).memory.id);
  return ids;
}

async function seeded(options: Parameters<typeof testEngram>[0] = {}): Promise<Seeded> {
  const engram = testEngram({ ...options, config: { ...GENEROUS, ...options.config } });
  return { engram, ids: await seed(engram) };
}

/** Turns auto-recall on in `mode` and loads what its related search needs. */
async function enable(engram: Engram, mode: 'silent' | 'subtle' | 'interactive') {
  await engram.configureAutoRecall({ enabled: true, mode });
  await engram.prepareAutoRecall({ related: true });
}

/** The auto-recall fields of a remember answer that are present. */
function relatedKeys(result: object): string[] {
  return RELATED_KEYS.filter((k) => k in result);
}

/** Checks a subtle answer: related seeds only, above the threshold, never itself, with a hint. */
function expectRelated(result: RememberResult, ids: readonly string[]): void {
  const related = result.related_memories!;
  expect(result.related_skipped).toBeUndefined();
  expect(related.length).toBeGreaterThanOrEqual(1);
  expect(related.length).toBeLessThanOrEqual(3);
  for (const r of related) {
    expect(Object.keys(r).sort()).toEqual(['id', 'label', 'relevance']);
    expect(r.id).not.toBe(result.memory.id);
    expect(ids.slice(2)).not.toContain(r.id); // Bob's allergy and the wifi are unrelated
    expect(r.relevance).toBeGreaterThanOrEqual(0.7);
  }
  const n = related.length;
  expect(result.hint).toBe(
    `${n} related ${n === 1 ? 'memory' : 'memories'}: ${related.map((r) => r.label).join('; ')}`,
  );
}

describe('related memories on remember (library)', () => {
  it('with auto-recall off (the default) answers {memory, created} only, even when asked', async () => {
    const { engram } = await seeded();
    expect(await engram.prepareAutoRecall({ related: true })).toBe(false);
    for (const related of [undefined, true, false]) {
      const result = await engram.remember({ body: NEW, related });
      expect(Object.keys(result).sort()).toEqual(['created', 'memory']);
    }
  });

  it('subtle: related memories above the threshold, at most max_results, never the new one', async () => {
    const { engram, ids } = await seeded();
    await enable(engram, 'subtle');
    const result = await engram.remember({ body: NEW, kind: 'fact' });
    expect(result.created).toBe(true);
    expectRelated(result, ids);
    // The titled memory is labelled by its title, the other by its first words.
    const labels = new Map(result.related_memories!.map((r) => [r.id, r.label]));
    if (labels.has(ids[0]!)) expect(labels.get(ids[0]!)).toBe('Phoenix lead');

    await engram.configureAutoRecall({ max_results: 1 });
    const one = await engram.remember({ body: `${NEW} Carol agrees.` });
    expect(one.related_memories!.length).toBe(1);

    const none = await engram.remember({ body: 'Zebras graze quietly on the savanna at dawn.' });
    expect(none.related_memories).toEqual([]);
    expect(relatedKeys(none)).toEqual(['related_memories']);
  });

  it('subtle: an exact duplicate returns the related memories without itself', async () => {
    const { engram, ids } = await seeded();
    await enable(engram, 'subtle');
    const duplicate = await engram.remember({ ...SEED[1]!, kind: 'fact' });
    expect(duplicate).toMatchObject({ created: false, memory: { id: ids[1] } });
    expect(duplicate.related_memories!.map((r) => r.id)).not.toContain(ids[1]);
    expect(duplicate.related_memories!.map((r) => r.id)).toContain(ids[0]);
  });

  it('silent: never, even when asked', async () => {
    const { engram } = await seeded();
    await enable(engram, 'silent');
    expect(await engram.prepareAutoRecall({ related: true })).toBe(false);
    expect(relatedKeys(await engram.remember({ body: NEW, related: true }))).toEqual([]);
  });

  it('interactive: only with related: true', async () => {
    const { engram, ids } = await seeded();
    await enable(engram, 'interactive');
    expect(relatedKeys(await engram.remember({ body: NEW }))).toEqual([]);
    expect(relatedKeys(await engram.remember({ body: `${NEW} Now.`, related: false }))).toEqual([]);
    expectRelated(await engram.remember({ body: `${NEW} Soon.`, related: true }), ids);
  });

  it('never on a batch: an item asking for related memories fails alone, naming the field', async () => {
    const { engram } = await seeded();
    await enable(engram, 'subtle');
    const results = await engram.rememberMany([{ body: NEW }, { body: `${NEW} B`, related: true }]);
    expect(results[0]).toMatchObject({ ok: true, created: true });
    expect(relatedKeys(results[0]!)).toEqual([]);
    expect(results[1]).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(!results[1]!.ok && results[1]!.error.field).toBe('related');
    await expect(engram.remember({ body: NEW, related: 'yes' as never })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      details: { field: 'related', rule: 'must be true or false' },
    });
  });

  it('is not a recall: no access accounting, no reinforcement', async () => {
    const { engram, ids } = await seeded();
    await enable(engram, 'subtle');
    const result = await engram.remember({ body: NEW });
    expect(result.related_memories!.length).toBeGreaterThan(0);
    await engram.idle(); // an ordinary recall's accesses would be in the store by now
    for (const id of ids) {
      const m = await engram.get(id);
      expect(m).toMatchObject({ access_count: 0, last_accessed_at: null, use_count: 0 });
      expect(m.last_used_at).toBeNull();
    }
    expect((await engram.autoRecallStats()).reinforcement_events).toBe(0);
  });
});

/** Stand-in for a slow related search: a real embedder whose embeddings stop answering on cue. */
function queryNeverAnswers(): Embedder & { answerOnly(n: number): void } {
  const real = new StaticEmbedder({ cacheDir: testCacheDir() });
  let answers = Infinity;
  return {
    modelId: real.modelId,
    dimension: real.dimension,
    prepare: () => real.prepare(),
    embed: (texts) => (answers-- > 0 ? real.embed(texts) : new Promise(() => {})),
    state: () => real.state(),
    close: () => real.close(),
    answerOnly: (n) => (answers = n),
  };
}

describe('the budget of the related search', () => {
  it('returns related_skipped within the budget when the search is slow (stand-in: an embedder double that answers the write but never the query embedding)', async () => {
    const embedder = queryNeverAnswers();
    const budget = 150;
    // The related query would wait for the semantic budget (10 minutes here): the write returning
    // at all, within the test's timeout, shows that it waited only its own budget.
    const { engram } = await seeded({
      embedder,
      config: {
        auto_recall: { related_budget_ms: budget },
        recall: { semantic_budget_ms: 600_000 },
      },
    });
    await enable(engram, 'subtle');
    embedder.answerOnly(1); // the write's own embedding; the related query then waits forever
    const result = await engram.remember({ body: NEW });
    expect(result.memory.vector).toBe('ready');
    expect(result.related_skipped).toBe('budget_exceeded');
    expect(relatedKeys(result)).toEqual(['related_skipped']);
  });

  it('skips the first write of a process whose analysis model is not loaded (a cold start never runs inside a write), then loads it for the next', async () => {
    vi.resetModules(); // a fresh module graph: a process that has not analysed anything yet
    const { createEngram } = await import('../src/app.js');
    const nlp = await import('../src/autorecall/nlp.js');
    expect(nlp.nlpLoaded()).toBe(false);
    const engram = createEngram({
      logger: silentLogger,
      background: false,
      env: {},
      config: testConfig(tempDir(), GENEROUS),
    });
    try {
      const ids = await seed(engram);
      await engram.configureAutoRecall({ enabled: true, mode: 'subtle' });
      const first = await engram.remember({ body: NEW });
      expect(first.related_skipped).toBe('budget_exceeded');
      await vi.waitFor(() => expect(nlp.nlpLoaded()).toBe(true), { timeout: 10_000 });
      expectRelated(await engram.remember({ body: `${NEW} Later.` }), ids);
    } finally {
      await engram.close();
    }
  });
});

describe('related memories on remember over HTTP and MCP', () => {
  it('HTTP: POST /v1/spaces/{space}/memories by mode; the body documents related', async () => {
    const { engram, ids } = await seeded();
    const http = await serveEngram(engram);
    try {
      const post = (json: object) => http.request('POST', '/v1/spaces/default/memories', { json });
      const off = await post({ body: NEW, related: true });
      expect(off.status, off.text).toBe(201);
      expect(relatedKeys(off.body)).toEqual([]);

      await enable(engram, 'subtle');
      const subtle = await post({ body: `${NEW} One.` });
      expect(subtle.status, subtle.text).toBe(201);
      expectRelated(subtle.body, ids);
      const duplicate = await post({ body: SEED[1]!.body, kind: 'fact' });
      expect(duplicate.status).toBe(200);
      expect(duplicate.body.related_memories.map((r: { id: string }) => r.id)).not.toContain(
        ids[1],
      );

      await engram.configureAutoRecall({ mode: 'interactive' });
      expect(relatedKeys((await post({ body: `${NEW} Two.` })).body)).toEqual([]);
      expectRelated((await post({ body: `${NEW} Three.`, related: true })).body, ids);
      const bad = await post({ body: NEW, related: 'yes' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.field).toBe('related');

      const doc = (await http.request('GET', '/v1/openapi.json')).body;
      const schemas = doc.components.schemas;
      expect(schemas.RememberBody.properties.related.type).toBe('boolean');
      expect(Object.keys(schemas.RememberResult.properties)).toEqual(
        expect.arrayContaining(['memory', 'created', ...RELATED_KEYS]),
      );
      expect(schemas.RememberResult.required).toEqual(['memory', 'created']);
    } finally {
      await http.close();
    }
  });

  it('MCP: the remember tool by mode, with a documented related argument', async () => {
    const { engram, ids } = await seeded();
    const client = await connectMcp(engram);
    const { tools } = await client.listTools();
    const remember = tools.find((t) => t.name === 'remember')!;
    const related = remember.inputSchema.properties!.related as { type: string };
    expect(related.type).toBe('boolean');
    const call = async (args: object) => {
      const result = (await callTool(client, 'remember', { ...args })) as CallToolResult;
      expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
      return result.structuredContent as unknown as RememberResult;
    };
    expect(relatedKeys(await call({ body: NEW, related: true }))).toEqual([]);
    await enable(engram, 'interactive');
    expect(relatedKeys(await call({ body: `${NEW} One.` }))).toEqual([]);
    expectRelated(await call({ body: `${NEW} Two.`, related: true }), ids);
    await engram.configureAutoRecall({ mode: 'subtle' });
    expectRelated(await call({ body: `${NEW} Three.` }), ids);
    await engram.configureAutoRecall({ mode: 'silent' });
    expect(relatedKeys(await call({ body: `${NEW} Four.`, related: true }))).toEqual([]);
  });
});

describe('related memories on remember in the built CLI', () => {
  /** A configuration file on a seeded store, and a library service on the same store. */
  async function cliStore(): Promise<Seeded & { config: string; dir: string }> {
    const dir = tempDir();
    const config = join(dir, 'engram.yaml');
    writeFileSync(
      config,
      stringify({
        store: { path: join(dir, 'engram.db') },
        embedder: { cache_dir: testCacheDir() },
        auto_recall: { related_budget_ms: 10_000 },
      }),
    );
    const engram = testEngram({ dir, configFile: config, config: GENEROUS });
    return { engram, ids: await seed(engram), config, dir };
  }

  async function remember(config: string, args: string[]) {
    const r = await runCli(['--config', config, ...args]);
    expect(r.code, r.stderr).toBe(0);
    return r.stdout;
  }

  it('answers by mode with --json and in its human output', async () => {
    const { engram, ids, config } = await cliStore();
    const json = async (...args: string[]) =>
      JSON.parse(await remember(config, ['--json', 'remember', ...args])) as RememberResult;
    expect(relatedKeys(await json(NEW, '--related'))).toEqual([]);

    await engram.configureAutoRecall({ enabled: true, mode: 'subtle' });
    const subtle = await json(`${NEW} One.`);
    expectRelated(subtle, ids);
    const human = await remember(config, ['remember', `${NEW} Two.`]);
    const lines = human.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^remembered: \w+$/);
    expect(lines[1]).toMatch(/^\d related memor(y|ies): /);
    expect(lines.slice(2).every((l) => /^ {2}\w+ {2}\d\.\d\d {2}\S/.test(l))).toBe(true);

    await engram.configureAutoRecall({ mode: 'interactive' });
    expect(relatedKeys(await json(`${NEW} Three.`))).toEqual([]);
    expectRelated(await json(`${NEW} Four.`, '--related'), ids);
    await engram.configureAutoRecall({ mode: 'silent' });
    expect(relatedKeys(await json(`${NEW} Five.`, '--related'))).toEqual([]);
  });

  it('loads no auto-recall module for remember when auto-recall is off', async () => {
    const { engram, config, dir } = await cliStore();
    const AUTORECALL = /\/dist\/autorecall\//;
    const off = await traceCli(dir, ['--config', config, 'remember', `${NEW} Off.`]);
    expect(off.code, off.stderr).toBe(0);
    expect(off.modules.filter((m) => AUTORECALL.test(m))).toEqual([]);

    await engram.configureAutoRecall({ enabled: true, mode: 'subtle' });
    const on = await traceCli(dir, ['--config', config, 'remember', `${NEW} On.`]);
    expect(on.code, on.stderr).toBe(0);
    expect(on.modules.some((m) => m.endsWith('/dist/autorecall/engine.js'))).toBe(true);
  });
});
