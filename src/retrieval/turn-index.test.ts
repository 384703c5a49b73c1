import { describe, expect, it } from 'vitest';

import { type SessionTurn, WRITE_ORDER } from '../store/store.js';
import { TurnIndex } from './turn-index.js';

const turn = (id: string, session: string, n: number): SessionTurn => ({
  id,
  session,
  turn: n,
  body: id,
});

describe('TurnIndex', () => {
  const index = new TurnIndex([
    turn('a2', 's', 2),
    turn('a1', 's', 1),
    turn('a2b', 's', 2),
    turn('b1', 't', 1),
    turn('a1', 's', 9),
    turn('w1', `${WRITE_ORDER}#0`, 40),
  ]);
  const ids = (slots: readonly number[]) => slots.map((s) => index.turn(s).id);

  it('gives each id one slot, in the order indexed (a repeated id keeps its first place)', () => {
    expect(index.size).toBe(5);
    expect(['a2', 'a1', 'a2b', 'b1', 'w1'].map((id) => index.slotOf(id))).toEqual([0, 1, 2, 3, 4]);
    expect(index.turn(index.slotOf('a1')!).turn).toBe(1);
    expect(index.slotOf('unknown')).toBeUndefined();
  });

  it('steps to the turns of the same session only, in id order at a shared place', () => {
    const a1 = index.slotOf('a1')!;
    expect(ids(index.around(a1, 1))).toEqual(['a2', 'a2b']);
    expect(ids(index.around(a1, 0))).toEqual(['a1']);
    expect(ids(index.around(a1, -1))).toEqual([]);
    expect(ids(index.around(index.slotOf('b1')!, 1))).toEqual([]);
    expect(ids(index.around(index.slotOf('a2b')!, 0))).toEqual(['a2', 'a2b']);
    // Whatever order the store answered in.
    const reversed = new TurnIndex([turn('x2', 's', 2), turn('x10', 's', 2), turn('x1', 's', 2)]);
    expect(reversed.around(0, 0).map((s) => reversed.turn(s).id)).toEqual(['x1', 'x10', 'x2']);
  });

  it('tells write neighbours from recorded turns', () => {
    expect(index.written(index.slotOf('w1')!)).toBe(true);
    expect(index.written(index.slotOf('a1')!)).toBe(false);
  });
});
