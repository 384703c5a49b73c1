/**
 * How a batch of imported lifecycle records applies (§12), decided once for every backend. A
 * backend reads what it holds for the batch's keys inside its transaction, this plan decides each
 * record's outcome and the rows to write, and the backend writes them in the same transaction.
 * Rules: a reinforcement base fills an item's base only while it is unset (an item that exists
 * keeps its own state, as item import does) and fails alone when the item is missing; use events
 * and maintenance runs are kept by id; a setting or a conversation state replaces the held one
 * only when newer. So a re-run changes nothing and reports `exists`.
 */
import { EngramError } from '../domain/errors.js';
import type {
  ConversationState,
  LifecycleImportOutcome,
  LifecycleRecord,
  MaintenanceRunRecord,
  SettingRecord,
  StrengthBaseRecord,
  UseEventRecord,
} from './lifecycle-store.js';

/** One key of two parts (a space and a name); spaces never hold NUL, so keys never collide. */
export function pairKey(space: string, name: string): string {
  return `${space}\u0000${name}`;
}

/** The stored rows an import batch reads first (each list without repeats). */
export interface LifecycleImportKeys {
  items: { space: string; id: string }[];
  use_events: string[];
  settings: { space: string; key: string }[];
  conversations: { space: string; conversation_id: string }[];
  runs: string[];
}

/** What the store holds for a batch's keys. */
export interface LifecycleImportState {
  /** Base of each named item the store holds, by pairKey(space, id); null while unset. */
  bases: Map<string, number | null>;
  /** Ids of use events the store holds. */
  use_events: Set<string>;
  /** `updated_at` of each held setting, by pairKey(space, key). */
  settings: Map<string, number>;
  /** `updated_at` of each held conversation state, by pairKey(space, conversation_id). */
  conversations: Map<string, number>;
  /** Ids of maintenance runs the store holds. */
  runs: Set<string>;
}

/** The rows a batch writes: bases set, rows inserted, settings and conversations upserted. */
export interface LifecycleImportWrites {
  bases: StrengthBaseRecord[];
  use_events: UseEventRecord[];
  settings: SettingRecord[];
  conversations: ConversationState[];
  runs: MaintenanceRunRecord[];
}

function unique<T>(values: readonly T[], key: (v: T) => string): T[] {
  return [...new Map(values.map((v) => [key(v), v])).values()];
}

/** The keys whose stored rows decide a batch's outcomes. */
export function lifecycleImportKeys(records: readonly LifecycleRecord[]): LifecycleImportKeys {
  const keys: LifecycleImportKeys = {
    items: [],
    use_events: [],
    settings: [],
    conversations: [],
    runs: [],
  };
  for (const r of records) {
    if (r.kind === 'strength_base') keys.items.push({ space: r.value.space, id: r.value.item_id });
    else if (r.kind === 'use_event') keys.use_events.push(r.value.id);
    else if (r.kind === 'setting') keys.settings.push({ space: r.value.space, key: r.value.key });
    else if (r.kind === 'autorecall_conversation')
      keys.conversations.push({
        space: r.value.space,
        conversation_id: r.value.conversation_id,
      });
    else keys.runs.push(r.value.id);
  }
  return {
    items: unique(keys.items, (k) => pairKey(k.space, k.id)),
    use_events: [...new Set(keys.use_events)],
    settings: unique(keys.settings, (k) => pairKey(k.space, k.key)),
    conversations: unique(keys.conversations, (k) => pairKey(k.space, k.conversation_id)),
    runs: [...new Set(keys.runs)],
  };
}

/** The error of a base line whose item the store does not hold. */
function missingItem(r: StrengthBaseRecord): { error: EngramError } {
  const message = `item_id: memory ${r.item_id} not found in space ${r.space}; import its item line first`;
  return {
    error: new EngramError('NOT_FOUND', message, {
      field: 'item_id',
      rule: 'an item of the store',
      id: r.item_id,
    }),
  };
}

/**
 * Each record's outcome and the rows to write, applying the records in order against the held
 * state (so two lines of one key in a batch apply as they would one after another).
 */
export function planLifecycleImport(
  records: readonly LifecycleRecord[],
  held: LifecycleImportState,
): { outcomes: LifecycleImportOutcome[]; writes: LifecycleImportWrites } {
  const bases = new Map(held.bases);
  const events = new Set(held.use_events);
  const runs = new Set(held.runs);
  const settings = new Map(held.settings);
  const conversations = new Map(held.conversations);
  const setBases = new Map<string, StrengthBaseRecord>();
  const newSettings = new Map<string, SettingRecord>();
  const newConversations = new Map<string, ConversationState>();
  const writes: LifecycleImportWrites = {
    bases: [],
    use_events: [],
    settings: [],
    conversations: [],
    runs: [],
  };
  const newer = (map: Map<string, number>, key: string, at: number): boolean => {
    const had = map.get(key);
    if (had !== undefined && had >= at) return false;
    map.set(key, at);
    return true;
  };
  const outcomes = records.map((r): LifecycleImportOutcome => {
    switch (r.kind) {
      case 'strength_base': {
        const key = pairKey(r.value.space, r.value.item_id);
        const base = bases.get(key);
        if (base === undefined) return missingItem(r.value);
        if (base !== null) return 'exists';
        bases.set(key, r.value.base);
        setBases.set(key, r.value);
        return 'imported';
      }
      case 'use_event':
        if (events.has(r.value.id)) return 'exists';
        events.add(r.value.id);
        writes.use_events.push(r.value);
        return 'imported';
      case 'maintenance_run':
        if (runs.has(r.value.id)) return 'exists';
        runs.add(r.value.id);
        writes.runs.push(r.value);
        return 'imported';
      case 'setting': {
        const key = pairKey(r.value.space, r.value.key);
        if (!newer(settings, key, r.value.updated_at)) return 'exists';
        newSettings.set(key, r.value);
        return 'imported';
      }
      case 'autorecall_conversation': {
        const key = pairKey(r.value.space, r.value.conversation_id);
        if (!newer(conversations, key, r.value.updated_at)) return 'exists';
        newConversations.set(key, r.value);
        return 'imported';
      }
    }
  });
  writes.bases = [...setBases.values()];
  writes.settings = [...newSettings.values()];
  writes.conversations = [...newConversations.values()];
  return { outcomes, writes };
}
