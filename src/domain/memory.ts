/** Mapping of stored records to the shapes callers see (ISO timestamps, no storage fields). */
import type { ItemRecord, RelationRecord, StatusEventRecord, VersionRecord } from './records.js';
import type { Memory, Relation, StatusEvent, Version } from './types.js';

/** Epoch milliseconds -> ISO 8601, keeping null. */
export function isoOrNull(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** A stored item as a Memory. */
export function toMemory(r: ItemRecord): Memory {
  return {
    id: r.id,
    space: r.space,
    area: r.area,
    kind: r.kind,
    title: r.title,
    body: r.body,
    tags: [...r.tags],
    importance: r.importance,
    pinned: r.pinned,
    status: r.status,
    strength: r.strength,
    source: r.source,
    version: r.version,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
    access_count: r.access_count,
    last_accessed_at: isoOrNull(r.last_accessed_at),
    use_count: r.use_count,
    last_used_at: isoOrNull(r.last_used_at),
    prior: r.prior,
    vector: r.vector_state,
  };
}

/** A stored version as a Version. */
export function toVersion(v: VersionRecord): Version {
  return { ...v, tags: [...v.tags], created_at: new Date(v.created_at).toISOString() };
}

/** A stored relation as a Relation. */
export function toRelation(r: RelationRecord): Relation {
  return {
    ...r,
    created_at: new Date(r.created_at).toISOString(),
    invalidated_at: isoOrNull(r.invalidated_at),
  };
}

/** A stored status event as a StatusEvent. */
export function toStatusEvent(e: StatusEventRecord): StatusEvent {
  return { ...e, at: new Date(e.at).toISOString() };
}
