/**
 * The channel registry: how each recall channel is built from its dependencies. A new channel is
 * its own file, a name in CHANNELS (src/domain/types.ts), a line here and its default weight in
 * the configuration.
 */
import type { Config } from '../../config/schema.js';
import type { ChannelName } from '../../domain/types.js';
import type { QueryEmbedding } from '../../embed/embedder.js';
import type { Store } from '../../store/store.js';
import type { Channel } from './channel.js';
import { GraphChannel } from './graph.js';
import { KeywordChannel } from './keyword.js';
import { TimeChannel } from './time.js';
import { VectorChannel } from './vector.js';

/** What the channels are built from. */
export interface ChannelDeps {
  store: Store;
  config: Config;
  embedding: QueryEmbedding;
  now: () => number;
  /** Waits (at most the given ms) for this process's pending graph upkeep; absent when none runs. */
  settleGraph?: (ms: number) => Promise<boolean>;
}

/**
 * Each channel's builder (null: the configuration turns the channel off), in the order channels
 * run and their lists fuse, which is also the order of a hit's `channels`.
 */
const REGISTRY: Readonly<Record<ChannelName, (deps: ChannelDeps) => Channel | null>> = {
  keyword: ({ store }) => new KeywordChannel(store),
  vector: ({ store, embedding }) => new VectorChannel(store, embedding),
  time: ({ store, config, now }) => new TimeChannel(store, config.recall.time, now),
  // Enabled without a graph-capable store, the channel reports `graph_unsupported` in each recall.
  graph: ({ store, config, settleGraph }) =>
    config.graph.enabled ? new GraphChannel(store.graph, config.graph, settleGraph) : null,
};

/** The configured channels, built from their dependencies, in registry order. */
export function configuredChannels(deps: ChannelDeps): Channel[] {
  return Object.values(REGISTRY).flatMap((build) => build(deps) ?? []);
}
