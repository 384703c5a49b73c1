/**
 * The GraphStore interface: how the knowledge graph is persisted. A backend that supports the
 * graph exposes one as `Store.graph`; without it the graph channel reports `graph_unsupported`.
 *
 * Contract every implementation keeps (the SQLite one with triggers, in the same transaction as
 * the write that changes it):
 * - An item's extraction (mentions, statements) is written by `writeExtractions` and removed when
 *   the item is purged.
 * - An item counts unless it is forgotten. Only counting items contribute: entity mention counts,
 *   co-mention edges (every pair of its entities, weight 1 per item), statement edges (arrow,
 *   alias) and, for every live memory relation whose two items count, one edge of the relation's
 *   type between each of the first three entities of one item and each other one of the other's
 *   (an item's entities ranked strong before weak, most mentioned first, then by key).
 * - Edge weights are the number of such contributions; entity degree is its number of distinct
 *   neighbours; `strong` counts the items naming it other than as a weak sentence start. An
 *   entity no item mentions any more is gone.
 * - Provenance of an item, for the hub report, is the first of `session:`, `import:`, `url:`,
 *   `agent:` found in its source, or '' when it has none.
 * Entity ids are the backend's own and only valid until the entity disappears.
 */
import type { ItemFilter } from '../domain/filter.js';
import type { EdgeType, EntityType, Extraction } from '../domain/graph.js';

/**
 * How many entities of each item a relation links, on every backend: the item's most named ones
 * (strong before weak, more mentions first, then by key, so the choice depends on nothing but the
 * item). Linking every entity of one to every entity of the other made a relation between two
 * notes naming seven each 49 links.
 */
export const RELATION_FANOUT = 3;

/** One item's extraction to store, for the item version it was read from. */
export interface GraphDoc {
  item_id: string;
  version: number;
  extraction: Extraction;
}

/** An entity as the traversal sees it. */
export interface EntityRef {
  id: number;
  key: string;
  mentions: number;
  degree: number;
  /** Items that name it other than as a capitalised sentence start (0: unconfirmed). */
  strong: number;
}

/** What is shown of an entity: its most used surface form and type, and its other forms. */
export interface EntityLabel {
  name: string;
  type: EntityType;
  surfaces: string[];
}

/** A neighbour through any edge type, with the summed weight. */
export interface Neighbor {
  from: number;
  to: EntityRef;
  weight: number;
}

/** A count by name. */
export interface NamedCount {
  name: string;
  count: number;
}

/** Where an entity's mentions come from: provenance, areas and tags of the items naming it. */
export interface MentionProfile {
  /** Items read (newest first, at most the sample size). */
  sampled: number;
  sources: NamedCount[];
  areas: NamedCount[];
  tags: NamedCount[];
}

/** A canonical, id-free copy of a space's graph (for comparisons and diagnostics). */
export interface GraphDump {
  entities: {
    key: string;
    name: string;
    type: string;
    mentions: number;
    degree: number;
    strong: number;
  }[];
  mentions: {
    key: string;
    item_id: string;
    surface: string;
    count: number;
    counted: boolean;
    weak: boolean;
  }[];
  statements: { item_id: string; a: string; b: string; type: string }[];
  edges: { a: string; b: string; type: string; weight: number }[];
  /** The stored pair weights (each pair once, a < b by key): the edges' weights summed. */
  pairs: { a: string; b: string; weight: number }[];
}

/** Raw counts for `graph stats`. */
export interface GraphCounts {
  entities: number;
  mentions: number;
  edges: number;
  items: number;
  by_type: Record<string, number>;
  edges_by_type: Record<string, number>;
}

/** The persistence of the knowledge graph. */
export interface GraphStore {
  /**
   * Replaces the stored extraction of each item in one transaction. Items that are gone or no
   * longer at the given version are skipped (a newer write carries their extraction). Returns
   * how many were written.
   */
  writeExtractions(space: string, docs: readonly GraphDoc[], extractor: number): Promise<number>;
  /** Stored extraction version and extractor signature of items (missing when none). */
  extractionStates(
    space: string,
    ids: readonly string[],
  ): Promise<Map<string, { version: number; extractor: number }>>;
  /** Ids of items whose extraction is missing, at another version or by another extractor. */
  staleItems(space: string, extractor: number, limit: number, afterId?: string): Promise<string[]>;
  /** How many items are stale in that sense. */
  countStale(space: string, extractor: number): Promise<number>;
  /** Deletes the space's whole graph (a rebuild starts here). */
  clear(space: string): Promise<void>;
  /** Items of the space with a stored extraction. */
  itemCount(space: string): Promise<number>;
  /** Entities by normalised key. */
  entitiesByKey(space: string, keys: readonly string[]): Promise<EntityRef[]>;
  /** Multi-word entities whose key starts with the word ("alice" finds "alice johnson"). */
  entitiesByFirstWord(
    space: string,
    words: readonly string[],
    limitEach: number,
  ): Promise<EntityRef[]>;
  /** Entities by id. */
  entitiesById(ids: readonly number[]): Promise<EntityRef[]>;
  /** Entities joined to the given ones by an alias edge. */
  aliasesOf(ids: readonly number[]): Promise<Neighbor[]>;
  /** The strongest neighbours of each entity (summed weight over edge types, then id). */
  neighborsOf(ids: readonly number[], limitEach: number): Promise<Neighbor[]>;
  /** Typed edges between two entities. */
  edgesBetween(a: number, b: number): Promise<{ type: EdgeType; weight: number }[]>;
  /**
   * Items that count, pass the filter and mention the entity, newest first, at most `limit`
   * per entity; one list per requested entity, in request order.
   */
  itemsMentioning(
    filter: ItemFilter,
    requests: readonly { entity: number; limit: number }[],
  ): Promise<string[][]>;
  /** Which of the given entities each given item mentions (counting items only). */
  mentionsOf(
    space: string,
    itemIds: readonly string[],
    entityIds: readonly number[],
  ): Promise<Map<string, number[]>>;
  /** Labels (name, type, surface forms) of entities. */
  labels(ids: readonly number[]): Promise<Map<number, EntityLabel>>;
  /** Entities ordered by mentions or degree (then key), optionally of one type. */
  topEntities(
    space: string,
    order: 'mentions' | 'degree',
    limit: number,
    type?: EntityType,
  ): Promise<EntityRef[]>;
  /** Counts for stats. */
  counts(space: string): Promise<GraphCounts>;
  /** Summed pair weights among a set of entities (each unordered pair once, a < b). */
  pairsAmong(ids: readonly number[]): Promise<{ a: number; b: number; weight: number }[]>;
  /** Items that count and mention `entity` and at least one of `others`. */
  coMentioned(entity: number, others: readonly number[]): Promise<number>;
  /** Provenance, areas and tags of (a sample of) the items mentioning an entity. */
  mentionProfile(entity: number, sample: number): Promise<MentionProfile>;
  /** Provenance, areas and tags over the space's counting items (a sample, newest first). */
  spaceProfile(space: string, sample: number): Promise<MentionProfile>;
  /** The whole graph of a space without internal ids, in a canonical order. */
  dump(space: string): Promise<GraphDump>;
}
