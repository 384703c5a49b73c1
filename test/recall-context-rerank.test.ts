/**
 * Session context and legacy reranking end to end: the store primitive that finds neighbouring
 * turns, recall lifting a terse turn through the turn before it (recorded as turns of a session,
 * or written one after the other with no session at all), and `rerank` on and off through
 * the recall API; on SQLite, and on PostgreSQL when ENGRAM_TEST_PG_URL is set.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import type { ConfigInput } from '../src/config/schema.js';
import { EngramError } from '../src/domain/errors.js';
import type { RememberInput } from '../src/domain/input.js';
import { openSqliteStore } from '../src/store/sqlite/sqlite-store.js';
import type { Store } from '../src/store/store.js';
import { BACKENDS } from './backends.js';
import { draft } from './fixtures/store-records.js';
import { testEngram } from './helpers.js';
import { PG_URL, schemaStore } from './postgres-helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

function openSqlite(): Store {
  const dir = mkdtempSync(join(tmpdir(), 'engram-context-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const store = openSqliteStore({ path: join(dir, 'engram.db') });
  cleanups.push(() => store.close());
  return store;
}

function openPostgres(): Store {
  const opened = schemaStore();
  cleanups.push(() => opened.cleanup());
  return opened.store;
}

/** Stores opened directly, one per backend. */
const STORES: { name: string; open(): Store }[] = [
  { name: 'sqlite', open: openSqlite },
  ...(PG_URL ? [{ name: 'postgres', open: openPostgres }] : []),
];

const ACTIVE = { space: 'default', statuses: ['active', 'challenged'] } as const;

describe.each(STORES)('session neighbours ($name)', ({ open }) => {
  it('returns the turns within the window in the same session and space, filters applied', async () => {
    const store = open();
    const turn = (session: string, n: number, extra = {}) =>
      draft({ body: `${session} turn ${n}`, source: { session, turn: n }, ...extra });
    const drafts = [
      ...[1, 2, 3, 5, 6].map((n) => turn('s1', n)),
      turn('s1', 4, { status: 'forgotten' }),
      turn('s2', 3),
      turn('s1', 2, { space: 'other' }),
      draft({ body: 'no provenance' }),
      draft({ body: 'session without turn', source: { session: 's1' } }),
    ];
    const [, , seed, , , , , , plain] = (await store.createItems(drafts)).map((o) => o.item);
    const around = await store.sessionNeighbors!(ACTIVE, [seed!.id], 2);
    expect(around.map((t) => `${t.session}:${t.turn}:${t.body}`).sort()).toEqual([
      's1:1:s1 turn 1',
      's1:2:s1 turn 2',
      's1:3:s1 turn 3',
      's1:5:s1 turn 5',
    ]);
    expect(await store.sessionNeighbors!(ACTIVE, [seed!.id], 0)).toEqual([
      { id: seed!.id, session: 's1', turn: 3, body: 's1 turn 3' },
    ]);
    expect(await store.sessionNeighbors!(ACTIVE, [plain!.id], 3)).toEqual([]);
    expect(await store.sessionNeighbors!({ ...ACTIVE, space: 'other' }, [seed!.id], 3)).toEqual([]);
  });

  it('counts only notes and episodes as turns: a fact or a rule in a session is neither seed nor neighbour', async () => {
    const store = open();
    const created = (
      await store.createItems([
        draft({ body: 'note 1', source: { session: 's', turn: 1 } }),
        draft({ body: 'fact 2', kind: 'fact', source: { session: 's', turn: 2 } }),
        draft({ body: 'episode 3', kind: 'episode', source: { session: 's', turn: 3 } }),
        draft({ body: 'rule 4', kind: 'rule', source: { session: 's', turn: 4 } }),
        draft({ body: 'preference 5', kind: 'preference', source: { session: 's', turn: 5 } }),
      ])
    ).map((o) => o.item);
    const bodies = async (seed: number) =>
      (await store.sessionNeighbors!(ACTIVE, [created[seed]!.id], 2)).map((t) => t.body).sort();
    expect(await bodies(2)).toEqual(['episode 3', 'note 1']);
    expect(await bodies(1)).toEqual([]);
    expect(await bodies(3)).toEqual([]);
  });

  it('reads each turn once when many seeds have overlapping windows, in several sessions', async () => {
    const store = open();
    const turns = ['a', 'b', 'c'].flatMap((session) =>
      Array.from({ length: 40 }, (_, n) => ({ session, turn: n + 1 })),
    );
    const created = (
      await store.createItems(
        turns.map((t) => draft({ body: `${t.session} ${t.turn}`, source: { ...t } })),
      )
    ).map((o) => o.item);
    const at = (session: string, turn: number) =>
      created[turns.findIndex((t) => t.session === session && t.turn === turn)]!;
    // Overlapping windows (a 10, 11, 13), touching ones (a 20 and 25 with window 2), a lone one
    // (b 1, clipped at the session's start) and windows in a third session (c 38, 40).
    const seeds = [
      ['a', 10],
      ['a', 11],
      ['a', 13],
      ['a', 20],
      ['a', 25],
      ['b', 1],
      ['c', 38],
      ['c', 40],
    ] as const;
    for (const window of [0, 1, 2]) {
      const found = await store.sessionNeighbors!(
        ACTIVE,
        seeds.map(([s, n]) => at(s, n).id),
        window,
      );
      const expected = turns.filter((t) =>
        seeds.some(([s, n]) => s === t.session && Math.abs(n - t.turn) <= window),
      );
      expect(found.map((t) => `${t.session} ${t.turn}`).sort()).toEqual(
        expected.map((t) => `${t.session} ${t.turn}`).sort(),
      );
      expect(
        found.every(
          (t) => t.body === `${t.session} ${t.turn}` && t.id === at(t.session, t.turn).id,
        ),
      ).toBe(true);
    }
  });
});

/** A short chat: Ann's answer only makes sense next to Ben's question. */
function chat(session: string, lines: [string, string][]): RememberInput[] {
  return lines.map(([speaker, text], i) => ({
    body: `${speaker} said, "${text}"`,
    kind: 'episode',
    source: { session, turn: i + 1 },
  }));
}

const CHATS: RememberInput[] = [
  ...chat('monday', [
    ['Ben', 'Did you finally buy the kayak you wanted?'],
    ['Ann', 'Yes! Got it on Saturday, it is bright orange.'],
    ['Ben', 'Nice, see you at practice.'],
  ]),
  ...chat('tuesday', [
    ['Ann', 'The weather was lovely on Saturday.'],
    ['Ben', 'Ann, how was the concert?'],
    ['Ann', 'Loud, but I loved every minute of it.'],
  ]),
  ...chat('wednesday', [
    ['Ann', 'I repainted the garden fence.'],
    ['Ben', 'Ann, you should rest this weekend.'],
  ]),
];

async function stored(engram: Engram): Promise<string[]> {
  const results = await engram.rememberMany(CHATS);
  return results.map((r) => (r.ok ? r.memory.id : ''));
}

const rankOf = (hits: { id: string }[], id: string) => hits.findIndex((h) => h.id === id);

describe.each(BACKENDS)('recall with session context ($name)', (backend) => {
  const on = (config: ConfigInput = {}) =>
    testEngram({ config: { ...config, ...backend.fresh() } });

  it('lifts a turn through the evidence of the turn before it, and only from visible turns', async () => {
    const question = 'When did Ann pick up the kayak?';
    const withContext = on({ recall: { rerank: { enabled: false } } });
    const ids = await stored(withContext);
    const answer = ids[1]!;
    const lifted = await withContext.recall({ query: question, k: 8, weights: { vector: 0 } });
    const without = on({ recall: { context: { window: 0 }, rerank: { enabled: false } } });
    const plainIds = await stored(without);
    const plain = await without.recall({ query: question, k: 8, weights: { vector: 0 } });
    expect(rankOf(lifted.hits, answer)).toBeGreaterThanOrEqual(0);
    expect(rankOf(lifted.hits, answer)).toBeLessThan(rankOf(plain.hits, plainIds[1]!));
    expect(lifted.timings_ms.context).toBeGreaterThanOrEqual(0);

    // A forgotten question lends nothing and is never recalled as context.
    await withContext.forget(ids[0]!);
    const after = await withContext.recall({ query: question, k: 8, weights: { vector: 0 } });
    expect(after.hits.map((h) => h.id)).not.toContain(ids[0]);
    expect(rankOf(after.hits, answer)).toBeGreaterThan(rankOf(lifted.hits, answer));
  });
});

describe.each(BACKENDS)(
  'recall over facts written through one session handle ($name)',
  (backend) => {
    it('lends no evidence between facts stamped with one session, as between facts written apart', async () => {
      const facts = [
        'The billing service deploys every Friday afternoon.',
        'Priya is allergic to peanuts.',
        'The staging database runs PostgreSQL 15.',
      ];
      const recallOf = async (engram: Engram) =>
        (await engram.recall({ query: 'When does billing deploy?', k: 5, weights: { vector: 0 } }))
          .hits;
      const handled = testEngram({ config: backend.fresh() });
      const session = await handled.writeSession();
      const viaSession = await session.rememberMany(facts.map((body) => ({ body, kind: 'fact' })));
      expect(viaSession.every((r) => r.ok && r.memory.source?.session === session.id)).toBe(true);
      const apart = testEngram({ config: backend.fresh() });
      await apart.rememberMany(facts.map((body) => ({ body, kind: 'fact' })));
      const hits = await recallOf(handled);
      expect(hits.map((h) => h.body)).toEqual([facts[0]]);
      expect(hits.map((h) => h.body)).toEqual((await recallOf(apart)).map((h) => h.body));
    });
  },
);

describe.each(BACKENDS)('recall with write neighbourhoods ($name)', (backend) => {
  const on = (config: ConfigInput = {}) =>
    testEngram({ config: { ...config, ...backend.fresh() } });
  const noRerank = { rerank: { enabled: false } };
  const question = 'When did Ann pick up the kayak?';
  const ask = (engram: Engram) => engram.recall({ query: question, k: 8, weights: { vector: 0 } });
  /** The chats as bodies alone (no session, no turn), the kayak answer `apart` ms after the rest. */
  async function bodies(engram: Engram, apart = 0): Promise<string[]> {
    const t0 = Date.parse('2026-03-02T10:00:00Z');
    const results = await engram.rememberMany(
      CHATS.map((c, i) => ({
        body: c.body,
        kind: 'episode',
        created_at: new Date(t0 + i * 60_000 + (i >= 1 ? apart : 0)).toISOString(),
      })),
    );
    return results.map((r) => (r.ok ? r.memory.id : ''));
  }

  it('lifts a memory written with no session through the memory written just before it', async () => {
    const written = on({ recall: noRerank });
    const answer = (await bodies(written))[1]!;
    const lifted = await ask(written);
    const off = on({ recall: { ...noRerank, context: { write_gap_ms: 0 } } });
    const plainAnswer = (await bodies(off))[1]!;
    const plain = await ask(off);
    // "Yes! Got it on Saturday" shares no word with the question but follows the one that asks.
    expect(rankOf(lifted.hits, answer)).toBeGreaterThanOrEqual(0);
    const before = rankOf(plain.hits, plainAnswer);
    if (before >= 0) expect(rankOf(lifted.hits, answer)).toBeLessThan(before);
  });

  it('a pause longer than recall.context.write_gap_ms ends the neighbourhood', async () => {
    const later = on({ recall: noRerank });
    const answer = (await bodies(later, 2 * 3_600_000))[1]!;
    const off = on({ recall: { ...noRerank, context: { write_gap_ms: 0 } } });
    const plainAnswer = (await bodies(off, 2 * 3_600_000))[1]!;
    expect(rankOf((await ask(later)).hits, answer)).toBe(
      rankOf((await ask(off)).hits, plainAnswer),
    );
    // With a gap wider than the pause, the two are neighbours again.
    const wide = on({ recall: { ...noRerank, context: { write_gap_ms: 3 * 3_600_000 } } });
    const wideAnswer = (await bodies(wide, 2 * 3_600_000))[1]!;
    expect(rankOf((await ask(wide)).hits, wideAnswer)).toBeGreaterThanOrEqual(0);
  });
});

describe.each(BACKENDS)('recall with rerank ($name)', (backend) => {
  const engramOn = (config: ConfigInput = {}) =>
    testEngram({ config: { ...config, ...backend.fresh() } });

  it('reorders with the alignment scorer when asked, and not when turned off', async () => {
    const engram = engramOn();
    await stored(engram);
    const query = 'What colour is the boat Ann bought?';
    const on = await engram.recall({ query, k: 8 });
    const off = await engram.recall({ query, k: 8, rerank: false });
    expect(on.timings_ms.rerank).toBeGreaterThanOrEqual(0);
    expect(off.timings_ms.rerank).toBeUndefined();
    // Relevance changes order, never eligibility.
    expect(new Set(on.hits.map((h) => h.id))).toEqual(new Set(off.hits.map((h) => h.id)));
    for (const hit of on.hits) {
      expect(hit.score).toBeGreaterThanOrEqual(0);
      expect(hit.score).toBeLessThanOrEqual(1);
    }
    const scores = on.hits.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    // The reranker reads "bright orange" with "kayak" beside it, close to "colour" and "boat".
    const answer = (hits: typeof on.hits) => hits.findIndex((h) => h.body.includes('orange'));
    expect(answer(on.hits)).toBe(0);
    expect(answer(off.hits)).toBeGreaterThan(0);
    expect(on.decision).toEqual({ state: 'off' });
  });

  it('runs when a request asks for it although the configuration turns it off', async () => {
    const engram = engramOn({ recall: { rerank: { enabled: false } } });
    await stored(engram);
    expect((await engram.recall({ query: 'kayak' })).timings_ms.rerank).toBeUndefined();
    expect((await engram.recall({ query: 'kayak', rerank: true })).timings_ms.rerank).toBeDefined();
  });

  it('answers with the first-stage order when no scorer is available', async () => {
    const engram = engramOn({ embedder: { provider: 'none' } });
    await stored(engram);
    const result = await engram.recall({ query: 'kayak', rerank: true });
    expect(result.hits.length).toBeGreaterThan(0);
    expect(result.timings_ms.rerank).toBeUndefined();
  });

  it('refuses a rerank flag that is not a boolean, naming the field', async () => {
    const engram = engramOn();
    const err = await engram.recall({ query: 'kayak', rerank: 'yes' as never }).catch((e) => e);
    expect(err).toBeInstanceOf(EngramError);
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.details.field).toBe('rerank');
  });
});
