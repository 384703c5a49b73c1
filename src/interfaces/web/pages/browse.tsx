/**
 * Browse: the space's memories, filtered (kind, status, area, tag, pinned, creation dates, order;
 * kept in the URL) and paged by cursor (a stack of cursors walks back), each row opening its
 * memory. Writers select rows for bulk forget, restore, tag and move, where each memory succeeds
 * or fails on its own.
 */
import './browse.css';

import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';

import { api, call, type Schemas } from '../lib/api';
import { useAreas } from '../lib/memory-form';
import { useSession } from '../lib/session';
import { Empty, ErrorNote, Loading, Page, useAsync } from '../lib/ui';
import { BulkBar, type BulkOutcome, BulkResult } from './browse/bulk';
import { FilterForm } from './browse/filters';
import { MemoryTable, Pager, SelectAll } from './browse/list';
import { browseUrl, type Filters, filtersFrom, listQuery, narrows } from './browse/query';

type MemoryPage = Schemas['MemoryPage'];

/** A value that belongs to one key (a filter set, a page) and resets when the key changes. */
function useKeyed<T>(key: string, initial: T): [T, (next: T) => void] {
  const [state, setState] = useState<{ key: string; value: T }>({ key, value: initial });
  const value = state.key === key ? state.value : initial;
  return [value, (next: T) => setState({ key, value: next })];
}

/** The browse page. */
export default function BrowsePage() {
  const session = useSession();
  const { space } = session;
  const location = useLocation();
  const filters = filtersFrom(location.query);
  const listKey = `${space}|${browseUrl(filters)}`;
  const [cursors, setCursors] = useKeyed<string[]>(listKey, []);
  const cursor = cursors[cursors.length - 1];
  const pageKey = `${listKey}|${cursor ?? ''}`;
  const [selected, setSelected] = useKeyed<ReadonlySet<string>>(pageKey, new Set());
  const [outcome, setOutcome] = useKeyed<BulkOutcome | null>(listKey, null);
  const areas = useAreas(space);
  const list = useAsync<MemoryPage>(
    () =>
      call(
        api.GET('/v1/spaces/{space}/memories', {
          params: { path: { space }, query: listQuery(filters, cursor) },
        }),
      ),
    [pageKey],
  );
  const items = list.data?.items ?? [];
  const apply = (f: Filters) => location.route(browseUrl(f));
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (!next.delete(id)) next.add(id);
    setSelected(next);
  };
  return (
    <Page title="Browse">
      <FilterForm filters={filters} areas={areas} onApply={apply} />
      {session.canWrite && (
        <div class="browse-bulk">
          <SelectAll
            total={items.length}
            selected={items.filter((m) => selected.has(m.id)).length}
            onChange={(all) => setSelected(new Set(all ? items.map((m) => m.id) : []))}
          />
          <BulkBar
            space={space}
            selected={items.filter((m) => selected.has(m.id))}
            areas={areas}
            onDone={(o) => {
              setOutcome(o);
              setSelected(new Set(o.failed.map((f) => f.id)));
              list.reload();
            }}
          />
        </div>
      )}
      <BulkResult outcome={outcome} />
      <Listing
        list={list}
        filters={filters}
        page={cursors.length + 1}
        selection={session.canWrite ? { ids: selected, toggle } : undefined}
        onClear={() => apply({ ...filtersFrom({}), order: filters.order, limit: filters.limit })}
        onFirst={() => setCursors([])}
      />
      <Pager
        page={cursors.length + 1}
        hasNext={Boolean(list.data?.next_cursor) && !list.loading}
        busy={list.loading}
        onPrevious={() => setCursors(cursors.slice(0, -1))}
        onNext={() => list.data?.next_cursor && setCursors([...cursors, list.data.next_cursor])}
      />
    </Page>
  );
}

function Listing(props: {
  list: ReturnType<typeof useAsync<MemoryPage>>;
  filters: Filters;
  page: number;
  selection?: { ids: ReadonlySet<string>; toggle: (id: string) => void };
  onClear: () => void;
  onFirst: () => void;
}) {
  const { list, filters } = props;
  if (list.error) return <ErrorNote error={list.error} onRetry={list.reload} />;
  if (!list.data)
    return (
      <div class="browse-loading">
        <Loading lines={6} label="Loading memories" />
      </div>
    );
  if (list.data.items.length === 0) return <NoItems {...props} />;
  return (
    <div aria-busy={list.loading} class="browse-results">
      <MemoryTable items={list.data.items} selection={props.selection} />
      {filters.status === '' && (
        <p class="muted browse-hint">
          Forgotten, archived, superseded and merged memories are hidden: pick a status to see them.
        </p>
      )}
    </div>
  );
}

function NoItems(props: {
  filters: Filters;
  page: number;
  onClear: () => void;
  onFirst: () => void;
}) {
  if (props.page > 1)
    return (
      <Empty title="No more memories on this page.">
        <button type="button" class="link" onClick={props.onFirst}>
          Go to the first page
        </button>
      </Empty>
    );
  if (narrows(props.filters))
    return (
      <Empty title="No memories match these filters.">
        <button type="button" class="link" onClick={props.onClear}>
          Clear the filters
        </button>{' '}
        to see every live memory.
      </Empty>
    );
  return (
    <Empty title="This space holds no live memories yet.">
      Agents add memories as they work. Forgotten or archived ones show with Status: any status.
    </Empty>
  );
}
