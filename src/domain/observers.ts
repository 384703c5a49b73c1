/**
 * Write observers: modules that keep derived state (the knowledge graph, lifecycle bookkeeping)
 * current hear about every committed write here, after the store has committed it. A failing
 * observer is logged and never undoes or fails the write; derived state has its own rebuild.
 */
import type { ItemRecord } from './records.js';

/** A committed write. */
export type WriteEvent =
  | { type: 'created'; space: string; items: readonly ItemRecord[] }
  | { type: 'changed'; space: string; items: readonly ItemRecord[]; operation: string }
  | { type: 'purged'; space: string; id: string }
  | { type: 'relations'; space: string; ids: readonly string[]; operation: string };

/** Something that follows committed writes. */
export interface WriteObserver {
  readonly name: string;
  onWrite(event: WriteEvent): Promise<void> | void;
}
