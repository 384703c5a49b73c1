/**
 * The conversation positions one recall knows, indexed once for the stages that read them
 * (session context, the reranker's and the decision stage's turn context). Each turn has a slot
 * (a small integer, in the order indexed), so the stages keep per-turn values in typed arrays and
 * step from a turn to its neighbours without looking up ids or sessions by name.
 */
import { type SessionTurn, WRITE_ORDER } from '../store/store.js';

const NONE: readonly number[] = [];

/** Turns by slot, id, and session and turn number (several items may claim one turn). */
export class TurnIndex {
  /** The turns by slot. */
  private readonly list: SessionTurn[] = [];
  private readonly slots = new Map<string, number>();
  /** By session: its turns' slots by turn number. */
  private readonly sessions = new Map<string, Map<number, number[]>>();
  /** By slot: its session's entry of `sessions`. */
  private readonly places: Map<number, number[]>[] = [];

  /** Indexes `positions` (see `add`). */
  constructor(positions: Iterable<SessionTurn> = []) {
    for (const p of positions) this.add(p);
  }

  /**
   * Adds a turn; false when its id is known already (the first stands). Turns sharing a place
   * are kept in id order.
   */
  add(p: SessionTurn): boolean {
    if (this.slots.has(p.id)) return false;
    const slot = this.list.length;
    this.list.push(p);
    this.slots.set(p.id, slot);
    let turns = this.sessions.get(p.session);
    if (!turns) this.sessions.set(p.session, (turns = new Map()));
    const at = turns.get(p.turn);
    if (!at) turns.set(p.turn, [slot]);
    else {
      // In id order, whatever order the store answered in.
      let i = at.length;
      while (i > 0 && this.list[at[i - 1]!]!.id > p.id) i--;
      at.splice(i, 0, slot);
    }
    this.places.push(turns);
    return true;
  }

  /** Number of turns known. */
  get size(): number {
    return this.list.length;
  }

  /** The slot of `id`, if it is a known turn. */
  slotOf(id: string): number | undefined {
    return this.slots.get(id);
  }

  /** Every turn, by slot. */
  turns(): readonly SessionTurn[] {
    return this.list;
  }

  /** The turn in `slot`. */
  turn(slot: number): SessionTurn {
    return this.list[slot]!;
  }

  /** Each session known, with its turns' slots by turn number. */
  bySession(): ReadonlyMap<string, ReadonlyMap<number, readonly number[]>> {
    return this.sessions;
  }

  /** Whether the turn in `slot` is a write neighbour (not of a recorded session). */
  written(slot: number): boolean {
    return this.list[slot]!.session.startsWith(WRITE_ORDER);
  }

  /**
   * The slots `offset` turns from the turn in `slot` in its session, in id order (0: the turns of
   * its own place, itself included).
   */
  around(slot: number, offset: number): readonly number[] {
    return this.places[slot]!.get(this.list[slot]!.turn + offset) ?? NONE;
  }
}
