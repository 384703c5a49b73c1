import { describe, expect, it } from 'vitest';

import type { SessionTurn } from '../../store/store.js';
import { TurnIndex } from '../turn-index.js';
import { nearbyTexts } from './rerank-stage.js';

const turn = (id: string, session: string, n: number): SessionTurn => ({
  id,
  session,
  turn: n,
  body: `${id} body`,
});

describe('nearbyTexts', () => {
  const positions = new TurnIndex([
    turn('a5', 'a', 5),
    turn('a3', 'a', 3),
    turn('a4', 'a', 4),
    turn('a6', 'a', 6),
    turn('a7', 'a', 7),
    turn('a8', 'a', 8),
    turn('a4b', 'a', 4),
    turn('b4', 'b', 4),
  ]);

  it('gives the turns within the window, nearest first, the earlier turn first at equal distance', () => {
    const out = nearbyTexts(['a5'], positions, 2);
    expect(out.get('a5')).toEqual(['a4 body', 'a4b body', 'a6 body', 'a3 body', 'a7 body']);
  });

  it('counts another item of the same turn as nearest, and keeps sessions apart', () => {
    expect(nearbyTexts(['a4'], positions, 1).get('a4')).toEqual(['a4b body', 'a3 body', 'a5 body']);
    expect(nearbyTexts(['b4'], positions, 3).has('b4')).toBe(false);
  });

  it('leaves out ids that are not turns, and the turns beyond the window', () => {
    const out = nearbyTexts(['a8', 'unknown'], positions, 1);
    expect([...out.keys()]).toEqual(['a8']);
    expect(out.get('a8')).toEqual(['a7 body']);
  });
});
