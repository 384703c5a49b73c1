/**
 * The settings of a space (§13) through the library: each value's source (file, ENGRAM_* env,
 * option, default, runtime), secrets never shown, and runtime changes of recall weights, boosts,
 * rerank, auto-recall and the dormant mode that persist in the store (another engram on it sees
 * them) and change what recall and dormant recall do; resets return to the configured values.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { loadConfig } from '../src/config/load.js';
import type { SettingsView, SettingView } from '../src/config/settings-view.js';
import { sourceOf } from '../src/config/sources.js';
import { isEngramError } from '../src/domain/errors.js';
import { dormantEngram, QUERY, rows, scene, search } from './dormant-helpers.js';
import { tempDir, testEngram } from './helpers.js';

/** One setting of a view by key. */
function setting(view: SettingsView, key: string): SettingView {
  const found = view.sections.flatMap((s) => s.settings).find((s) => s.key === key);
  if (!found) throw new Error(`no setting ${key}`);
  return found;
}

/** The error a call throws. */
async function failure(work: Promise<unknown>) {
  try {
    await work;
  } catch (err) {
    if (isEngramError(err)) return err;
    throw err;
  }
  throw new Error('expected an error');
}

/** A configuration file in a fresh folder; returns the file and the folder. */
function configFile(yaml: string): { file: string; dir: string } {
  const dir = tempDir();
  const file = join(dir, 'engram.yaml');
  writeFileSync(file, `store:\n  path: ${join(dir, 'engram.db')}\n${yaml}`);
  return { file, dir };
}

const MEMORIES = [
  'Carol prefers green tea during long planning meetings.',
  'The planning meeting for the billing project is on Thursday.',
  'Dave brings coffee to every retrospective.',
];

async function seed(engram: Engram): Promise<void> {
  for (const body of MEMORIES) await engram.remember({ body });
}

describe('settings sources', () => {
  it('names the file, an ENGRAM_ variable, an option and the default as sources', async () => {
    const { file } = configFile('recall:\n  weights:\n    graph: 0.7\n  k: 7\n');
    const engram = testEngram({
      configFile: file,
      env: { ENGRAM_RECALL_K: '9', ENGRAM_LIFECYCLE_USE_BOOST: '0.2' },
      embedder: null,
      config: { worker: { poll_ms: 5_000 } },
    });
    const view = await engram.settings();
    expect(setting(view, 'recall.weights.graph')).toMatchObject({ value: 0.7, source: 'file' });
    expect(setting(view, 'recall.k')).toMatchObject({ value: 9, source: 'env' });
    expect(setting(view, 'lifecycle.use_boost')).toMatchObject({ value: 0.2, source: 'env' });
    expect(setting(view, 'worker.poll_ms')).toMatchObject({ value: 5_000, source: 'option' });
    expect(setting(view, 'recall.weights.keyword')).toMatchObject({
      value: 1,
      source: 'default',
      changeable: true,
      configured: { value: 1, source: 'default' },
    });
    expect(setting(view, 'recall.k').changeable).toBe(false);
    expect(view.sections.map((s) => s.id)).toEqual([
      'recall',
      'decision',
      'auto_recall',
      'dormant',
      'lifecycle',
      'dream',
      'embedder',
      'graph',
      'store',
      'worker',
      'server',
    ]);
  });

  it('leaves what loadConfig returns as it was, and records the sources beside it', () => {
    const { file } = configFile('auto_recall:\n  mode: subtle\n');
    const config = loadConfig({ file, env: { ENGRAM_GRAPH_DEPTH: '3' } });
    expect(config.auto_recall.mode).toBe('subtle');
    expect(config.graph.depth).toBe(3);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.keys(config)).not.toContain('sources');
    expect(sourceOf(config, ['auto_recall', 'mode'])).toBe('file');
    expect(sourceOf(config, ['graph', 'depth'])).toBe('env');
    expect(sourceOf(config, ['graph', 'max_results'])).toBe('default');
  });

  it('never shows an API key, a token hash or a password', async () => {
    const hash = `sha256:${'ab'.repeat(32)}`;
    const { file } = configFile(
      [
        'embedder:',
        '  openai:',
        '    api_key: sk-file-secret-1234',
        '    base_url: https://user:url-secret-99@api.example.com/v1',
        'server:',
        '  tokens:',
        `    - { name: ops, hash: "${hash}", role: admin, spaces: ["*"] }`,
        '',
      ].join('\n'),
    );
    const engram = testEngram({
      configFile: file,
      env: {
        ENGRAM_RECALL_DECISION_OPENAI_API_KEY: 'sk-env-secret-5678',
        ENGRAM_STORE_URL:
          'postgres://engram:pg-secret-77@db.example.com/engram?sslpassword=pg-ssl-66',
      },
      embedder: null,
    });
    const view = await engram.settings();
    const body = JSON.stringify(view);
    for (const secret of [
      'sk-file-secret-1234',
      'sk-env-secret-5678',
      'url-secret-99',
      'pg-secret-77',
      'pg-ssl-66',
      'sha256:',
      'abab',
    ])
      expect(body).not.toContain(secret);
    expect(setting(view, 'embedder.openai.api_key')).toMatchObject({
      redacted: true,
      source: 'file',
    });
    expect(setting(view, 'recall.decision.openai.api_key')).toMatchObject({
      redacted: true,
      source: 'env',
    });
    expect(setting(view, 'server.tokens').value).toEqual(['ops (admin: *)']);
    expect(setting(view, 'store.url').value).toContain('db.example.com');
  });
});

describe('runtime settings', () => {
  it('a weight changed at run time persists, another engram on the store honours it, reset undoes it', async () => {
    const dir = tempDir();
    const one = testEngram({ dir, embedder: null });
    await seed(one);
    const before = await one.recall({ query: 'planning meeting tea' });
    expect(before.timings_ms.keyword).toBeDefined();
    expect(before.hits.some((h) => h.channels.keyword !== undefined)).toBe(true);

    const changed = await one.changeSettings({ 'recall.weights.keyword': 0 });
    expect(setting(changed, 'recall.weights.keyword')).toMatchObject({
      value: 0,
      source: 'runtime',
      configured: { value: 1, source: 'default' },
    });
    const two = testEngram({ dir, embedder: null });
    expect(setting(await two.settings(), 'recall.weights.keyword').source).toBe('runtime');
    for (const engram of [one, two]) {
      const after = await engram.recall({ query: 'planning meeting tea' });
      expect(after.timings_ms.keyword).toBeUndefined();
      expect(after.hits.every((h) => h.channels.keyword === undefined)).toBe(true);
    }
    // A search's own weights still win over the space's.
    const asked = await two.recall({ query: 'planning meeting tea', weights: { keyword: 1 } });
    expect(asked.timings_ms.keyword).toBeDefined();

    const reset = await two.changeSettings({ 'recall.weights.keyword': null });
    expect(setting(reset, 'recall.weights.keyword')).toMatchObject({ value: 1, source: 'default' });
    expect((await one.recall({ query: 'planning meeting tea' })).timings_ms.keyword).toBeDefined();
  });

  it('boosts and rerank changed at run time change scores and the rerank stage', async () => {
    const engram = testEngram();
    await seed(engram);
    const query = { query: 'planning meeting tea', rerank: false };
    const boosted = await engram.recall(query);
    await engram.changeSettings({
      'recall.boosts.recency': 0,
      'recall.boosts.importance': 0,
      'recall.boosts.strength': 0,
      'recall.boosts.frequency': 0,
    });
    const plain = await engram.recall(query);
    expect(plain.hits[0]!.id).toBe(boosted.hits[0]!.id);
    expect(plain.hits[0]!.score).toBeLessThan(boosted.hits[0]!.score);

    expect((await engram.recall({ query: 'planning' })).timings_ms.rerank).toBeDefined();
    await engram.changeSettings({ 'recall.rerank.enabled': false });
    expect((await engram.recall({ query: 'planning' })).timings_ms.rerank).toBeUndefined();
    expect(
      (await engram.recall({ query: 'planning', rerank: true })).timings_ms.rerank,
    ).toBeDefined();
  });

  it('keeps runtime settings per space', async () => {
    const engram = testEngram({ embedder: null });
    await engram.changeSettings({ 'recall.weights.graph': 2 }, { space: 'team-a' });
    expect(setting(await engram.settings({ space: 'team-a' }), 'recall.weights.graph').value).toBe(
      2,
    );
    expect(setting(await engram.settings(), 'recall.weights.graph').source).toBe('default');
  });

  it('shares auto-recall settings with configure_auto_recall', async () => {
    const engram = testEngram({ embedder: null });
    await engram.changeSettings({ 'auto_recall.mode': 'subtle', 'auto_recall.max_results': 5 });
    expect(await engram.autoRecallSettings()).toMatchObject({ mode: 'subtle', max_results: 5 });
    await engram.configureAutoRecall({ enabled: true });
    const view = await engram.settings();
    expect(setting(view, 'auto_recall.enabled')).toMatchObject({ value: true, source: 'runtime' });
    await engram.changeSettings({ 'auto_recall.mode': null });
    expect((await engram.autoRecallSettings()).mode).toBe('silent');
    expect(setting(await engram.settings(), 'auto_recall.mode').source).toBe('default');
  });

  it('turns dormant recall on and off at run time', async () => {
    const env = dormantEngram({ config: { dormant_recall: { mode: 'off' } } });
    await scene(env.engram, env.clock);
    await search(env.engram, QUERY);
    expect(rows(env.path, 'dormant_recall_events')).toEqual([]);
    await env.engram.changeSettings({ 'dormant_recall.mode': 'shadow' });
    expect((await env.engram.dormantReview()).mode).toBe('shadow');
    await search(env.engram, QUERY);
    expect(rows(env.path, 'dormant_recall_events')).toHaveLength(1);
    await env.engram.changeSettings({ 'dormant_recall.mode': null });
    expect((await env.engram.dormantReview()).mode).toBe('off');
    await search(env.engram, QUERY);
    expect(rows(env.path, 'dormant_recall_events')).toHaveLength(1);
  });

  it('refuses a bad value, a setting fixed at start, an unknown key and an empty change', async () => {
    const engram = testEngram({ embedder: null });
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ 'recall.weights.keyword': 11 }, 'recall.weights.keyword', /at most 10/],
      [{ 'recall.boosts.recency': 'high' }, 'recall.boosts.recency', /number/],
      [
        { 'recall.boosts.frequency_saturation': 2.5 },
        'recall.boosts.frequency_saturation',
        /whole/,
      ],
      [{ 'auto_recall.mode': 'loud' }, 'auto_recall.mode', /silent, subtle, interactive/],
      [{ 'dormant_recall.mode': 'visible' }, 'dormant_recall.mode', /shadow, off/],
      [{ 'recall.k': 3 }, 'recall.k', /configuration file.*restart/],
      [{ 'recall.nope': 3 }, 'recall.nope', /unknown key/],
      [{}, '(root)', /at least one setting/],
    ];
    for (const [change, field, rule] of cases) {
      const err = await failure(engram.changeSettings(change));
      expect(err.code).toBe('INVALID_INPUT');
      expect(err.details.field).toBe(field);
      expect(err.message).toMatch(rule);
    }
    expect(setting(await engram.settings(), 'recall.weights.keyword').source).toBe('default');
  });
});
