/**
 * The Channel interface: one way of finding candidates for a query (keyword, vector, graph,
 * time). Each channel is built by the registry (registry.ts) under a name from CHANNELS.
 */
import type { ItemFilter } from '../../domain/filter.js';
import type { ChannelName, HitChannels } from '../../domain/types.js';
import type { ScoredId } from '../../store/store.js';

/** What every channel receives. */
export interface ChannelRequest {
  query: string;
  filter: ItemFilter;
  limit: number;
  /** Milliseconds left of the semantic budget when the channel starts. */
  deadline: number;
}

/**
 * A channel's answer: ranked ids, or why it could not contribute. Ids with a reason mean the
 * channel answered in a degraded way (e.g. exact scan while the approximate index is unusable).
 */
export type ChannelResult =
  | { ids: ScoredId[]; degraded?: string; details?: ChannelDetails }
  | { ids?: undefined; degraded: string; details?: undefined };

/** Evidence a channel reports per id beyond its rank (the graph channel: hops and entity path). */
export type ChannelDetails = ReadonlyMap<string, Partial<HitChannels>>;

/** One recall channel. */
export interface Channel {
  readonly name: ChannelName;
  /**
   * Its scores are additive evidence with a natural zero (BM25), which session context spreads
   * along conversations; a cosine has no zero point, so a vector channel leaves this unset.
   */
  readonly additiveScores?: boolean;
  search(request: ChannelRequest): Promise<ChannelResult>;
}
