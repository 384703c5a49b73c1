/**
 * The browse page's list: one row per memory (a checkbox for writers, its title linking to its
 * page, kind, status, area, tags, update time), and the pager (Previous, page number, Next).
 */
import { useEffect, useRef } from 'preact/hooks';

import type { Schemas } from '../../lib/api';
import { KindBadge, memoryHref, StatusBadge } from '../../lib/memory-bits';
import { firstLine, memoryLabel } from '../../lib/memory-form';
import { Badge, Time } from '../../lib/ui';

type Memory = Schemas['Memory'];

/** The memories of one page, selectable when `selection` is given. */
export function MemoryTable(props: {
  items: readonly Memory[];
  selection?: { ids: ReadonlySet<string>; toggle: (id: string) => void };
}) {
  const { items, selection } = props;
  return (
    <div class="browse-table-wrap">
      <table class="browse-table">
        <caption class="visually-hidden">Memories</caption>
        <thead>
          <tr>
            {selection && (
              <th scope="col" class="browse-check">
                <span class="visually-hidden">Selected</span>
              </th>
            )}
            <th scope="col">Memory</th>
            <th scope="col">Kind</th>
            <th scope="col">Status</th>
            <th scope="col">Area</th>
            <th scope="col">Tags</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {items.map((m) => (
            <Row key={m.id} memory={m} selection={selection} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Row(props: {
  memory: Memory;
  selection?: { ids: ReadonlySet<string>; toggle: (id: string) => void };
}) {
  const { memory: m, selection } = props;
  const label = memoryLabel(m);
  const checked = selection?.ids.has(m.id) ?? false;
  return (
    <tr class={checked ? 'selected' : undefined}>
      {selection && (
        <td class="browse-check">
          <input
            type="checkbox"
            checked={checked}
            aria-label={`Select ${label}`}
            onChange={() => selection.toggle(m.id)}
          />
        </td>
      )}
      <td class="browse-memory">
        <a href={memoryHref(m.id)}>{label}</a>
        {m.title && <span class="browse-line muted">{firstLine(m.body, 120)}</span>}
      </td>
      <td data-label="Kind">
        <KindBadge kind={m.kind} />
        {m.pinned && (
          <>
            {' '}
            <Badge tone="ok">pinned</Badge>
          </>
        )}
      </td>
      <td data-label="Status">
        <StatusBadge status={m.status} />
      </td>
      <td data-label="Area" class="browse-area browse-labelled">
        {m.area}
      </td>
      <td data-label="Tags">
        {m.tags.length === 0 ? (
          <span class="muted">none</span>
        ) : (
          <span class="browse-tags">
            {m.tags.map((t) => (
              <Badge key={t}>{t}</Badge>
            ))}
          </span>
        )}
      </td>
      <td data-label="Updated" class="browse-labelled">
        <Time at={m.updated_at} />
      </td>
    </tr>
  );
}

/** The select-all checkbox of a page: checked when all are, mixed when some are. */
export function SelectAll(props: {
  total: number;
  selected: number;
  onChange: (all: boolean) => void;
}) {
  const box = useRef<HTMLInputElement>(null);
  const all = props.total > 0 && props.selected === props.total;
  useEffect(() => {
    if (box.current) box.current.indeterminate = props.selected > 0 && !all;
  }, [props.selected, all]);
  return (
    <label class="browse-select-all">
      <input
        ref={box}
        type="checkbox"
        checked={all}
        disabled={props.total === 0}
        onChange={() => props.onChange(!all)}
      />
      Select all on this page
      <span class="muted"> ({props.selected} selected)</span>
    </label>
  );
}

/** Previous and Next over cursor pages, with the page number. */
export function Pager(props: {
  page: number;
  hasNext: boolean;
  busy: boolean;
  onPrevious: () => void;
  onNext: () => void;
}) {
  return (
    <nav class="browse-pager" aria-label="Pages of the list">
      <button type="button" disabled={props.page <= 1 || props.busy} onClick={props.onPrevious}>
        Previous
      </button>
      <span aria-live="polite">Page {props.page}</span>
      <button type="button" disabled={!props.hasNext || props.busy} onClick={props.onNext}>
        Next
      </button>
    </nav>
  );
}
