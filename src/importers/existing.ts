/**
 * What earlier imports of a format left in a space, by key (the original id kept in `source.url`
 * beside `source.import` naming the format), and what a re-run does with a record found there:
 * - the same title, body and tags: `exists` (nothing written);
 * - changed at its source, while engram's current version is still the one an import wrote:
 *   `updated` (a new version; history keeps the old one);
 * - changed at its source and edited in engram since (or forgotten, archived, merged...):
 *   `exists`, with a warning, so an import never overwrites a person's edit or brings back what
 *   they forgot.
 */
import { bodyHash } from '../domain/text.js';
import { STATUSES } from '../domain/types.js';
import type { Store } from '../store/store.js';
import { IMPORT_ACTOR } from './common.js';

/** An item an import wrote: what a re-run compares. */
export interface ImportedItem {
  id: string;
  body_hash: string;
  title: string | null;
  tags: readonly string[];
  status: string;
}

/** Items per page of the scan. */
const PAGE = 1_000;

/** Statuses an import may still update (the others were decided on in engram). */
const UPDATABLE = new Set(['active', 'candidate', 'challenged']);

/** The keys earlier imports of one format wrote, per space (each space scanned once, on demand). */
export class ImportedKeys {
  private readonly spaces = new Map<string, Promise<Map<string, ImportedItem>>>();

  constructor(
    private readonly store: Store,
    /** `source.import` of the format's imports starts with this (`mem0@`). */
    private readonly prefix: string,
  ) {}

  /** The keys of one space. */
  of(space: string): Promise<Map<string, ImportedItem>> {
    let keys = this.spaces.get(space);
    if (!keys) {
      keys = this.scan(space);
      this.spaces.set(space, keys);
    }
    return keys;
  }

  private async scan(space: string): Promise<Map<string, ImportedItem>> {
    const keys = new Map<string, ImportedItem>();
    let cursor: string | undefined;
    do {
      const page = await this.store.listItems({
        filter: { space, statuses: STATUSES },
        limit: PAGE,
        order: 'created',
        ...(cursor ? { cursor } : {}),
      });
      for (const item of page.items) {
        const s = item.source;
        if (!s?.url || !s.import?.startsWith(this.prefix) || keys.has(s.url)) continue;
        keys.set(s.url, {
          id: item.id,
          body_hash: item.body_hash,
          title: item.title,
          tags: item.tags,
          status: item.status,
        });
      }
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return keys;
  }
}

/** What the source says now of a record found in the store. */
export interface SourceRecord {
  body: string;
  title: string | null;
  tags: readonly string[];
}

/** What a re-run does with a record already imported: leave it, or write a new version. */
export type Reimport = { action: 'exists'; warning?: string } | { action: 'update' };

function sameTags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((t) => b.includes(t));
}

/** Decides on a record whose key an earlier import wrote (see the file header). */
export async function reimport(
  store: Store,
  space: string,
  found: ImportedItem,
  now: SourceRecord,
): Promise<Reimport> {
  const same =
    found.body_hash === bodyHash(now.body) &&
    found.title === now.title &&
    sameTags(found.tags, now.tags);
  if (same) return { action: 'exists' };
  if (!UPDATABLE.has(found.status))
    return {
      action: 'exists',
      warning: `changed at its source, but ${found.status} in engram: left as it is`,
    };
  const versions = await store.versions(space, found.id);
  if (versions.at(-1)?.actor === IMPORT_ACTOR) return { action: 'update' };
  return {
    action: 'exists',
    warning:
      'changed at its source and edited in engram since its import: engram’s version is kept',
  };
}
