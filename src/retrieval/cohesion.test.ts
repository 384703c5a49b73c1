import { describe, expect, it } from 'vitest';

import { type SessionTurn, WRITE_ORDER } from '../store/store.js';
import { cohesionFactor, SessionCohesion } from './cohesion.js';
import { TurnIndex } from './turn-index.js';

/** Words by turn number: turn i holds its own word and the subject `subjectOf(i)`. */
function turns(n: number, subjectOf: (i: number) => string, extra: string[] = []) {
  return new Map(
    Array.from({ length: n }, (_, i) => [i, new Set([`own${i}`, subjectOf(i), ...extra])]),
  );
}

describe('cohesionFactor', () => {
  it('is 1 when turns close together share more words than turns far apart', () => {
    expect(cohesionFactor(turns(30, (i) => `subject${Math.floor(i / 4)}`))).toBe(1);
  });

  it('is 0 when turns close together share fewer words than turns far apart', () => {
    expect(cohesionFactor(turns(30, (i) => `subject${i % 7}`))).toBe(0);
  });

  it('leaves out words most turns hold (a speaker named in every turn)', () => {
    expect(cohesionFactor(turns(30, (i) => `subject${i % 7}`, ['caroline', 'said']))).toBe(0);
    expect(cohesionFactor(turns(30, (i) => `subject${Math.floor(i / 4)}`, ['caroline']))).toBe(1);
  });

  it('cannot tell from too few turns, or when no two turns share a word', () => {
    expect(cohesionFactor(turns(5, (i) => `subject${i % 2}`))).toBeUndefined();
    expect(cohesionFactor(turns(30, (i) => `alone${i}`))).toBeUndefined();
  });
});

/** A session of `n` turns with the given subjects, as the store reads them. */
function session(name: string, n: number, subjectOf: (i: number) => string): SessionTurn[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `${name}-${i}`,
    session: name,
    turn: i,
    body: `About ${subjectOf(i)}: noted ${name}${i}x.`,
  }));
}

describe('SessionCohesion', () => {
  const notes = session(
    'notes',
    40,
    (i) => ['tulips', 'boilers', 'ledgers', 'kayaks', 'ovens'][i % 5]!,
  );
  const talk = session(
    'talk',
    40,
    (i) => ['tulips', 'boilers', 'ledgers', 'kayaks'][Math.floor(i / 4) % 4]!,
  );
  const stored = [...notes, ...talk];
  const reader = () => {
    const asked: string[][] = [];
    const read = async (ids: readonly string[], window: number) => {
      asked.push([...ids]);
      const around = stored.filter((t) => ids.includes(t.id));
      return stored.filter((t) =>
        around.some((a) => a.session === t.session && Math.abs(a.turn - t.turn) <= window),
      );
    };
    return { asked, read };
  };

  it('scales each session by its cohesion, measuring it once', async () => {
    const cohesion = new SessionCohesion(() => 0);
    const index = new TurnIndex([notes[10]!, notes[11]!, talk[10]!, talk[11]!]);
    const { asked, read } = reader();
    const factors = await cohesion.factors(index, 'default', read);
    expect([...factors!]).toEqual([0, 0, 1, 1]);
    expect(asked).toHaveLength(1);
    expect(await cohesion.factors(index, 'default', read)).toEqual(factors);
    expect(asked).toHaveLength(1);
  });

  it('measures two sessions a recall, leaving the others their full weight until later', async () => {
    const many = [0, 1, 2].map((k) => session(`s${k}`, 40, (i) => `subject${i % 7}`));
    const cohesion = new SessionCohesion(() => 0);
    const index = new TurnIndex(many.map((s) => s[20]!));
    const read = async (ids: readonly string[], window: number) =>
      many.flat().filter((t) =>
        ids.some((id) => {
          const a = many.flat().find((x) => x.id === id)!;
          return a.session === t.session && Math.abs(a.turn - t.turn) <= window;
        }),
      );
    expect([...(await cohesion.factors(index, 'default', read))!]).toEqual([0, 0, 1]);
    expect([...(await cohesion.factors(index, 'default', read))!]).toEqual([0, 0, 0]);
  });

  it('measures write neighbours as one session of the space, in write order', async () => {
    // Store positions with gaps (other memories between), two runs: one factor for both.
    const asWritten = (turns: SessionTurn[]) =>
      turns.map((t) => ({ ...t, session: WRITE_ORDER, turn: 10 + 3 * t.turn }));
    const placed = (t: SessionTurn, run: number) => ({ ...t, session: `${WRITE_ORDER}#${run}` });
    for (const [turns, factor] of [
      [asWritten(notes), 0],
      [asWritten(talk), undefined],
    ] as const) {
      const cohesion = new SessionCohesion(() => 0);
      const index = new TurnIndex([placed(turns[10]!, 0), placed(turns[30]!, 1)]);
      const { read } = reader();
      const readWritten = async (ids: readonly string[], window: number) => {
        const at = turns.filter((t) => ids.includes(t.id)).map((t) => turns.indexOf(t));
        return turns.filter((_, i) => at.some((a) => Math.abs(a - i) <= window));
      };
      const factors = await cohesion.factors(index, 'default', read, readWritten);
      expect(factors && [...factors]).toEqual(factor === undefined ? undefined : [0, 0]);
    }
  });

  it('gives every turn its full weight when a read fails', async () => {
    const cohesion = new SessionCohesion(() => 0);
    const failing = async () => Promise.reject(new Error('store closed'));
    expect(await cohesion.factors(new TurnIndex([notes[3]!]), 'default', failing)).toBeUndefined();
    const written = { id: 'w', session: `${WRITE_ORDER}#0`, turn: 3, body: 'A note.' };
    const { read } = reader();
    expect(
      await cohesion.factors(new TurnIndex([written]), 'default', read, failing),
    ).toBeUndefined();
  });

  it('measures a session again once its factor is five minutes old', async () => {
    let now = 0;
    const cohesion = new SessionCohesion(() => now);
    const { asked, read } = reader();
    const index = new TurnIndex([talk[5]!]);
    await cohesion.factors(index, 'default', read);
    now = 4 * 60_000;
    await cohesion.factors(index, 'default', read);
    expect(asked).toHaveLength(1);
    now = 6 * 60_000;
    await cohesion.factors(index, 'default', read);
    expect(asked).toHaveLength(2);
  });
});
