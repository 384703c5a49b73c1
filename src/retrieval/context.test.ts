import { describe, expect, it } from 'vitest';

import { type SessionTurn, WRITE_ORDER } from '../store/store.js';
import { spreadAlongSessions } from './context.js';
import { TurnIndex } from './turn-index.js';

const turn = (id: string, session: string, n: number): SessionTurn => ({
  id,
  session,
  turn: n,
  body: id,
});
// Session s: a1..a5 at turns 1..5; session t: b1 at turn 2 (next to nothing in s).
const positions = new TurnIndex(
  [1, 2, 3, 4, 5].map((n) => turn(`a${n}`, 's', n)).concat(turn('b1', 't', 2)),
);
const options = { window: 2, weight: 0.5, decay: 0.5 };

describe('spreadAlongSessions', () => {
  it('lends each turn a decayed share of nearby turns of the same session', () => {
    const out = spreadAlongSessions([{ id: 'a3', score: 4 }], positions, options);
    const score = Object.fromEntries(out.map((h) => [h.id, h.score]));
    expect(score).toEqual({
      a3: 4,
      a2: 0.5 * 4,
      a4: 0.5 * 4,
      a1: 0.5 * 0.5 * 4,
      a5: 0.5 * 0.5 * 4,
    });
    expect(out[0]!.id).toBe('a3');
  });

  it('adds the evidence of both sides to a turn and never crosses sessions', () => {
    const out = spreadAlongSessions(
      [
        { id: 'a1', score: 2 },
        { id: 'a3', score: 2 },
        { id: 'b1', score: 1 },
      ],
      positions,
      options,
    );
    const score = Object.fromEntries(out.map((h) => [h.id, h.score]));
    // a2 sits between two hits; b1 gains nothing from session s.
    expect(score.a2).toBeCloseTo(0.5 * 2 + 0.5 * 2);
    expect(score.a1).toBeCloseTo(2 + 0.5 * 0.5 * 2);
    expect(score.a3).toBeCloseTo(2 + 0.5 * 0.5 * 2);
    expect(score.b1).toBe(1);
    // a1 and a3 tie: the channel's order stands.
    expect(out.map((h) => h.id).slice(0, 3)).toEqual(['a1', 'a3', 'a2']);
  });

  it('leaves items that are not conversation turns as they are, and is off at window 0', () => {
    const list = [
      { id: 'x', score: 3 },
      { id: 'a3', score: 1 },
    ];
    const out = spreadAlongSessions(list, positions, options);
    expect(out.find((h) => h.id === 'x')?.score).toBe(3);
    expect(spreadAlongSessions(list, positions, { ...options, window: 0 })).toEqual(list);
    expect(spreadAlongSessions(list, new TurnIndex([]), options)).toEqual(list);
  });

  it('keeps the channel order on ties', () => {
    const out = spreadAlongSessions(
      [
        { id: 'b1', score: 1 },
        { id: 'a5', score: 1 },
      ],
      positions,
      { window: 1, weight: 0.5, decay: 1 },
    );
    expect(out.map((h) => h.id)).toEqual(['b1', 'a5', 'a4']);
  });

  it('lets write neighbours lend evidence only one write apart, on the list or off it', () => {
    const run = `${WRITE_ORDER}#0`;
    const written = new TurnIndex([1, 2, 3, 4, 5].map((n) => turn(`w${n}`, run, n)));
    const out = spreadAlongSessions([{ id: 'w3', score: 4 }], written, options);
    expect(Object.fromEntries(out.map((h) => [h.id, h.score]))).toEqual({
      w3: 4,
      w2: 0.5 * 4,
      w4: 0.5 * 4,
    });
    // Already on the list, a write neighbour takes evidence from its next writes only: w5 none
    // from w3, two writes away.
    const listed = spreadAlongSessions(
      [
        { id: 'w3', score: 4 },
        { id: 'w5', score: 1 },
      ],
      written,
      options,
    );
    expect(Object.fromEntries(listed.map((h) => [h.id, h.score]))).toEqual({
      w3: 4,
      w5: 1,
      w2: 0.5 * 4,
      w4: 0.5 * (4 + 1),
    });
  });
});
