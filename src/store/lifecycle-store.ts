/**
 * The LifecycleStore capability: what decay, review, reinforcement and auto-recall need from a
 * backend beyond the Store interface. A backend exposes it as `store.lifecycle`; one without it
 * makes every lifecycle operation fail with a clear error instead of half-working.
 */
import { EngramError } from '../domain/errors.js';
import type { Kind, Prior, Status } from '../domain/types.js';

/** The stored facts strength is computed from (§7.1), one row per item. */
export interface DecayFacts {
  id: string;
  space: string;
  kind: Kind;
  area: string;
  tags: string[];
  status: Status;
  pinned: boolean;
  importance: number;
  /** Stored strength (as of the last maintenance or use). */
  strength: number;
  /** Raised by use; null means the initial base (1, or `candidate_base` for a candidate). */
  base: number | null;
  created_at: number;
  /** Time of the latest body revision (version > 1), if any. */
  last_revised_at: number | null;
  use_count: number;
  last_used_at: number | null;
  /** Time of the latest explicit return from a non-live status (restore), if any. */
  last_restored_at: number | null;
}

/** One item's new strength (and base, when it changes). */
export interface StrengthUpdate {
  id: string;
  strength: number;
  base?: number;
}

/** A status change decided by the decay job (§7.2), written with its status event. */
export interface LifecycleTransition {
  id: string;
  from: Status;
  to: Status;
  reason: string;
  event_id: string;
  prior: Prior;
}

/** A finished maintenance run as recorded. */
export interface MaintenanceRunRecord {
  id: string;
  space: string | null;
  started_at: number;
  finished_at: number;
  backup_path: string | null;
  summary: Record<string, unknown>;
}

/** Everything one maintenance run writes, atomically. */
export interface MaintenanceWrite {
  updates: StrengthUpdate[];
  transitions: LifecycleTransition[];
  run: MaintenanceRunRecord;
  /** Conversation cooldown rows not touched since this time are dropped. */
  prune_conversations_before?: number;
}

/** Where a use came from. */
export type UseSource = 'explicit' | 'auto_recall' | 'review';

/** One recorded use (reinforcement) of an item, separate from access accounting (§3.6). */
export interface UseEventRecord {
  id: string;
  space: string;
  item_id: string;
  at: number;
  source: UseSource;
  conversation_id: string | null;
  /** Who reported the use (agent or person), when known. */
  actor: string | null;
  context_tags: string[];
  context_area: string | null;
  cross_domain: boolean;
  base_before: number;
  base_after: number;
  strength_before: number;
  strength_after: number;
}

/** Counts of use events in a space. */
export interface UseCounts {
  events: number;
  cross_domain: number;
  by_source: Record<string, number>;
}

/** Per-conversation auto-recall state: recent topics and the last recall (cooldown). */
export interface ConversationState {
  space: string;
  conversation_id: string;
  /** Stemmed topics of each recent message, oldest first. */
  topics: string[][];
  last_recall_at: number | null;
  updated_at: number;
}

/** An item's reinforcement base, as an export carries it (items whose base is still null have none). */
export interface StrengthBaseRecord {
  space: string;
  item_id: string;
  base: number;
}

/** One persisted per-space setting (a JSON value under a key). */
export interface SettingRecord {
  space: string;
  key: string;
  value: unknown;
  updated_at: number;
}

/** One lifecycle record of an export or import, tagged with its line type. */
export type LifecycleRecord =
  | { kind: 'strength_base'; value: StrengthBaseRecord }
  | { kind: 'use_event'; value: UseEventRecord }
  | { kind: 'setting'; value: SettingRecord }
  | { kind: 'autorecall_conversation'; value: ConversationState }
  | { kind: 'maintenance_run'; value: MaintenanceRunRecord };

/** What importing one lifecycle record did: written, already there, or failed alone. */
export type LifecycleImportOutcome = 'imported' | 'exists' | { error: EngramError };

/** What the lifecycle and auto-recall modules persist through. */
export interface LifecycleStore {
  /** Decay facts of every item except forgotten ones, in a space (or all spaces when null). */
  decayFacts(space: string | null, ids?: readonly string[]): Promise<DecayFacts[]>;
  /**
   * Reads the facts, runs the plan and writes its result in one transaction: all of it or
   * nothing. `onProgress` is called while writing; a throw from it rolls everything back.
   */
  applyMaintenance(
    space: string | null,
    plan: (facts: readonly DecayFacts[]) => MaintenanceWrite,
    onProgress?: (done: number, total: number) => void,
  ): Promise<MaintenanceWrite>;
  /**
   * A consistent online copy of the whole database file at `destination` (`.db`). Absent where a
   * backend has no such copy: maintenance then backs up a JSONL export of `Store.snapshot`.
   */
  backup?(destination: string): Promise<void>;
  /**
   * Records uses in one transaction: reads the named items' facts, runs the plan, writes the
   * events and each item's new base, strength, use_count and last_used_at.
   */
  recordUses(
    space: string,
    ids: readonly string[],
    plan: (facts: ReadonlyMap<string, DecayFacts>) => UseEventRecord[],
  ): Promise<UseEventRecord[]>;
  useCounts(space: string, since?: number): Promise<UseCounts>;
  useEvents(space: string, itemId: string): Promise<UseEventRecord[]>;
  getSetting(space: string, key: string): Promise<unknown>;
  putSetting(space: string, key: string, value: unknown, at: number): Promise<void>;
  conversation(space: string, conversationId: string): Promise<ConversationState | undefined>;
  putConversation(state: ConversationState): Promise<void>;
  lastMaintenance(space: string | null): Promise<MaintenanceRunRecord | undefined>;
  /**
   * Streams the lifecycle records of a space (or all spaces when null) in a stable order, page by
   * page: reinforcement bases (by item id), use events (by id), settings (by space, key),
   * conversation states (by space, conversation id), maintenance runs (by id; a space's export
   * leaves out store-wide runs).
   */
  exportLifecycle(space: string | null): AsyncIterable<LifecycleRecord>;
  /**
   * Imports records in one transaction; an outcome per record, in the order given. Idempotent
   * (see planLifecycleImport): a record the store already holds is `exists`, and a base for an
   * item the store lacks fails alone.
   */
  importLifecycle(records: readonly LifecycleRecord[]): Promise<LifecycleImportOutcome[]>;
  /** Stored vectors of a model for some items of a space (items without one are left out). */
  storedVectors(
    space: string,
    ids: readonly string[],
    model: string,
  ): Promise<Map<string, Float32Array>>;
}

/** The store's lifecycle capability, or a clear error naming the backend that lacks it. */
export function requireLifecycle(store: {
  readonly lifecycle?: LifecycleStore;
  readonly capabilities: { readonly backend: string };
}): LifecycleStore {
  if (store.lifecycle) return store.lifecycle;
  throw new EngramError(
    'STORE_UNAVAILABLE',
    `the ${store.capabilities.backend} store does not support lifecycle operations (decay, review, reinforcement, auto-recall)`,
    { rule: 'store capability: lifecycle' },
  );
}
