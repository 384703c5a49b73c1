/**
 * The knowledge graph over HTTP (`/graph`), with the library's method names and answers: its
 * counts, an entity's neighbours and mentions, the top entities and the hub report.
 */
import { type Calls, fields } from './calls.js';
import type { QueryOf, Schemas, SpaceOptions } from './types.js';

/** An entity's neighbourhood request: entity, depth, limit. */
export type NeighborsRequest = QueryOf<'/v1/spaces/{space}/graph/neighbors', 'get'> & SpaceOptions;
/** An entity's mentions request: entity, limit. */
export type MentionsRequest = QueryOf<'/v1/spaces/{space}/graph/mentions', 'get'> & SpaceOptions;
/** A top-entities request: top, by, type. */
export type EntitiesRequest = QueryOf<'/v1/spaces/{space}/graph/entities', 'get'> & SpaceOptions;
/** A hub report request: limit. */
export type HubsRequest = QueryOf<'/v1/spaces/{space}/graph/hubs', 'get'> & SpaceOptions;

/** The graph methods of EngramClient. */
export interface GraphMethods {
  /** Entity, mention and edge counts, stale items and hubs of a space's graph. */
  graphStats(options?: SpaceOptions): Promise<Schemas['GraphStats']>;
  /** An entity and its neighbours up to `depth` edges away, with paths and edge types. */
  graphNeighbors(request: NeighborsRequest): Promise<Schemas['GraphNeighbors']>;
  /** The memories that mention an entity, newest first. */
  graphMentions(request: MentionsRequest): Promise<Schemas['GraphMentions']>;
  /** The most mentioned (or most connected) entities of a space. */
  graphEntities(request?: EntitiesRequest): Promise<Schemas['GraphEntity'][]>;
  /** The hub report: congested entities, their cause, cluster suggestions, anchors. */
  graphHubs(request?: HubsRequest): Promise<Schemas['GraphHubReport']>;
}

/** The graph methods over the given calls. */
export function graphMethods(calls: Calls): GraphMethods {
  const read = <T>(path: string, request: SpaceOptions | undefined) =>
    calls.inSpace<T>(request, { method: 'GET', path: `/graph${path}`, query: fields(request) });
  return {
    graphStats: (options) => read('', options),
    graphNeighbors: (request) => read('/neighbors', request),
    graphMentions: (request) => read('/mentions', request),
    graphEntities: async (request) =>
      (await read<Schemas['GraphEntityList']>('/entities', request)).entities,
    graphHubs: (request) => read('/hubs', request),
  };
}
