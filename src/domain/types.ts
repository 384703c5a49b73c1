/**
 * Domain types of engram: memory items, versions, relations, status events and the recall
 * envelope. These are the shapes every interface (library, CLI, MCP, HTTP) returns.
 */
/** Memory kinds of §1.1. */
export const KINDS = [
  'fact',
  'preference',
  'rule',
  'skill',
  'procedure',
  'note',
  'episode',
  'identity',
  'working',
] as const;
/** Item statuses of §1.1 / §7. */
export const STATUSES = [
  'candidate',
  'active',
  'challenged',
  'superseded',
  'merged',
  'archived',
  'forgotten',
] as const;

/** A memory kind (§1.1). */
export type Kind = (typeof KINDS)[number];
/** A memory status (§1.1, §7). */
export type Status = (typeof STATUSES)[number];

/** Relation types between memories (§1.2). */
export const RELATION_TYPES = ['merged_into', 'supersedes', 'related', 'derived_from'] as const;
/** A relation type. */
export type RelationType = (typeof RELATION_TYPES)[number];

/** Trust labels for provenance. */
export const TRUST_LABELS = ['user', 'agent', 'import', 'system', 'external'] as const;
/** A provenance trust label. */
export type Trust = (typeof TRUST_LABELS)[number];

/**
 * The recall channels (§3.1), declared once: weights, evidence and degradations are keyed by
 * them. This order is the order of the configuration and of the documentation.
 */
export const CHANNELS = ['keyword', 'vector', 'graph', 'time'] as const;
/** The name of a recall channel. */
export type ChannelName = (typeof CHANNELS)[number];

/** A record with one entry per channel, in CHANNELS order (weights, their schemas). */
export function perChannel<V>(value: (channel: ChannelName) => V): Record<ChannelName, V> {
  return Object.fromEntries(CHANNELS.map((c) => [c, value(c)])) as Record<ChannelName, V>;
}

/** Provenance of a memory: who or what wrote it. */
export interface Source {
  agent?: string;
  /** Who said or wrote it, for a conversation turn or a quote: a person's name. */
  speaker?: string;
  session?: string;
  turn?: number;
  url?: string;
  import?: string;
  trust?: Trust;
}

/** Audit of the last automatic change, so it can be undone. */
export interface Prior {
  kind?: Kind;
  area?: string;
  status?: Status;
  at: string;
  reason: string;
}

/** Whether the item has a vector for the published model. */
export type VectorState = 'ready' | 'pending' | 'empty';

/** A memory item as callers see it (§1.1). Timestamps are ISO 8601 strings. */
export interface Memory {
  id: string;
  space: string;
  area: string;
  kind: Kind;
  title: string | null;
  body: string;
  tags: string[];
  importance: number;
  pinned: boolean;
  status: Status;
  strength: number;
  source: Source | null;
  version: number;
  created_at: string;
  updated_at: string;
  access_count: number;
  last_accessed_at: string | null;
  use_count: number;
  last_used_at: string | null;
  prior: Prior | null;
  vector: VectorState;
}

/** One numbered body version (§1.2). */
export interface Version {
  item_id: string;
  version: number;
  title: string | null;
  body: string;
  tags: string[];
  actor: string | null;
  reason: string | null;
  created_at: string;
}

/** A typed edge between two memories with its own history (§1.2). */
export interface Relation {
  id: string;
  space: string;
  type: RelationType;
  from_id: string;
  to_id: string;
  actor: string | null;
  reason: string | null;
  created_at: string;
  invalidated_at: string | null;
  invalidated_reason: string | null;
}

/** A recorded status change with its reason (§1.2). */
export interface StatusEvent {
  id: string;
  item_id: string;
  from_status: Status | null;
  to_status: Status;
  reason: string;
  actor: string | null;
  at: string;
}

/** The whole history of one item: versions, status events and relations. */
export interface History {
  item: Memory;
  versions: Version[];
  status_events: StatusEvent[];
  relations: Relation[];
}

/**
 * Per-channel evidence for one recall hit (§3.5): its rank in each channel that found it. The
 * graph channel reports hops instead (1 = the item names an entity of the query, 2 = one entity
 * edge further, §4); the time channel's rank is in the keyword search within the time the query
 * names.
 */
export interface HitChannels extends Partial<Record<ChannelName, number>> {
  /** Entity names from the query's entity to the one the item names (why it was reached). */
  graph_path?: string[];
}

/**
 * Where a hit added by a candidate source of the decision stage (§5.3) came from: a memory item the
 * graph source found, a section of engram's own documentation, or an excerpt of a past session.
 * Docs and session hits are not memory items: their id names the section or the turn.
 */
export type HitSource =
  | { type: 'graph' }
  | { type: 'docs'; document: string; section: string; pointer: string }
  | { type: 'session'; session_id: string; turn_index: number; role: string; agent: string | null };

/** One recall hit (§3.5). */
export interface RecallHit {
  id: string;
  kind: Kind;
  area: string;
  title: string | null;
  body: string;
  score: number;
  relevance?: number;
  channels: HitChannels;
  status: Status;
  importance: number;
  updated_at: string;
  /** Set on a hit a candidate source added to an applied decision stage (§5.3). */
  source?: HitSource;
}

/** A channel that did not contribute, and why (§3.4). */
export interface Degradation {
  channel: ChannelName;
  reason: string;
}

/** What the second stage did (§3.5, §5). */
export interface Decision {
  state: 'applied' | 'fell_back' | 'skipped' | 'off';
  /** Why the stage fell back (`fell_back`) or did not run (`skipped`). */
  reason?: string;
  /** The adapter that judged (or was to judge). */
  adapter?: string;
  /** The best relevance of an applied stage is below `recall.decision.min_relevance`. */
  low_confidence?: boolean;
  /** Legacy reranking asked for while decision recall was selected: it did not run, and why. */
  rerank?: { state: 'skipped'; reason: string };
}

/** The recall response envelope (§3.5), identical on every interface. */
export interface RecallResponse {
  hits: RecallHit[];
  degraded: Degradation[];
  decision: Decision;
  timings_ms: Record<string, number>;
}

/** An existing memory related to a new one (auto-recall on writes, §6): a short handle. */
export interface RelatedMemory {
  id: string;
  /** The title, or the first words of the body. */
  label: string;
  relevance: number;
}

/** Why a write returned without its related memories. */
export type RelatedSkipReason = 'budget_exceeded';

/** What auto-recall adds to a write; every field is absent when it does not apply. */
export interface RelatedFields {
  /** Existing memories related to the new one, best first (subtle, or interactive on request). */
  related_memories?: RelatedMemory[];
  /** One line naming them, e.g. `2 related memories: <label>; <label>` (when any were found). */
  hint?: string;
  /** Set instead of the two above when the related search did not fit its time budget. */
  related_skipped?: RelatedSkipReason;
}

/** Result of remember: the item, and whether it was created or an exact duplicate was found. */
export interface RememberResult extends RelatedFields {
  memory: Memory;
  created: boolean;
  /**
   * On an exact duplicate, the options the caller gave that differed and were applied to the
   * existing memory as changes with history (`area`, `importance`, `tags`, `pinned`).
   */
  applied?: DuplicateOption[];
}

/** An option of `remember` that an exact duplicate can apply to the existing memory. */
export type DuplicateOption = 'area' | 'importance' | 'tags' | 'pinned';

/** Per-item result of a batch write: a bad item fails alone. */
export type BatchResult =
  | { index: number; ok: true; memory: Memory; created: boolean }
  | { index: number; ok: false; error: { code: string; message: string; field?: string } };
