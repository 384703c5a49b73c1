/** Facade for reading memories: one by id, filtered lists, and a memory's history and relations. */
import { notFound } from '../domain/errors.js';
import type { ItemFilter } from '../domain/filter.js';
import type { InputSchemas, ListRequest } from '../domain/input.js';
import { toMemory, toRelation, toStatusEvent, toVersion } from '../domain/memory.js';
import type { History, Memory, Relation } from '../domain/types.js';
import { parseWith } from '../domain/zod.js';
import type { SpaceCount } from '../store/store.js';
import { optionsArg, stringArg } from './args.js';
import type { ServiceContext } from './context.js';

/** The read facade. */
export interface MemoryReads {
  /** One memory by id. */
  get(id: string, options?: { space?: string }): Promise<Memory>;
  /** Memories matching filters, newest first, with a cursor for the next page. */
  list(request?: ListRequest): Promise<{ items: Memory[]; next_cursor: string | null }>;
  /** Versions, status events and relations of one memory. */
  history(id: string, options?: { space?: string }): Promise<History>;
  /** Relations from and to one memory, live and invalidated (NOT_FOUND when it does not exist). */
  relations(id: string, options?: { space?: string }): Promise<Relation[]>;
  /** Every space that holds memories, with its count; the default space is listed even when empty. */
  spaces(): Promise<SpaceCount[]>;
}

/** Validated list filters (recall takes the same ones). */
export type FilterFields = ReturnType<InputSchemas['list']['parse']>;

/** The store filter of validated list filters; a listing and recall differ in default statuses. */
export function itemFilter(ctx: ServiceContext, req: FilterFields, listing: boolean): ItemFilter {
  const ms = (s: string | undefined) => (s === undefined ? undefined : Date.parse(s));
  return {
    space: ctx.space(req.space),
    statuses:
      req.statuses ??
      (listing ? ['candidate', 'active', 'challenged'] : ctx.config.recall.default_statuses),
    kinds: req.kinds,
    areas: req.areas,
    tags: req.tags,
    pinned: req.pinned,
    created_after: ms(req.created_after),
    created_before: ms(req.created_before),
    updated_after: ms(req.updated_after),
    updated_before: ms(req.updated_before),
  };
}

/** The read facade over a context. */
export function memoryReads(ctx: ServiceContext): MemoryReads {
  const get = async (raw: string, given?: { space?: string }) => {
    const id = stringArg(raw, 'id');
    const options = optionsArg(given);
    const [item] = await ctx.store.getItems(ctx.space(options.space), [id]);
    if (!item) throw notFound('memory', id);
    return toMemory(item);
  };
  return {
    get,
    async list(request = {}) {
      const req = parseWith(ctx.schemas.list, request);
      const page = await ctx.store.listItems({
        filter: itemFilter(ctx, req, true),
        limit: req.limit,
        order: req.order,
        cursor: req.cursor,
      });
      return { items: page.items.map(toMemory), next_cursor: page.next_cursor };
    },
    async history(id, given) {
      const options = optionsArg(given);
      const space = ctx.space(options.space);
      const item = await get(id, { space });
      const [versions, events, relations] = await Promise.all([
        ctx.store.versions(space, id),
        ctx.store.statusEvents(space, id),
        ctx.store.relations(space, id),
      ]);
      return {
        item,
        versions: versions.map(toVersion),
        status_events: events.map(toStatusEvent),
        relations: relations.map(toRelation),
      };
    },
    async relations(id, given) {
      const options = optionsArg(given);
      const space = ctx.space(options.space);
      await get(id, { space });
      return (await ctx.store.relations(space, id)).map(toRelation);
    },
    async spaces() {
      const found = await ctx.store.spaces();
      const home = ctx.space(undefined);
      if (found.some((s) => s.space === home)) return found;
      return [{ space: home, items: 0 }, ...found].sort((a, b) => (a.space < b.space ? -1 : 1));
    },
  };
}
