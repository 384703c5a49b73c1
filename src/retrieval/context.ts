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
import { type ScoredId, type SessionTurn, WRITE_ORDER } from '../store/store.js';

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

/** Turns of each session by turn number (several items may claim one turn). */
type SessionIndex = Map<string, Map<number, string[]>>;

function indexSessions(positions: readonly SessionTurn[]): SessionIndex {
  const sessions: SessionIndex = new Map();
  for (const p of positions) {
    let turns = sessions.get(p.session);
    if (!turns) sessions.set(p.session, (turns = new Map()));
    const at = turns.get(p.turn);
    if (at) {
      if (!at.includes(p.id)) at.push(p.id);
    } else turns.set(p.turn, [p.id]);
  }
  return sessions;
}

/**
 * Spreads a channel's scores along conversations (formula in the file header). Returns the
 * channel's items and their neighbours, best first; ties keep the channel's order, then id.
 */
export function spreadAlongSessions(
  list: readonly ScoredId[],
  positions: readonly SessionTurn[],
  options: SessionContextOptions,
): ScoredId[] {
  if (!sessionContextOn(options) || positions.length === 0) return [...list];
  const score = new Map(list.map((h) => [h.id, Math.max(0, h.score)]));
  const order = new Map(list.map((h, i) => [h.id, i]));
  const sessions = indexSessions(positions);
  const out = new Map<string, number>(list.map((h) => [h.id, Math.max(0, h.score)]));
  for (const p of positions) {
    const turns = sessions.get(p.session)!;
    let lent = 0;
    const reach = p.session.startsWith(WRITE_ORDER) ? 1 : options.window;
    for (let d = 1, factor = 1; d <= reach; d++, factor *= options.decay) {
      for (const id of turns.get(p.turn - d) ?? []) lent += factor * (score.get(id) ?? 0);
      for (const id of turns.get(p.turn + d) ?? []) lent += factor * (score.get(id) ?? 0);
    }
    out.set(p.id, (score.get(p.id) ?? 0) + options.weight * lent);
  }
  const rank = (id: string) => order.get(id) ?? Infinity;
  return [...out]
    .filter(([id, s]) => s > 0 || order.has(id))
    .map(([id, s]) => ({ id, score: s }))
    .sort((a, b) => b.score - a.score || rank(a.id) - rank(b.id) || (a.id < b.id ? -1 : 1));
}
