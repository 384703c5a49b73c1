/**
 * The vector backfill as background work (§11): an item the embedder fails on is recorded on that
 * item and never holds the others back; it is retried with back-off, then waits for an explicit
 * retry or a new version; an embedder that fails on everything fails the job instead of blaming
 * items. The embedder here is a double that fails on chosen texts (a real model cannot be made to).
 */
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import type { ConfigInput } from '../src/config/schema.js';
import type { Embedder } from '../src/embed/embedder.js';
import { StaticEmbedder } from '../src/embed/static/static-embedder.js';
import { testCacheDir } from './cache-dir.js';
import { tempDir, testEngram } from './helpers.js';

/** A real static embedder that throws for any batch holding a text that `fails` matches. */
function failingEmbedder(fails: (text: string) => boolean): Embedder & { calls: string[][] } {
  const real = new StaticEmbedder({ cacheDir: testCacheDir() });
  const calls: string[][] = [];
  return {
    calls,
    modelId: real.modelId,
    dimension: real.dimension,
    prepare: () => real.prepare(),
    async embed(texts) {
      calls.push([...texts]);
      if (texts.some(fails)) throw new Error('cannot embed');
      return real.embed(texts);
    },
    state: () => real.state(),
    close: () => real.close(),
  };
}

/** Stores three items vector-pending (written with no embedder), then reopens with `embedder`. */
async function threePending(
  embedder: Embedder,
  config: ConfigInput = {},
): Promise<{ engram: Engram; ids: string[] }> {
  const dir = tempDir();
  const writer = testEngram({ dir, embedder: null });
  const ids: string[] = [];
  for (const body of ['Alice likes tea.', 'POISON pill text.', 'Bob rides a bike.'])
    ids.push((await writer.remember({ body })).memory.id);
  await writer.close();
  const engram = testEngram({ dir, embedder, config });
  return { engram, ids };
}

describe('vector backfill with a failing item (SQLite)', () => {
  it('fills the good items, records the bad one, and retries it only when due', async () => {
    const embedder = failingEmbedder((t) => t.includes('POISON'));
    const { engram, ids } = await threePending(embedder, {
      worker: { item_max_attempts: 2, retry_base_ms: 60_000 },
    });
    expect(await engram.backfill()).toBe(2);
    expect((await engram.get(ids[0]!)).vector).toBe('ready');
    expect((await engram.get(ids[2]!)).vector).toBe('ready');
    expect((await engram.get(ids[1]!)).vector).toBe('pending');

    const [failure] = await engram.itemFailures();
    expect(failure).toMatchObject({ item_id: ids[1], work: 'vector', attempts: 1, version: 1 });
    expect(failure!.last_error).toContain('cannot embed');
    expect(failure!.next_attempt_at).not.toBeNull();

    // Not due yet: the next pass does not touch it.
    const callsBefore = embedder.calls.length;
    expect(await engram.backfill()).toBe(0);
    expect(embedder.calls.length).toBe(callsBefore);

    // Made due with a fresh budget: tried once more, and recorded again with a retry time.
    expect(await engram.retryItemFailures({ ids: [ids[1]!] })).toBe(1);
    expect(await engram.backfill()).toBe(0);
    const [exhausted] = await engram.itemFailures();
    expect(exhausted).toMatchObject({ attempts: 1, next_attempt_at: expect.any(String) });
  });

  it('leaves an item whose attempts are used up until an explicit retry or a new version', async () => {
    const embedder = failingEmbedder((t) => t.includes('POISON'));
    const { engram, ids } = await threePending(embedder, { worker: { item_max_attempts: 1 } });
    await engram.backfill();
    const [failure] = await engram.itemFailures();
    expect(failure).toMatchObject({ item_id: ids[1], attempts: 1, next_attempt_at: null });
    const activity = await engram.jobActivity();
    expect(activity.item_failures).toEqual([
      expect.objectContaining({ work: 'vector', count: 1, exhausted: 1, item_ids: [ids[1]] }),
    ]);
    expect(await engram.backfill()).toBe(0);

    // A new version is tried afresh; once it embeds, its failure is forgotten.
    await engram.revise(ids[1]!, { body: 'A harmless text now.' });
    await engram.backfill();
    expect((await engram.get(ids[1]!)).vector).toBe('ready');
    expect(await engram.itemFailures()).toEqual([]);
  });

  it('fails the run, blaming no item, when the embedder fails on every item', async () => {
    const embedder = failingEmbedder(() => true);
    const { engram } = await threePending(embedder);
    await expect(engram.backfill()).rejects.toThrow('cannot embed');
    expect(await engram.itemFailures()).toEqual([]);
  });

  it('runs the backfill as a job: the job succeeds with the good items filled', async () => {
    const embedder = failingEmbedder((t) => t.includes('POISON'));
    const { engram, ids } = await threePending(embedder);
    const job = await engram.runJobHere({
      kind: 'vectors.backfill',
      dedupe_key: 'vectors.backfill',
    });
    expect(job).toMatchObject({ state: 'succeeded', progress: { filled: 2 }, attempts: 0 });
    expect((await engram.get(ids[2]!)).vector).toBe('ready');
    expect((await engram.jobActivity()).item_failures[0]).toMatchObject({ count: 1 });
  });
});
