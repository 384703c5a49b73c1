/** Facade for the knowledge graph (§4): stats, neighbours, entities, hubs and rebuilds. */
import type { EntityInfo, GraphStats } from '../domain/graph.js';
import type {
  EntitiesRequest,
  GraphApi,
  HubsRequest,
  MentionsRequest,
  MentionsResult,
  NeighborsRequest,
  NeighborsResult,
  RebuildRequest,
} from '../graph/graph-api.js';
import type { HubReport } from '../graph/hubs.js';
import type { RebuildProgress, RebuildReport } from '../graph/maintainer.js';
import { callbackArg, objectArg, optionsArg } from './args.js';

/** The graph facade. */
export interface GraphFacade {
  /** Entity, mention and edge counts, stale items and hubs of a space's graph. */
  graphStats(options?: { space?: string }): Promise<GraphStats & { enabled: boolean }>;
  /** An entity and its neighbours up to `depth` edges away, with paths and edge types. */
  graphNeighbors(request: NeighborsRequest): Promise<NeighborsResult>;
  /** The memories that mention an entity, newest first (forgotten ones never). */
  graphMentions(request: MentionsRequest): Promise<MentionsResult>;
  /** The most mentioned (or most connected) entities of a space. */
  graphEntities(request?: EntitiesRequest): Promise<EntityInfo[]>;
  /** The hub report (§4): congested entities, their cause, cluster suggestions, anchors. */
  graphHubs(request?: HubsRequest): Promise<HubReport>;
  /** Recomputes a space's graph from scratch (or only its stale items). */
  graphRebuild(
    request?: RebuildRequest,
    onProgress?: (p: RebuildProgress) => void,
  ): Promise<RebuildReport>;
}

/** The graph facade over the graph API, which it gets on first use. */
export function graphFacade(graph: () => Promise<GraphApi>): GraphFacade {
  return {
    graphStats: async (options) => (await graph()).stats(optionsArg(options)),
    graphNeighbors: async (request) => (await graph()).neighbors(objectArg(request, 'request')),
    graphMentions: async (request) => (await graph()).mentions(objectArg(request, 'request')),
    graphEntities: async (request) => (await graph()).entities(optionsArg(request, 'request')),
    graphHubs: async (request) => (await graph()).hubs(optionsArg(request, 'request')),
    graphRebuild: async (request, onProgress) => {
      const req = optionsArg(request, 'request');
      return (await graph()).rebuild(req, callbackArg(onProgress));
    },
  };
}
