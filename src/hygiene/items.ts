/** Reading the items a stage looks at: every item of a filter, page by page, stopping when told. */
import type { ItemFilter } from '../domain/filter.js';
import type { ItemRecord } from '../domain/records.js';
import type { StageContext } from './stage.js';

const PAGE = 1_000;

/** Every item passing the filter (oldest first), and whether the read got to the end. */
export async function allItems(
  sc: StageContext,
  filter: Omit<ItemFilter, 'space'>,
): Promise<{ items: ItemRecord[]; complete: boolean }> {
  const items: ItemRecord[] = [];
  let cursor: string | undefined;
  for (;;) {
    if (sc.shouldStop()) return { items, complete: false };
    const page = await sc.deps.store.listItems({
      filter: { ...filter, space: sc.space },
      limit: PAGE,
      order: 'created',
      cursor,
    });
    items.push(...page.items);
    if (page.next_cursor === null) return { items, complete: true };
    cursor = page.next_cursor;
  }
}

/** The stored vectors of the published model for some items (none without a published model). */
export async function vectorsOf(
  sc: StageContext,
  ids: readonly string[],
): Promise<Map<string, Float32Array>> {
  const model = await sc.deps.store.publishedModel();
  if (!model) return new Map();
  const out = new Map<string, Float32Array>();
  for (let i = 0; i < ids.length; i += PAGE) {
    const page = await sc.deps.lifecycle.storedVectors(sc.space, ids.slice(i, i + PAGE), model.id);
    for (const [id, vector] of page) out.set(id, vector);
  }
  return out;
}
