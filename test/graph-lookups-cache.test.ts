// SQLite graph entity lookups (by key, by first word) are kept between recalls while nothing in
// the database changes: the same answers as the store's queries, copies a caller may change, and
// a write to the graph seen at once.
import { describe, expect, it } from 'vitest';

import { testEngram } from './helpers.js';

describe('graph entity lookups kept between recalls', () => {
  it('answer as the queries do, hand out copies, and follow graph writes', async () => {
    const engram = testEngram({
      config: { embedder: { provider: 'none' }, graph: { worker: false } },
    });
    await engram.rememberMany([
      { body: 'Alice Johnson leads Project Phoenix with Bob Stone.' },
      { body: 'Zed Quark visited Atlantis Station with Alice Johnson.' },
    ]);
    await engram.idle();
    const graph = engram.storeForTransfer.graph!;
    const keys = ['project phoenix', 'alice johnson', 'zed quark', 'nobody here', 'alice johnson'];
    const first = await graph.entitiesByKey('default', keys);
    expect(first.map((e) => e.key)).toEqual(['alice johnson', 'project phoenix', 'zed quark']);
    const byWord = await graph.entitiesByFirstWord('default', ['alice', 'zed', 'alice'], 8);
    expect(byWord.map((e) => e.key)).toEqual(['alice johnson', 'zed quark', 'alice johnson']);

    // Kept answers are copies: changing one changes nothing the store answers next.
    first[0]!.mentions = 999;
    byWord[0]!.key = 'changed';
    expect((await graph.entitiesByKey('default', keys)).map((e) => [e.key, e.mentions])).toEqual(
      (await graph.entitiesByKey('default', ['zed quark', 'project phoenix', 'alice johnson'])).map(
        (e) => [e.key, e.mentions],
      ),
    );
    expect((await graph.entitiesByKey('default', ['alice johnson']))[0]!.mentions).toBe(2);
    expect((await graph.entitiesByFirstWord('default', ['alice'], 8))[0]!.key).toBe(
      'alice johnson',
    );

    // A write that adds an entity and a mention is seen by the next lookup.
    await engram.remember({ body: 'Alice Wong leads Project Atlas with Alice Johnson.' });
    await engram.idle();
    const after = await graph.entitiesByFirstWord('default', ['alice'], 8);
    expect(after.map((e) => e.key).sort()).toEqual(['alice johnson', 'alice wong']);
    expect((await graph.entitiesByKey('default', ['alice johnson']))[0]!.mentions).toBe(3);
    // Recall finds the new entity's memory through the graph channel.
    const hits = await engram.recall({ query: 'Alice Wong' });
    expect(hits.hits.some((h) => h.body.startsWith('Alice Wong'))).toBe(true);
  });
});
