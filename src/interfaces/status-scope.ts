/**
 * A space's status as one caller may see it, on every edge that answers a status (HTTP
 * `/v1/spaces/{space}/status`, the MCP `status` tool): facts about the whole store only for a
 * caller that sees the whole store (./access.ts).
 */
import type { ServiceStatus } from '../service/models.js';
import { type Principal, seesStoreWide } from './access.js';

/** A status without the store-wide facts: where the store lives, its size, its indexes, the embedding queue. */
export type SpaceStatus = Omit<ServiceStatus, 'store' | 'embedder'> & {
  store: Omit<ServiceStatus['store'], 'location' | 'size_bytes' | 'vector_index' | 'keyword_index'>;
  embedder: Omit<Extract<ServiceStatus['embedder'], { queue: unknown }>, 'queue'> | EmbedderOff;
};
type EmbedderOff = Exclude<ServiceStatus['embedder'], { queue: unknown }>;

/** The status as `principal` may see it: whole for a caller that sees the whole store, else its space's own. */
export function statusFor(
  principal: Principal,
  status: ServiceStatus,
): ServiceStatus | SpaceStatus {
  return seesStoreWide(principal) ? status : spaceOnly(status);
}

function spaceOnly(status: ServiceStatus): SpaceStatus {
  const {
    location: _location,
    size_bytes: _size,
    vector_index: _index,
    keyword_index: _keywords,
    ...store
  } = status.store;
  return { ...status, store, embedder: withoutQueue(status.embedder) };
}

/** The embedder state without its queue (a fact about every space together). */
function withoutQueue(embedder: ServiceStatus['embedder']): SpaceStatus['embedder'] {
  if (!('queue' in embedder)) return embedder;
  const { queue: _queue, ...rest } = embedder;
  return rest;
}
