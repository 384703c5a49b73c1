/**
 * Shapes of the knowledge graph (§1.3, §4): entity and edge types, what extraction returns, and
 * what the graph API reports (stats, entities, neighbours, traversal paths).
 */

/** Kinds of entity extraction recognises. `name` covers people, places, organisations, products. */
export const ENTITY_TYPES = [
  'name',
  'url',
  'email',
  'endpoint',
  'host',
  'port',
  'path',
  'version',
  'issue',
  'identifier',
  'tag',
  'handle',
] as const;
/** One entity type. */
export type EntityType = (typeof ENTITY_TYPES)[number];

/** Statements extraction reads from text: `A -> B` arrows and `A (B)` / `A aka B` aliases. */
export const STATEMENT_TYPES = ['arrow', 'alias'] as const;
/** One statement type. */
export type StatementType = (typeof STATEMENT_TYPES)[number];

/**
 * Edge types between entities: co-mention in one memory, statements in text, and the memory
 * relations of §1.2 carried over to the entities of both memories.
 */
export const EDGE_TYPES = [
  'co_mention',
  'arrow',
  'alias',
  'related',
  'derived_from',
  'supersedes',
  'merged_into',
] as const;
/** One edge type. */
export type EdgeType = (typeof EDGE_TYPES)[number];

/** One entity found in a text: its normalised key, the surface form used, how often. */
export interface ExtractedEntity {
  key: string;
  surface: string;
  type: EntityType;
  count: number;
  /**
   * Every occurrence was a capitalised sentence start that may be a common word ("Family's
   * great"); the graph trusts the entity once some item names it otherwise.
   */
  weak: boolean;
}

/** A statement between two extracted entities (by key). */
export interface ExtractedStatement {
  a: string;
  b: string;
  type: StatementType;
}

/** What extraction returns for one text. */
export interface Extraction {
  entities: ExtractedEntity[];
  statements: ExtractedStatement[];
  /** True when the text was longer than the extraction bound and only its start was read. */
  truncated: boolean;
}

/** An entity as the graph reports it. */
export interface EntityInfo {
  key: string;
  /** The surface form most items use. */
  name: string;
  type: EntityType;
  /** Items (not forgotten) that mention it. */
  mentions: number;
  /** Distinct neighbouring entities. */
  degree: number;
  /** Some item names it other than at a sentence start; recall only traverses confirmed entities. */
  confirmed: boolean;
  /** Other surface forms and alias names. */
  aliases: string[];
}

/** One neighbour of an entity in `graph neighbors`. */
export interface NeighborInfo {
  entity: EntityInfo;
  /** Entity edges from the start entity. */
  distance: number;
  /** Entity names from the start entity to this one. */
  path: string[];
  /** Edge types and weights to the previous entity on the path. */
  edges: { type: EdgeType; weight: number }[];
}

/** Counts for `graph stats`. */
export interface GraphStats {
  space: string;
  entities: number;
  mentions: number;
  edges: number;
  items_extracted: number;
  /** Items whose extraction is missing or older than their current version (`graph rebuild` fixes). */
  items_stale: number;
  by_type: Record<string, number>;
  edges_by_type: Record<string, number>;
  hub_threshold: number;
  hubs: { key: string; name: string; mentions: number; degree: number }[];
}
