/**
 * Reciprocal-rank fusion (§3.2): score(d) = Σ_c w_c / (k + rank_c(d)), ranks starting at 1.
 * Each hit keeps its rank per channel so a caller can see why it was recalled.
 */

/** One channel's ranked ids, best first. */
export interface RankedList {
  channel: 'keyword' | 'vector' | 'graph' | 'time';
  weight: number;
  ids: readonly string[];
  /** The channel's scores, aligned with `ids` (session context spreads keyword scores). */
  scores?: readonly number[];
}

/** A fused candidate. */
export interface Fused {
  id: string;
  rrf: number;
  channels: { keyword?: number; vector?: number; graph?: number; time?: number };
}

/** Fuses ranked lists; the result is ordered by fused score, then by best single rank, then id. */
export function reciprocalRankFusion(lists: readonly RankedList[], k: number): Fused[] {
  const byId = new Map<string, Fused>();
  for (const list of lists) {
    list.ids.forEach((id, index) => {
      const rank = index + 1;
      let fused = byId.get(id);
      if (!fused) {
        fused = { id, rrf: 0, channels: {} };
        byId.set(id, fused);
      }
      fused.rrf += list.weight / (k + rank);
      fused.channels[list.channel] = rank;
    });
  }
  return [...byId.values()].sort(
    (a, b) =>
      b.rrf - a.rrf || bestRank(a) - bestRank(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

function bestRank(f: Fused): number {
  return Math.min(
    f.channels.keyword ?? Infinity,
    f.channels.vector ?? Infinity,
    f.channels.graph ?? Infinity,
    f.channels.time ?? Infinity,
  );
}
