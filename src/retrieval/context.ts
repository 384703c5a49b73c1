/**
 * Session context (§3, measured by bench/locomo): a memory recorded as one turn of a conversation
 * (`source.session` + `source.turn`) rarely says everything on its own — "Yes, last weekend!"
 * answers the turn before it. Recall therefore lets the keyword evidence of nearby turns of the
 * same session count towards a turn:
 *
 *   s'(i) = s(i) + weight · Σ_{j ≠ i, same session, |turn_j − turn_i| ≤ window} decay^(|turn_j − turn_i| − 1) · s(j)
 *
 * where s is the channel's score (BM25, ≥ 0; 0 for items the channel did not return). Turns next
 * to strong hits join the candidates even when they match nothing themselves. Write neighbours
 * (memories written with no session, sessions.ts) count as turns too, but only one write apart
 * (for them the window is 1): being written in a row is weaker evidence of one conversation than
 * a recorded session, and a run of unrelated notes written in a row then stays out of each other's
 * results (bench/locomo/levers.md, bench/multilingual). A recorded session lends in proportion
 * to its cohesion (cohesion.ts: unrelated notes written through one MCP connection are a session
 * whose turns share no more words nearby than far apart). Items that are not conversation turns
 * keep their score. The keyword channel's BM25 suits this because it is
 * additive evidence with a natural zero; a cosine has no zero point, so vectors are left as they are.
 */
import type { ScoredId } from '../store/store.js';
import type { TurnIndex } from './turn-index.js';

/** Session-context settings (config `recall.context`). */
export interface SessionContextOptions {
  /** Turns on each side that lend evidence; 0 turns session context off. */
  window: number;
  /** Share of a neighbour's score that a turn receives. */
  weight: number;
  /** Factor per extra turn of distance. */
  decay: number;
}

/** Whether the options do anything. */
export function sessionContextOn(options: SessionContextOptions): boolean {
  return options.window >= 1 && options.weight > 0;
}

/**
 * The place of a turn off the channel's list when ties are broken: an integer, not Infinity, so
 * the sort compares integers only.
 */
const UNLISTED = 0x7fffffff;

/**
 * Spreads a channel's scores along conversations (formula in the file header). Returns the
 * channel's items and their neighbours, best first; ties keep the channel's order, then id.
 * Only the list's items and the turns within reach of one with evidence can score above 0, so
 * only they are summed (each in the formula's order: nearest distance first, the earlier turn
 * first, then id).
 */
export function spreadAlongSessions(
  list: readonly ScoredId[],
  index: TurnIndex,
  options: SessionContextOptions,
  /** By slot: the share of the evidence lent to the turn that counts (cohesion.ts); default 1. */
  factors?: Float64Array,
): ScoredId[] {
  if (!sessionContextOn(options) || index.size === 0) return [...list];
  // By slot: the channel's score (0 off the list) and place on the list (-1 off it). Items that
  // are no turn keep their score; a repeated id counts as its last entry.
  const own = new Float64Array(index.size);
  const rankOf = new Int32Array(index.size).fill(-1);
  const others = new Map<string, { id: string; score: number; rank: number }>();
  const receivers: number[] = [];
  list.forEach((h, i) => {
    const s = Math.max(0, h.score);
    const slot = index.slotOf(h.id);
    if (slot === undefined) others.set(h.id, { id: h.id, score: s, rank: i });
    else {
      if (rankOf[slot] === -1) receivers.push(slot);
      own[slot] = s;
      rankOf[slot] = i;
    }
  });
  // The turns that can receive evidence: the listed ones and those within reach of evidence.
  const marked = new Uint8Array(index.size);
  for (const slot of receivers) marked[slot] = 1;
  const reachOf = (slot: number) => (index.written(slot) ? 1 : options.window);
  const listed = receivers.length;
  for (let r = 0; r < listed; r++) {
    const slot = receivers[r]!;
    if (own[slot]! <= 0) continue;
    for (let d = 1, reach = reachOf(slot); d <= reach; d++)
      for (const offset of [-d, d])
        for (const q of index.around(slot, offset))
          if (!marked[q]) {
            marked[q] = 1;
            receivers.push(q);
          }
  }
  const ranked = [...others.values()];
  for (const slot of receivers) {
    let lent = 0;
    for (let d = 1, factor = 1, reach = reachOf(slot); d <= reach; d++, factor *= options.decay) {
      for (const q of index.around(slot, -d)) lent += factor * own[q]!;
      for (const q of index.around(slot, d)) lent += factor * own[q]!;
    }
    const s = own[slot]! + options.weight * (factors ? factors[slot]! : 1) * lent;
    const rank = rankOf[slot]!;
    if (s > 0 || rank >= 0)
      ranked.push({ id: index.turn(slot).id, score: s, rank: rank >= 0 ? rank : UNLISTED });
  }
  ranked.sort((a, b) => b.score - a.score || a.rank - b.rank || (a.id < b.id ? -1 : 1));
  return ranked.map(({ id, score }) => ({ id, score }));
}
