/** The Channel interface: one way of finding candidates for a query (keyword, vector, graph). */
import type { ItemFilter, ScoredId } from '../../store/store.js';

/** What every channel receives. */
export interface ChannelRequest {
  query: string;
  filter: ItemFilter;
  limit: number;
  /** Milliseconds left of the semantic budget when the channel starts. */
  deadline: number;
}

/** A channel's answer: ranked ids, or why it could not contribute. */
export type ChannelResult =
  | { ids: ScoredId[]; degraded?: undefined }
  | { ids?: undefined; degraded: string };

/** One recall channel. */
export interface Channel {
  readonly name: 'keyword' | 'vector' | 'graph';
  search(request: ChannelRequest): Promise<ChannelResult>;
}
