/**
 * The Store interface: everything engram persists goes through it. Each backend (sqlite/,
 * postgres/) implements it; backend differences are capability flags, never branches in core.
 * Writes are whole units: every method that changes data is atomic on its own.
 */
import type { Kind, Prior, RelationType, Source, Status, VectorState } from '../core/types.js';

/** What a backend can do, so core chooses strategies without naming the backend. */
export interface StoreCapabilities {
  /** Backend name for status output. */
  readonly backend: string;
  /** How the vector channel searches: exact scan or an approximate index. */
  readonly vectorIndex: 'exact' | 'hnsw';
  /** Whether several processes may share the store. */
  readonly multiProcess: boolean;
  /** Whether an online consistent backup is available. */
  readonly onlineBackup: boolean;
}

/** A stored item, as the store holds it (timestamps in epoch milliseconds). */
export interface ItemRecord {
  id: string;
  space: string;
  area: string;
  kind: Kind;
  title: string | null;
  body: string;
  body_hash: string;
  tags: string[];
  importance: number;
  pinned: boolean;
  status: Status;
  strength: number;
  source: Source | null;
  version: number;
  created_at: number;
  updated_at: number;
  access_count: number;
  last_accessed_at: number | null;
  use_count: number;
  last_used_at: number | null;
  prior: Prior | null;
  vector_state: VectorState;
}

/** A stored version. */
export interface VersionRecord {
  item_id: string;
  version: number;
  title: string | null;
  body: string;
  tags: string[];
  actor: string | null;
  reason: string | null;
  created_at: number;
}

/** A stored relation. */
export interface RelationRecord {
  id: string;
  space: string;
  type: RelationType;
  from_id: string;
  to_id: string;
  actor: string | null;
  reason: string | null;
  created_at: number;
  invalidated_at: number | null;
  invalidated_reason: string | null;
}

/** A stored status event. */
export interface StatusEventRecord {
  id: string;
  item_id: string;
  from_status: Status | null;
  to_status: Status;
  reason: string;
  actor: string | null;
  at: number;
}

/** A vector to store for one item version, or null when the text has nothing to embed. */
export interface VectorWrite {
  model: string;
  vector: Float32Array | null;
}

/** Filters shared by list and every recall channel (§3.3). */
export interface ItemFilter {
  space: string;
  statuses: readonly Status[];
  kinds?: readonly Kind[];
  /** Area prefixes: `projects` matches `projects` and `projects/...`. */
  areas?: readonly string[];
  /** Items must carry every tag. */
  tags?: readonly string[];
  pinned?: boolean;
  created_after?: number;
  created_before?: number;
  updated_after?: number;
  updated_before?: number;
}

/** A new item to insert (with its first version). */
export interface ItemDraft {
  item: ItemRecord;
  actor: string | null;
  reason: string | null;
  vector?: VectorWrite;
}

/** Result of inserting one draft: created, or the existing exact duplicate. */
export interface CreateOutcome {
  item: ItemRecord;
  created: boolean;
}

/** A change to one item inside a mutation. */
export interface ItemChange {
  id: string;
  patch?: Partial<Omit<ItemRecord, 'id' | 'space' | 'created_at' | 'version'>>;
  /** A new body version; the store numbers it. */
  version?: {
    title: string | null;
    body: string;
    tags: string[];
    actor: string | null;
    reason: string | null;
    at: number;
  };
  statusEvent?: Omit<StatusEventRecord, 'item_id'>;
  /** Replace the item's vector (or mark it pending with `'pending'`). */
  vector?: VectorWrite | 'pending';
}

/** Everything one mutation writes, atomically. */
export interface Mutation {
  changes: ItemChange[];
  addRelations?: RelationRecord[];
  invalidateRelations?: { id: string; at: number; reason: string }[];
}

/** What a mutation plan sees: the current items (by id) and their live relations. */
export interface MutationContext {
  items: ReadonlyMap<string, ItemRecord>;
  relations: readonly RelationRecord[];
}

/** Pure domain logic deciding a mutation from current state; may throw EngramError to abort. */
export type MutationPlan = (context: MutationContext) => Mutation;

/** A list request. */
export interface ListQuery {
  filter: ItemFilter;
  limit: number;
  order: 'created' | 'updated';
  /** Opaque cursor returned by the previous page. */
  cursor?: string;
}

/** A scored candidate from a search channel, best first. */
export interface ScoredId {
  id: string;
  score: number;
}

/** An item waiting for a vector. */
export interface PendingVector {
  id: string;
  version: number;
  title: string | null;
  body: string;
  tags: string[];
}

/** Counts and facts for `status`. */
export interface StoreStats {
  location: string;
  schema_version: number;
  items_total: number;
  by_status: Record<string, number>;
  by_kind: Record<string, number>;
  vectors: Record<VectorState, number>;
  relations: number;
  size_bytes: number | null;
}

/** Full record of one item for export/import (lossless). */
export interface ItemExport {
  item: ItemRecord;
  versions: VersionRecord[];
  status_events: StatusEventRecord[];
  vectors: { model: string; dimension: number; vector: Float32Array | null }[];
}

/** Result of importing one full item record. */
export type ImportOutcome = 'imported' | 'exists';

/** The published embedding model (§8). */
export interface ModelRecord {
  id: string;
  dimension: number;
  published_at: number;
}

/** The persistence contract every backend implements. */
export interface Store {
  readonly capabilities: StoreCapabilities;
  /** Creates items; an exact duplicate (same space, kind, body hash, not forgotten) returns the existing item. */
  createItems(drafts: readonly ItemDraft[]): Promise<CreateOutcome[]>;
  getItems(space: string, ids: readonly string[]): Promise<ItemRecord[]>;
  listItems(query: ListQuery): Promise<{ items: ItemRecord[]; next_cursor: string | null }>;
  /** Reads the items, runs the plan and writes its mutation in one transaction. */
  mutate(space: string, ids: readonly string[], plan: MutationPlan): Promise<ItemRecord[]>;
  /** Irreversibly deletes an item's text, versions, vectors and index entries; keeps an audit row. */
  purge(
    space: string,
    id: string,
    audit: { actor: string | null; reason: string | null; at: number },
  ): Promise<void>;
  versions(space: string, id: string): Promise<VersionRecord[]>;
  statusEvents(space: string, id: string): Promise<StatusEventRecord[]>;
  relations(space: string, id: string): Promise<RelationRecord[]>;
  publishedModel(): Promise<ModelRecord | undefined>;
  publishModel(id: string, dimension: number, at: number): Promise<ModelRecord>;
  pendingVectors(limit: number): Promise<PendingVector[]>;
  /** Stores vectors only where the item is still at the given version; returns how many were stored. */
  putVectors(
    model: string,
    entries: readonly { id: string; version: number; vector: Float32Array | null }[],
  ): Promise<number>;
  keywordSearch(filter: ItemFilter, terms: readonly string[], limit: number): Promise<ScoredId[]>;
  vectorSearch(
    filter: ItemFilter,
    model: string,
    vector: Float32Array,
    limit: number,
  ): Promise<ScoredId[]>;
  /** Records one access for each id (§3.6). */
  recordAccess(space: string, ids: readonly string[], at: number): Promise<void>;
  stats(space: string | null): Promise<StoreStats>;
  /** Streams full item records of a space (or all spaces) in id order. */
  exportItems(space: string | null): AsyncIterable<ItemExport>;
  exportRelations(space: string | null): AsyncIterable<RelationRecord>;
  /** Imports full records; an id that exists already is left as it is. */
  importItems(records: readonly ItemExport[]): Promise<ImportOutcome[]>;
  importRelations(records: readonly RelationRecord[]): Promise<ImportOutcome[]>;
  integrityCheck(): Promise<{ ok: boolean; problems: string[] }>;
  close(): Promise<void>;
}
