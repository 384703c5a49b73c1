/**
 * The knowledge graph (§4) as the edges return it (the library's shapes in src/domain/graph.ts,
 * src/graph/graph-api.ts and src/graph/hubs.ts): stats, entities, an entity's neighbourhood, the
 * memories naming an entity, and the hub report.
 */
import { z } from 'zod';

import { EDGE_TYPES, ENTITY_TYPES } from '../../domain/graph.js';
import { MemorySchema } from './memories.js';

const count = (description: string) => z.number().int().meta({ description });

/** An entity as the graph reports it. */
export const EntitySchema = z
  .object({
    key: z.string().meta({ description: 'Normalised key (unique in the space).' }),
    name: z.string().meta({ description: 'The surface form most memories use.' }),
    type: z.enum(ENTITY_TYPES),
    mentions: count('Memories (not forgotten) that mention it.'),
    degree: count('Distinct neighbouring entities.'),
    confirmed: z.boolean().meta({
      description:
        'Some memory names it other than at a sentence start; recall only traverses confirmed entities.',
    }),
    aliases: z.array(z.string()).meta({ description: 'Other surface forms and alias names.' }),
  })
  .meta({ id: 'GraphEntity' });

/** A typed edge between two entities, with its weight. */
const EdgeSchema = z
  .object({
    type: z.enum(EDGE_TYPES),
    weight: z.number().meta({ description: 'How many memories or relations contribute it.' }),
  })
  .meta({ id: 'GraphEdge' });

/** A hub of the stats: an entity mentioned by more than the hub threshold. */
const StatsHubSchema = z.object({
  key: z.string(),
  name: z.string(),
  mentions: z.number().int(),
  degree: z.number().int(),
});

/** Counts, staleness and the top hubs of a space's graph. */
export const GraphStatsSchema = z
  .object({
    space: z.string(),
    enabled: z.boolean().meta({ description: 'graph.enabled in the configuration.' }),
    entities: z.number().int(),
    mentions: z.number().int(),
    edges: z.number().int(),
    items_extracted: count('Memories with a stored extraction.'),
    items_stale: count(
      'Memories whose extraction is missing or older than their current version (graph rebuild fixes).',
    ),
    by_type: z.record(z.string(), z.number().int()).meta({ description: 'Entities by type.' }),
    edges_by_type: z.record(z.string(), z.number().int()).meta({ description: 'Edges by type.' }),
    hub_threshold: count('Mentions above which recall does not traverse an entity.'),
    hubs: z.array(StatsHubSchema),
  })
  .meta({ id: 'GraphStats' });

/** The most mentioned (or most connected) entities of a space. */
export const GraphEntityListSchema = z
  .object({ entities: z.array(EntitySchema) })
  .meta({ id: 'GraphEntityList' });

/** One neighbour of an entity: how far, by which path, over which edges. */
const NeighborSchema = z
  .object({
    entity: EntitySchema,
    distance: count('Entity edges from the start entity.'),
    path: z.array(z.string()).meta({
      description: 'Entity names from the start entity to this one (both included).',
    }),
    edges: z.array(EdgeSchema).meta({
      description: 'Edge types and weights to the previous entity on the path.',
    }),
  })
  .meta({ id: 'GraphNeighbor' });

/** An entity and its neighbours up to the depth asked. */
export const GraphNeighborsSchema = z
  .object({ entity: EntitySchema, neighbors: z.array(NeighborSchema) })
  .meta({ id: 'GraphNeighbors' });

/** An entity and the memories that mention it, newest first. */
export const GraphMentionsSchema = z
  .object({ entity: EntitySchema, memories: z.array(MemorySchema) })
  .meta({ id: 'GraphMentions' });

/** An area or tag that already gathers memories about an entity. */
const AnchorSchema = z
  .object({
    kind: z.enum(['area', 'tag']),
    name: z.string(),
    entity: z.string(),
    items: z.number().int(),
  })
  .meta({ id: 'GraphAnchor' });

/** A group of a hub's neighbours tied to each other: a candidate sub-topic. */
const ClusterSchema = z.object({
  entities: z.array(z.string()),
  items: count('Memories naming the hub and one of these entities.'),
  suggested_area: z.string(),
});

/** One hub of the report. */
const HubEntrySchema = z
  .object({
    entity: EntitySchema.pick({
      key: true,
      name: true,
      type: true,
      mentions: true,
      degree: true,
    }),
    share: z.number().meta({ description: "Share of the space's memories that name it." }),
    congested: z
      .boolean()
      .meta({ description: 'Above the hub threshold: recall does not traverse it.' }),
    diagnosis: z.enum(['structural', 'provenance']),
    provenance: z.object({
      top_source: z.string(),
      share: z.number(),
      baseline_share: z.number(),
      sources: z.number().int(),
    }),
    anchors: z.array(AnchorSchema),
    clusters: z.array(ClusterSchema),
    suggestion: z.string(),
  })
  .meta({ id: 'GraphHub' });

/** The hub report (§4): read-only suggestions, never a change. */
export const GraphHubReportSchema = z
  .object({
    space: z.string(),
    items: z.number().int(),
    hub_threshold: z.number().int(),
    hubs: z.array(HubEntrySchema),
    anchors: z.array(AnchorSchema),
  })
  .meta({ id: 'GraphHubReport' });
