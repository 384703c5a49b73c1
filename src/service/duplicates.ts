/**
 * An exact duplicate `remember` (§2) with options that differ from the stored memory: the options
 * the caller gave are applied to the existing memory as ordinary changes with history (area by
 * move, importance, tags added, pinned), so the caller's intent is not silently dropped; the
 * result names what was applied.
 */
import type { DuplicateOption, Memory } from '../domain/types.js';
import type { MemoryChanges } from './memory-changes.js';

/** What the caller asked for explicitly (absent keys were not given). */
export interface DuplicateOptions {
  area?: string;
  importance?: number;
  tags?: readonly string[];
  pinned?: boolean;
}

/** The explicit options of a raw remember input. */
export function givenOptions(raw: unknown, parsed: DuplicateOptions): DuplicateOptions {
  const given = (key: string) => typeof raw === 'object' && raw !== null && Object.hasOwn(raw, key);
  return {
    ...(given('area') ? { area: parsed.area } : {}),
    ...(given('importance') ? { importance: parsed.importance } : {}),
    ...(given('tags') ? { tags: parsed.tags } : {}),
    ...(given('pinned') ? { pinned: parsed.pinned } : {}),
  };
}

/** Applies what differs; returns the memory after and the fields changed, in order. */
export async function applyToDuplicate(
  changes: Pick<MemoryChanges, 'move' | 'setImportance' | 'tag' | 'pin'>,
  memory: Memory,
  wanted: DuplicateOptions,
): Promise<{ memory: Memory; applied: DuplicateOption[] }> {
  const applied: DuplicateOption[] = [];
  const reason = 'remembered again with these options';
  const options = { space: memory.space, reason };
  let current = memory;
  if (wanted.area !== undefined && wanted.area !== current.area) {
    current = await changes.move(current.id, wanted.area, options);
    applied.push('area');
  }
  if (wanted.importance !== undefined && wanted.importance !== current.importance) {
    current = await changes.setImportance(current.id, wanted.importance, options);
    applied.push('importance');
  }
  const missing = (wanted.tags ?? []).filter((t) => !current.tags.includes(t));
  if (missing.length > 0) {
    current = await changes.tag(current.id, { add: missing }, options);
    applied.push('tags');
  }
  if (wanted.pinned === true && !current.pinned) {
    current = await changes.pin(current.id, options);
    applied.push('pinned');
  }
  return { memory: current, applied };
}
