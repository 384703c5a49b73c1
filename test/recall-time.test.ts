/**
 * The time channel end to end: a query naming a date (or a relative time, read against the
 * recall's clock) finds the memories created around it
 * (recall.time.before_days before, after_days after), with session context spreading its evidence
 * to the turns beside them; a query naming no date, or the channel weighted 0, leaves recall as it
 * was. On SQLite, and on PostgreSQL when ENGRAM_TEST_PG_URL is set.
 */
import { describe, expect, it } from 'vitest';

import type { ConfigInput } from '../src/config/schema.js';
import { EngramError } from '../src/domain/errors.js';
import type { RememberInput } from '../src/domain/input.js';
import { BACKENDS } from './backends.js';
import { testEngram } from './helpers.js';

const at = (day: string) => `${day}T18:00:00.000Z`;

/** Sam's hikes at several dates around 4 December 2023, and a reply beside the one the day after. */
const MEMORIES: RememberInput[] = [
  { body: 'Sam said, "I went hiking in the hills."', created_at: at('2023-06-10') },
  { body: 'Sam said, "Hiking again, by the lake this time."', created_at: at('2023-12-01') },
  {
    body: 'Sam said, "Yesterday I went hiking with friends."',
    created_at: at('2023-12-05'),
    source: { session: 'dec', turn: 1 },
  },
  {
    body: 'Ben said, "That sounds lovely!"',
    created_at: at('2023-12-05'),
    source: { session: 'dec', turn: 2 },
  },
  { body: 'Sam said, "Another hike, up north."', created_at: at('2023-12-11') },
  { body: 'Sam said, "Hiking in the snow."', created_at: at('2023-12-13') },
].map((m) => ({ kind: 'episode', ...m }));

const QUESTION = 'What was Sam doing on December 4, 2023?';

describe.each(BACKENDS)('the time channel ($name)', (backend) => {
  const engramOn = async (config: ConfigInput = {}) => {
    const engram = testEngram({ config: { ...config, ...backend.fresh() } });
    const results = await engram.rememberMany(MEMORIES);
    await engram.idle();
    return { engram, ids: results.map((r) => (r.ok ? r.memory.id : '')) };
  };

  it('finds the memories created around the date the query names, before the others', async () => {
    const { engram, ids } = await engramOn();
    const result = await engram.recall({ query: QUESTION, k: 10, rerank: false });
    const timed = result.hits.filter((h) => h.channels.time !== undefined).map((h) => h.id);
    // From one day before to seven days after 4 December: 5 and 11 December, and the reply
    // beside the 5 December turn through session context; not 1 or 13 December, nor June.
    expect(new Set(timed)).toEqual(new Set([ids[2], ids[3], ids[4]]));
    // Every memory names Sam; those of the named time come before the others.
    const order = result.hits.map((h) => h.id);
    for (const id of timed)
      for (const other of [ids[0], ids[1], ids[5]])
        expect(order.indexOf(id!)).toBeLessThan(order.indexOf(other!));
    expect(result.hits[0]!.channels.time).toBe(1);
    expect(result.degraded).toEqual([]);
  });

  it('follows recall.time and keeps the caller filters inside the window', async () => {
    const { engram, ids } = await engramOn({ recall: { time: { before_days: 4, after_days: 0 } } });
    const wide = await engram.recall({ query: QUESTION, k: 10, rerank: false });
    const timed = (hits: typeof wide.hits) =>
      new Set(hits.filter((h) => h.channels.time !== undefined).map((h) => h.id));
    expect(timed(wide.hits)).toEqual(new Set([ids[1]]));
    const filtered = await engram.recall({
      query: QUESTION,
      k: 10,
      rerank: false,
      created_after: at('2023-12-02'),
    });
    expect(timed(filtered.hits)).toEqual(new Set());
  });

  it('adds nothing without a date in the query, or with its weight 0', async () => {
    const { engram } = await engramOn();
    const undated = await engram.recall({ query: 'What was Sam doing?', k: 10 });
    expect(undated.hits.length).toBeGreaterThan(0);
    expect(undated.hits.every((h) => h.channels.time === undefined)).toBe(true);
    const off = await engram.recall({ query: QUESTION, k: 10, weights: { time: 0 } });
    expect(off.hits.every((h) => h.channels.time === undefined)).toBe(true);
    const err = await engram
      .recall({ query: QUESTION, weights: { time: -1 } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngramError);
    expect((err as EngramError).details).toMatchObject({ field: 'weights.time' });
  });

  it("reads relative times against the recall's clock", async () => {
    const now = Date.parse('2026-11-29T15:00:00Z');
    const engram = testEngram({ config: backend.fresh(), now: () => now });
    const results = await engram.rememberMany(
      [
        ['Sam said, "Hiking again today, so much mud."', '2026-11-29T09:00:00Z'],
        ['Sam said, "Hiking with the club was great."', '2026-11-28T10:00:00Z'],
        ['Sam said, "Hiking in the snow."', '2026-10-01T10:00:00Z'],
      ].map(([body, created_at]) => ({ body: body!, created_at, kind: 'episode' as const })),
    );
    const ids = results.map((r) => (r.ok ? r.memory.id : ''));
    const timed = async (query: string) =>
      new Set(
        (await engram.recall({ query, k: 10, rerank: false })).hits
          .filter((h) => h.channels.time !== undefined)
          .map((h) => h.id),
      );
    expect(await timed('What did Sam do yesterday?')).toEqual(new Set([ids[0], ids[1]]));
    expect(await timed('Where did Sam go hiking two months ago?')).toEqual(new Set([ids[2]]));
  });
});
