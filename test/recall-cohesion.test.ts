/**
 * Session context follows a session's cohesion (src/retrieval/cohesion.ts): notes written through
 * one session handle (as one MCP connection writes them), or in a row with no session at all, lend
 * each other no evidence when their text shows them unrelated, while the same notes written as a
 * conversation (each subject kept up for a few turns) still do. The same texts are stored both
 * ways; only their order differs.
 */
import { describe, expect, it } from 'vitest';

import type { Engram } from '../src/app.js';
import { BACKENDS } from './backends.js';
import { testEngram } from './helpers.js';

const SUBJECTS = ['garage door', 'dentist visit', 'team budget', 'garden shed', 'tax forms'];
const WORDS = [
  'anchor', 'bramble', 'cobalt', 'dahlia', 'ember', 'fjord', 'garnet', 'harbor', 'indigo',
  'juniper', 'kestrel', 'lantern', 'meadow', 'nectar', 'opal', 'pewter', 'quartz', 'russet',
  'saffron', 'thistle', 'umber', 'velvet', 'willow', 'yarrow', 'zephyr', 'alder', 'birch',
  'cedar', 'dune', 'elm',
]; // prettier-ignore

/** Turn `i`'s text, about `subject`. */
const text = (i: number, subject: string) => `About the ${subject}: remember ${WORDS[i]}.`;

/** Unrelated notes: no two notes one or two apart share a subject. */
const notes = WORDS.map((_, i) => text(i, SUBJECTS[i % SUBJECTS.length]!));
/** A conversation: each subject kept up for three turns in a row. */
const conversation = WORDS.map((_, i) => text(i, SUBJECTS[Math.floor(i / 3) % SUBJECTS.length]!));

describe.each(BACKENDS)('session context and a session’s cohesion ($name)', (backend) => {
  async function written(bodies: readonly string[], through: 'session' | 'batch' = 'session') {
    const engram = testEngram({
      config: {
        ...backend.fresh(),
        graph: { enabled: false },
        recall: { rerank: { enabled: false } },
      },
    });
    const writer = through === 'session' ? await engram.writeSession() : engram;
    const results = await writer.rememberMany(bodies.map((body) => ({ body })));
    expect(results.every((r) => r.ok)).toBe(true);
    return engram;
  }
  const ask = async (engram: Engram) =>
    (await engram.recall({ query: 'saffron', k: 5, weights: { vector: 0 } })).hits.map(
      (h) => h.body,
    );

  it('lends no evidence between unrelated notes of one session, and still does in a conversation', async () => {
    const i = WORDS.indexOf('saffron');
    expect(await ask(await written(notes))).toEqual([notes[i]]);
    const turns = await ask(await written(conversation));
    expect(turns[0]).toBe(conversation[i]);
    expect(turns).toContain(conversation[i - 1]);
    expect(turns).toContain(conversation[i + 1]);
  });

  it('does the same for notes written in a row with no session (write neighbours)', async () => {
    const i = WORDS.indexOf('saffron');
    expect(await ask(await written(notes, 'batch'))).toEqual([notes[i]]);
    // A write neighbour joins the results from one write away, right after a hit.
    const turns = await ask(await written(conversation, 'batch'));
    expect(turns[0]).toBe(conversation[i]);
    expect(turns).toContain(conversation[i + 1]);
  });
});
