/** Identifiers: ULIDs, sortable by creation time and unique across processes. */
import { monotonicFactory } from 'ulid';

const next = monotonicFactory();

/** A new ULID for a memory, relation or event. */
export function newId(at: number = Date.now()): string {
  return next(at);
}
