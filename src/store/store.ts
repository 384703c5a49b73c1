/**
 * The Store interface: everything engram persists goes through it. Each backend (sqlite/,
 * postgres/) implements it; backend differences are capability flags, never branches in core.
 * Writes are whole units: every method that changes data is atomic on its own.
 */
import type { ItemFilter } from '../domain/filter.js';
import type {
  ItemExport,
  ItemRecord,
  ModelRecord,
  RelationRecord,
  StatusEventRecord,
  VersionRecord,
} from '../domain/records.js';
import type { VectorState } from '../domain/types.js';
import type { DormantEventRecord, DormantStateRecord, DormantStore } from './dormant-store.js';
import type { DreamStore } from './dream-store.js';
import type { GraphStore } from './graph-store.js';
import type { KeywordIndexState, VectorIndexState } from './index-state.js';
import type { JobStore } from './job-store.js';
import type { LifecycleRecord, LifecycleStore } from './lifecycle-store.js';
import type { ModelStore } from './model-store.js';
import type { SessionExportRecord, SessionStore } from './session-store.js';

export type { KeywordIndexState, VectorIndexState } from './index-state.js';

/** What a backend can do, so core chooses strategies without naming the backend. */
/** Accesses of one item gathered over a while: how many, and the latest one (epoch ms). */
export interface AccessCount {
  id: string;
  count: number;
  at: number;
}

/** One access of each distinct id at `at`. */
export function oneAccessEach(ids: readonly string[], at: number): AccessCount[] {
  return [...new Set(ids)].map((id) => ({ id, count: 1, at }));
}

export interface StoreCapabilities {
  /** Backend name for status output. */
  readonly backend: string;
  /** Whether an online consistent backup is available. */
  readonly onlineBackup: boolean;
}

/** A vector to store for one item version, or null when the text has nothing to embed. */
export interface VectorWrite {
  model: string;
  vector: Float32Array | null;
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

/** Item columns a mutation may patch; every backend applies exactly these. */
export const PATCHABLE_COLUMNS: ReadonlySet<string> = new Set([
  'area',
  'kind',
  'title',
  'body',
  'body_hash',
  'tags',
  'importance',
  'pinned',
  'status',
  'strength',
  'source',
  'updated_at',
  'access_count',
  'last_accessed_at',
  'use_count',
  'last_used_at',
  'prior',
  'vector_state',
]);

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

/** Where an item sits in a recorded conversation (`source.session`, `source.turn`), and its body. */
export interface SessionTurn {
  id: string;
  session: string;
  turn: number;
  body: string;
  /** Creation time (ms), given for write neighbours. */
  at?: number;
}

/**
 * The `session` of a write neighbour (`writeNeighbors`): items written with no session, placed by
 * their write order (`turn` is the item's store position) and dated (`at`). No recorded session
 * can have this id (session ids hold no NUL character).
 */
export const WRITE_ORDER = '\u0000write-order';

/**
 * The kinds that take part in conversations for recall's context (recorded sessions and write
 * order alike): free text that may be one part of a conversation. Facts, preferences, rules,
 * skills, procedures, identity and working memory stand on their own, even when a session handle
 * (an MCP connection) stamped its session on them: they neither lend nor take evidence.
 */
export const CONVERSATION_KINDS = ['note', 'episode'] as const;

/** A vector search's hits, and why it ran in a degraded way when it did (e.g. `ann_index_stale`). */
export interface VectorSearchResult {
  hits: ScoredId[];
  degraded?: string;
}

/** An item waiting for a vector. */
export interface PendingVector {
  id: string;
  version: number;
  space: string;
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
  /** Approximate vector indexes this process has in use (backends with `vectorIndex: 'hnsw'`). */
  vector_index?: VectorIndexState[];
  /** The in-memory keyword index of this process (SQLite, unless `store.keyword_memory` is off). */
  keyword_index?: KeywordIndexState;
}

/** A count of one UTC day (epoch ms / 86 400 000, floored) and one key (a kind or a status). */
export interface DayCount {
  day: number;
  key: string;
  count: number;
}

/** What the console's health page charts of a space, counted by the database (GROUP BY). */
export interface StoreInsights {
  /** Items created before `since`, by kind: where the running totals by kind start. */
  kinds_before: Record<string, number>;
  /** Items created per UTC day and kind, from `since` on. */
  created: DayCount[];
  /** Status changes per UTC day and new status, from `since` on (status events). */
  status_changes: DayCount[];
  /** Items by current status (none recorded counts as `active`). */
  by_status: Record<string, number>;
  /** Live items (not forgotten, merged or superseded) per tenth of strength; the last holds 1. */
  strength: number[];
}

/** A space and how many items it holds. */
export interface SpaceCount {
  space: string;
  items: number;
}

/** Result of importing one full item record. */
export type ImportOutcome = 'imported' | 'exists';

/** A held lease, as the function running under it sees it. */
export interface Lease {
  readonly name: string;
  /** Unique id of this holding (host, process and a random part). */
  readonly holder: string;
  /** Aborted when the lease is lost (it could not be renewed before it expired). */
  readonly signal: AbortSignal;
}

/** Result of withLease: the function's value, or who holds the lease instead. */
export type LeaseOutcome<T> =
  | { acquired: true; value: T }
  | { acquired: false; holder: string; expires_at: number };

/**
 * The store's records as of one moment, read inside `Store.snapshot` (the export and the JSONL
 * backup are written from it). Each stream pages through one table in key order; a space of null
 * reads every space. The view is only valid until the snapshot's function settles.
 */
export interface SnapshotView {
  /** When the snapshot was taken (epoch ms), by the database's clock where it has one. */
  readonly at: number;
  /** Full item records (with versions, status events and vectors) in id order. */
  items(space: string | null): AsyncIterable<ItemExport>;
  /** Relations in id order. */
  relations(space: string | null): AsyncIterable<RelationRecord>;
  /** Lifecycle records in `LifecycleStore.exportLifecycle`'s order; none without the capability. */
  lifecycle(space: string | null): AsyncIterable<LifecycleRecord>;
  /** Dormant-recall events by id; none before the first evaluation creates their table. */
  dormantEvents(space: string | null): AsyncIterable<DormantEventRecord>;
  /** Dormant-recall state rows by item id; none before their table exists. */
  dormantStates(space: string | null): AsyncIterable<DormantStateRecord>;
  /** Sessions, then the audit rows of purged ones, in `SessionStore.exportSessions`'s order. */
  sessions(space: string | null): AsyncIterable<SessionExportRecord>;
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
  /** vectorSearch that also reports a degraded search (approximate index unusable); optional. */
  vectorSearchReport?(
    filter: ItemFilter,
    model: string,
    vector: Float32Array,
    limit: number,
  ): Promise<VectorSearchResult>;
  /**
   * Session context for recall: for the given items that are conversation turns (source.session
   * and source.turn, a kind of `CONVERSATION_KINDS`), their own positions and those of the turns
   * passing `filter` within `window` turns of them in the same session. Optional: recall goes
   * without session context where a backend lacks it.
   */
  sessionNeighbors?(
    filter: ItemFilter,
    ids: readonly string[],
    window: number,
  ): Promise<SessionTurn[]>;
  /**
   * Write neighbourhoods (recall's context for memories written with no session): for each of
   * `ids` that has no `source.session` and a kind of `CONVERSATION_KINDS`, itself and the items of
   * its space within `window` places of it in the store's write order that are alike (no
   * session, such a kind), pass `filter` and were created at most `gapMs` apart from it; as turns
   * of the session `WRITE_ORDER`, dated. Optional like `sessionNeighbors`.
   */
  writeNeighbors?(
    filter: ItemFilter,
    ids: readonly string[],
    window: number,
    gapMs: number,
  ): Promise<SessionTurn[]>;
  /**
   * The highest `source.turn` recorded for a conversation (`source.session`) in a space, any
   * status, or null when the session has no turn there: where a writer continuing that session
   * goes on numbering its turns.
   */
  lastTurn(space: string, session: string): Promise<number | null>;
  /** Records one access for each id (§3.6). */
  recordAccess(space: string, ids: readonly string[], at: number): Promise<void>;
  /**
   * Adds each entry's accesses to its item, in one transaction: `count` to `access_count`, and
   * `at` as `last_accessed_at` unless the item holds a later one (a write-behind flush may arrive
   * after another process recorded a newer access). Ids not in the space are skipped.
   */
  recordAccessCounts(space: string, counts: readonly AccessCount[]): Promise<void>;
  stats(space: string | null): Promise<StoreStats>;
  /** Every space that holds items, by name, with its item count (any status). */
  spaces(): Promise<SpaceCount[]>;
  /** Counts of a space over time (from epoch ms `since`) and its strength distribution. */
  insights(space: string, since: number): Promise<StoreInsights>;
  /** Streams full item records of a space (or all spaces) in id order. */
  exportItems(space: string | null): AsyncIterable<ItemExport>;
  exportRelations(space: string | null): AsyncIterable<RelationRecord>;
  /** Imports full records; an id that exists already is left as it is. */
  importItems(records: readonly ItemExport[]): Promise<ImportOutcome[]>;
  importRelations(records: readonly RelationRecord[]): Promise<ImportOutcome[]>;
  /**
   * Runs `read` over one consistent, read-only view of the whole store (one read transaction
   * that writers do not wait for), and ends that transaction when `read` settles.
   */
  snapshot<T>(read: (view: SnapshotView) => Promise<T>): Promise<T>;
  integrityCheck(): Promise<{ ok: boolean; problems: string[] }>;
  /**
   * Runs `fn` while holding the named lease (§11: background work coordinated across processes
   * sharing the store). Not taken when another holder's lease has not expired; renewed while
   * `fn` runs; released after. A holder that dies frees the lease after `ttlMs`.
   */
  withLease<T>(
    name: string,
    ttlMs: number,
    fn: (lease: Lease) => Promise<T>,
  ): Promise<LeaseOutcome<T>>;
  /** Decay, review, reinforcement and auto-recall persistence; absent where a backend lacks it. */
  readonly lifecycle?: LifecycleStore;
  /** Knowledge-graph persistence (§4); absent where a backend lacks it (graph_unsupported). */
  readonly graph?: GraphStore;
  /** Dormant-recall persistence (§9.5); absent where a backend lacks it (evaluation is off). */
  readonly dormant?: DormantStore;
  /** Background jobs and per-item work failures (§11); absent where a backend lacks it. */
  readonly jobs?: JobStore;
  /** Embedding models and their transitions (§8); absent where a backend lacks them. */
  readonly models?: ModelStore;
  /** Past conversations, searched as conversations (§1.4); absent where a backend lacks them. */
  readonly sessions?: SessionStore;
  /** Dream runs, their diaries and daily caps (§10); absent where a backend lacks them. */
  readonly dreams?: DreamStore;
  close(): Promise<void>;
}
