/**
 * The speaker boost end to end: `source.speaker` is kept, exported and validated, and a query
 * naming a speaker brings that speaker's own turns first among equally good candidates (bounded by
 * recall.boosts.speaker; 0 turns it off). On SQLite, and on PostgreSQL when ENGRAM_TEST_PG_URL is
 * set.
 */
import { describe, expect, it } from 'vitest';

import type { ConfigInput } from '../src/config/schema.js';
import { EngramError } from '../src/domain/errors.js';
import type { RememberInput } from '../src/domain/input.js';
import { BACKENDS } from './backends.js';
import { testEngram } from './helpers.js';

/** The same words from two speakers, the other one first in the store. */
const TURNS: RememberInput[] = [
  { body: 'I signed up for a pottery class last week.', speaker: 'Caroline' },
  { body: 'I signed up for a pottery class last week!', speaker: 'Melanie' },
  { body: 'We went camping by the lake.', speaker: 'Melanie' },
].map(({ body, speaker }, i) => ({
  body,
  kind: 'episode',
  source: { session: 's1', turn: i + 1, speaker },
}));

describe.each(BACKENDS)('the speaker boost ($name)', (backend) => {
  const engramOn = async (config: ConfigInput = {}) => {
    const engram = testEngram({ config: { ...config, ...backend.fresh() } });
    const results = await engram.rememberMany(TURNS);
    return { engram, ids: results.map((r) => (r.ok ? r.memory.id : '')) };
  };
  const query = 'Did Melanie sign up for a pottery class?';

  it("puts the named speaker's own turn first, and keeps the speaker with the memory", async () => {
    const { engram, ids } = await engramOn();
    const on = await engram.recall({ query, k: 3, rerank: false });
    expect(on.hits[0]!.id).toBe(ids[1]);
    const other = await engram.recall({ query: query.replace('Melanie', 'Caroline'), k: 3 });
    expect(other.hits[0]!.id).toBe(ids[0]);
    expect((await engram.get(ids[1]!)).source).toMatchObject({ speaker: 'Melanie' });
  });

  it('follows recall.boosts.speaker: 0 turns it off', async () => {
    const { engram } = await engramOn({ recall: { boosts: { speaker: 0 } } });
    const off = await engram.recall({ query, k: 3, rerank: false });
    const unnamed = await engram.recall({ query: 'Did she sign up for a pottery class?', k: 3 });
    // Without the boost, the order is the one a query naming nobody gets.
    expect(off.hits.slice(0, 2).map((h) => h.id)).toEqual(
      unnamed.hits.slice(0, 2).map((h) => h.id),
    );
  });

  it('refuses an empty speaker, naming the field', async () => {
    const engram = testEngram({ config: backend.fresh() });
    const err = await engram
      .remember({ body: 'x', source: { speaker: ' ' } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngramError);
    expect((err as EngramError).details).toMatchObject({ field: 'source.speaker' });
  });
});
