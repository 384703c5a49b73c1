/** A new item's record, built from validated `remember` input (no I/O). */
import { newId } from '../domain/ids.js';
import type { InputSchemas } from '../domain/input.js';
import type { ItemRecord } from '../domain/records.js';
import { bodyHash } from '../domain/text.js';
import type { ItemDraft } from '../store/store.js';

/** Validated `remember` input. */
export type RememberFields = ReturnType<InputSchemas['remember']['parse']>;

/** The draft of a new item in `space`, created now unless the input dates it. */
export function draftItem(input: RememberFields, space: string, now: number): ItemDraft {
  const created = input.created_at ? Date.parse(input.created_at) : now;
  const item: ItemRecord = {
    id: newId(created),
    space,
    area: input.area,
    kind: input.kind,
    title: input.title ?? null,
    body: input.body,
    body_hash: bodyHash(input.body),
    tags: [...new Set(input.tags)],
    importance: input.importance,
    pinned: input.pinned,
    status: input.status,
    strength: 1,
    source: input.source ?? null,
    version: 1,
    created_at: created,
    updated_at: created,
    access_count: 0,
    last_accessed_at: null,
    use_count: 0,
    last_used_at: null,
    prior: null,
    vector_state: 'pending',
  };
  return { item, actor: input.actor ?? null, reason: input.reason ?? null };
}
