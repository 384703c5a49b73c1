/** The Channel interface: one way of finding candidates for a query (keyword, vector, graph, time). */
import type { HitChannels } from '../../domain/types.js';
import type { ItemFilter, ScoredId } from '../../store/store.js';

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
  readonly name: 'keyword' | 'vector' | 'graph' | 'time';
  search(request: ChannelRequest): Promise<ChannelResult>;
}
