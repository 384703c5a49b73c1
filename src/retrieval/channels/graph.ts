/**
 * The graph channel (§3.1, §4): items that name the query's entities, or entities a few edges
 * from them, ranked by 1/hops. Each hit carries its hop count and entity path as evidence.
 */
import type { Config } from '../../config/schema.js';
import { graphRecall, type TraversalLimits } from '../../graph/traverse.js';
import type { GraphStore } from '../../store/graph-store.js';
import type { Channel, ChannelRequest, ChannelResult } from './channel.js';

/** Traversal caps and extraction bounds from the `graph` configuration section. */
export function graphLimits(graph: Config['graph']): {
  limits: TraversalLimits;
  extraction: { maxChars: number; maxEntities: number };
} {
  return {
    limits: {
      depth: graph.depth,
      maxNeighbors: graph.max_neighbors,
      maxReached: graph.max_reached,
      maxItemsPerEntity: graph.max_items_per_entity,
      hubShare: graph.hub_share,
      hubMinMentions: graph.hub_min_mentions,
    },
    extraction: { maxChars: graph.max_chars, maxEntities: graph.max_entities_per_memory },
  };
}

/** Graph channel; without a graph-capable store it reports `graph_unsupported`. */
export class GraphChannel implements Channel {
  readonly name = 'graph' as const;

  constructor(
    private readonly graph: GraphStore | undefined,
    private readonly config: Config['graph'],
    /** Waits (at most the given ms) for this process's pending graph upkeep; false if still busy. */
    private readonly settle: (ms: number) => Promise<boolean> = async () => true,
  ) {}

  async search(request: ChannelRequest): Promise<ChannelResult> {
    if (!this.graph) return { degraded: 'graph_unsupported' };
    const settled = await this.settle(request.deadline);
    const { limits, extraction } = graphLimits(this.config);
    const hits = await graphRecall(
      this.graph,
      request.query,
      request.filter,
      Math.min(request.limit, this.config.max_results),
      limits,
      extraction,
    );
    return {
      ids: hits.map((h) => ({ id: h.id, score: h.score })),
      details: new Map(hits.map((h) => [h.id, { graph: h.hops, graph_path: h.path }])),
      // Recent writes are still being extracted: the answer is right but may miss them.
      ...(settled ? {} : { degraded: 'graph_catching_up' }),
    };
  }
}
