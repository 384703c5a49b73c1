/**
 * The one path for changes to existing items: run a mutation plan in the store's transaction,
 * then tell the write bus when anything changed.
 */
import type { ItemRecord } from '../domain/records.js';
import type { MutationPlan, Store } from '../store/store.js';
import type { WriteBus } from './write-bus.js';

/** Runs a plan on a space's items and announces the change; returns the items as they are now. */
export type Mutate = (
  space: string,
  ids: readonly string[],
  plan: MutationPlan,
  operation: string,
) => Promise<ItemRecord[]>;

/** The mutate function of one store and write bus. */
export function mutator(store: Store, bus: WriteBus): Mutate {
  return async (space, ids, plan, operation) => {
    let touched = false;
    const items = await store.mutate(space, ids, (ctx) => {
      const mutation = plan(ctx);
      touched =
        mutation.changes.length +
          (mutation.addRelations?.length ?? 0) +
          (mutation.invalidateRelations?.length ?? 0) >
        0;
      return mutation;
    });
    if (touched) await bus.notify({ type: 'changed', space, items, operation });
    return items;
  };
}
