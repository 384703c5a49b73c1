/**
 * Reciprocal-rank fusion (§3.2): score(d) = Σ_c w_c / (k + rank_c(d)), ranks starting at 1.
 * Each hit keeps its rank per channel so a caller can see why it was recalled.
 */
import type { ChannelName } from '../domain/types.js';
import type { Fuser } from './stages.js';

/** One channel's ranked ids, best first. */
export interface RankedList {
  channel: ChannelName;
  weight: number;
  ids: readonly string[];
  /** The channel's scores, aligned with `ids` (session context spreads additive ones). */
  scores?: readonly number[];
  /** The scores are additive evidence with a natural zero (BM25), which session context spreads. */
  additive?: boolean;
}

/** A fused candidate. */
export interface Fused {
  id: string;
  rrf: number;
  channels: Partial<Record<ChannelName, number>>;
}

/** Fuses ranked lists; the result is ordered by fused score, then by best single rank, then id. */
export function reciprocalRankFusion(lists: readonly RankedList[], k: number): Fused[] {
  const byId = new Map<string, Fused>();
  const best = new Map<string, number>();
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
      best.set(id, Math.min(best.get(id) ?? Infinity, rank));
    });
  }
  return [...byId.values()].sort(
    (a, b) =>
      b.rrf - a.rrf ||
      best.get(a.id)! - best.get(b.id)! ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** The fusion stage: reciprocal-rank fusion with constant `k` (config `recall.rrf_k`). */
export function rrfFuser(k: number): Fuser {
  return { fuse: (lists) => reciprocalRankFusion(lists, k) };
}
