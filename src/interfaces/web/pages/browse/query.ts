/**
 * The browse page's filters: read from and written to the URL query (so a reload or a shared link
 * keeps them), and turned into the list API's query.
 */
import type { Paths, Schemas } from '../../lib/api';
import { STATUSES } from '../../lib/memory-bits';

type ListQuery = NonNullable<Paths['/v1/spaces/{space}/memories']['get']['parameters']['query']>;
type Memory = Schemas['Memory'];

/** The filters of the list, as the URL holds them ('' = not set). */
export interface Filters {
  kind: string;
  /** '' lists live memories (the API's default), 'any' every status, else one status. */
  status: string;
  area: string;
  tag: string;
  /** '' any, 'true' pinned only, 'false' unpinned only. */
  pinned: string;
  after: string;
  before: string;
  /** '' most recently updated first, 'created' newest first. */
  order: string;
  /** Page size ('' = the default). */
  limit: string;
}

/** No filter set. */
export const NO_FILTERS: Filters = {
  kind: '',
  status: '',
  area: '',
  tag: '',
  pinned: '',
  after: '',
  before: '',
  order: '',
  limit: '',
};

/** The default page size. */
export const PAGE_SIZE = 25;

/** The filters in a URL query. */
export function filtersFrom(query: Record<string, string | undefined>): Filters {
  const f = { ...NO_FILTERS };
  for (const key of Object.keys(NO_FILTERS) as (keyof Filters)[]) f[key] = query[key]?.trim() ?? '';
  return f;
}

/** The browse URL of some filters. */
export function browseUrl(f: Filters): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v) params.set(k, v);
  const text = params.toString();
  return text ? `/browse?${text}` : '/browse';
}

/** Whether any filter narrows the list (order and page size do not). */
export function narrows(f: Filters): boolean {
  return Boolean(f.kind || f.status || f.area || f.tag || f.pinned || f.after || f.before);
}

/** The page size the filters ask for, within the API's 1..1000. */
export function pageSize(f: Filters): number {
  const n = Number(f.limit);
  return Number.isInteger(n) && n >= 1 && n <= 1000 ? n : PAGE_SIZE;
}

/** The list API query of some filters and a cursor. */
export function listQuery(f: Filters, cursor: string | undefined): ListQuery {
  const q: ListQuery = { limit: pageSize(f) };
  if (f.kind) q.kinds = [f.kind as Memory['kind']];
  if (f.status === 'any') q.statuses = [...STATUSES];
  else if (f.status) q.statuses = [f.status as Memory['status']];
  if (f.area) q.areas = [f.area];
  if (f.tag) q.tags = [f.tag];
  if (f.pinned === 'true' || f.pinned === 'false') q.pinned = f.pinned;
  if (f.after) q.created_after = new Date(`${f.after}T00:00:00`).toISOString();
  if (f.before) q.created_before = new Date(`${f.before}T23:59:59.999`).toISOString();
  if (f.order === 'created') q.order = 'created';
  if (cursor) q.cursor = cursor;
  return q;
}
