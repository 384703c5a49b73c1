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
 * results (bench/locomo/levers.md, bench/multilingual). Items that are not conversation turns
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
): ScoredId[] {
  if (!sessionContextOn(options) || index.size === 0) return [...list];
  const score = new Map<string, number>();
  const order = new Map<string, number>();
  list.forEach((h, i) => {
    score.set(h.id, Math.max(0, h.score));
    order.set(h.id, i);
  });
  // Scores by slot (0 off the list), and the turns that can receive evidence.
  const own = new Float64Array(index.size);
  const marked = new Uint8Array(index.size);
  const receivers: number[] = [];
  const mark = (slot: number) => {
    if (marked[slot]) return;
    marked[slot] = 1;
    receivers.push(slot);
  };
  const reachOf = (slot: number) => (index.written(slot) ? 1 : options.window);
  for (const [id, s] of score) {
    const slot = index.slotOf(id);
    if (slot === undefined) continue;
    own[slot] = s;
    mark(slot);
  }
  for (const slot of [...receivers]) {
    if (own[slot]! <= 0) continue;
    for (let d = 1, reach = reachOf(slot); d <= reach; d++) {
      for (const q of index.around(slot, -d)) mark(q);
      for (const q of index.around(slot, d)) mark(q);
    }
  }
  const out = new Map(score);
  for (const slot of receivers) {
    let lent = 0;
    for (let d = 1, factor = 1, reach = reachOf(slot); d <= reach; d++, factor *= options.decay) {
      for (const q of index.around(slot, -d)) lent += factor * own[q]!;
      for (const q of index.around(slot, d)) lent += factor * own[q]!;
    }
    out.set(index.turn(slot).id, own[slot]! + options.weight * lent);
  }
  const ranked: { id: string; score: number; rank: number }[] = [];
  for (const [id, s] of out) {
    const rank = order.get(id);
    if (s > 0 || rank !== undefined) ranked.push({ id, score: s, rank: rank ?? Infinity });
  }
  ranked.sort((a, b) => b.score - a.score || a.rank - b.rank || (a.id < b.id ? -1 : 1));
  return ranked.map(({ id, score: s }) => ({ id, score: s }));
}
