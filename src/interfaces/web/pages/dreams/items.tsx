/**
 * Links to the memories a proposal or a diary entry is about. Diaries hold ids only (never text),
 * so each link reads its memory once (shared by every link to it) to show its title and current
 * status; after a run or an undo the page refreshes them all.
 */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

import { api, ApiError, call, type Schemas } from '../../lib/api';
import { memoryHref, StatusBadge } from '../../lib/memory-bits';
import { useSession } from '../../lib/session';
import { useAsync } from '../../lib/ui';

type Memory = Schemas['Memory'];

const cache = new Map<string, Promise<Memory | null>>();

/** The memory of `id` in `space`, or null when it no longer exists (read once, then shared). */
function memory(space: string, id: string): Promise<Memory | null> {
  const key = `${space}/${id}`;
  let found = cache.get(key);
  if (!found) {
    found = call(api.GET('/v1/spaces/{space}/memories/{id}', { params: { path: { space, id } } }))
      .then((m) => m as Memory)
      .catch((err: unknown) => {
        if (err instanceof ApiError && err.status === 404) return null;
        cache.delete(key);
        throw err;
      });
    cache.set(key, found);
  }
  return found;
}

/** The generation of the links (bumped to read every memory again) and the way to bump it. */
export interface ItemsState {
  generation: number;
  refresh: () => void;
}

/** Provides ItemsState to the links. */
export const ItemsContext = createContext<ItemsState>({ generation: 0, refresh: () => {} });

/** Forgets every memory read, so links show statuses as they are now. */
export function forgetItems(): void {
  cache.clear();
}

/** Reads every linked memory again (after a run or an undo changed them). */
export function useRefreshItems(): () => void {
  return useContext(ItemsContext).refresh;
}

/** A link to a memory: its title or first line and its current status once read. */
export function ItemLink({ id }: { id: string }) {
  const { space } = useSession();
  const { generation } = useContext(ItemsContext);
  const item = useAsync(() => memory(space, id), [space, id, generation]);
  const m = item.data;
  return (
    <span class="dream-item-link">
      <a href={memoryHref(id)}>
        {m ? clip(m.title ?? m.body.split('\n')[0] ?? '', 90) : <span class="mono">{id}</span>}
      </a>
      {m && <StatusBadge status={m.status} />}
      {m === null && <span class="muted">(no longer exists)</span>}
    </span>
  );
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
