/**
 * The browse page's filter form: kind, status, area, tag, pinned, creation dates, order and page
 * size. Applying it writes the filters into the URL; clearing goes back to the plain list.
 */
import { useEffect, useState } from 'preact/hooks';

import { KINDS, STATUSES } from '../../lib/memory-bits';
import { AreaOptions } from '../../lib/memory-form';
import { Field } from '../../lib/ui';
import { type Filters, narrows, NO_FILTERS, PAGE_SIZE, pageSize } from './query';

const SIZES = [10, PAGE_SIZE, 50, 100];

/** The filter form; `onApply` gets the filters to show. */
export function FilterForm(props: {
  filters: Filters;
  areas: readonly string[];
  onApply: (f: Filters) => void;
}) {
  const [draft, setDraft] = useState<Filters>(props.filters);
  const key = JSON.stringify(props.filters);
  useEffect(() => setDraft(props.filters), [key]);
  const set = (name: keyof Filters) => (e: Event) =>
    setDraft({ ...draft, [name]: (e.currentTarget as HTMLInputElement).value });
  const size = pageSize(draft);
  const sizes = SIZES.includes(size) ? SIZES : [...SIZES, size].sort((a, b) => a - b);
  return (
    <form
      class="browse-filters"
      aria-label="Filters"
      onSubmit={(e) => {
        e.preventDefault();
        props.onApply({ ...draft, area: draft.area.trim(), tag: draft.tag.trim() });
      }}
    >
      <div class="filter-grid">
        <Field id="b-kind" label="Kind">
          <select id="b-kind" value={draft.kind} onChange={set('kind')}>
            <option value="">any</option>
            {KINDS.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
        </Field>
        <Field id="b-status" label="Status" hint="Live: candidate, active, challenged.">
          <select
            id="b-status"
            value={draft.status}
            aria-describedby="b-status-hint"
            onChange={set('status')}
          >
            <option value="">live (default)</option>
            <option value="any">any status</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </Field>
        <Field id="b-area" label="Area">
          <input id="b-area" list="b-areas" value={draft.area} onInput={set('area')} />
          <AreaOptions id="b-areas" areas={props.areas} />
        </Field>
        <Field id="b-tag" label="Tag">
          <input id="b-tag" value={draft.tag} onInput={set('tag')} />
        </Field>
        <Field id="b-pinned" label="Pinned">
          <select id="b-pinned" value={draft.pinned} onChange={set('pinned')}>
            <option value="">any</option>
            <option value="true">pinned only</option>
            <option value="false">not pinned</option>
          </select>
        </Field>
        <Field id="b-after" label="Created from">
          <input id="b-after" type="date" value={draft.after} onInput={set('after')} />
        </Field>
        <Field id="b-before" label="Created until">
          <input id="b-before" type="date" value={draft.before} onInput={set('before')} />
        </Field>
        <Field id="b-order" label="Order">
          <select id="b-order" value={draft.order} onChange={set('order')}>
            <option value="">last updated first</option>
            <option value="created">last created first</option>
          </select>
        </Field>
        <Field id="b-limit" label="Per page">
          <select id="b-limit" value={String(size)} onChange={set('limit')}>
            {sizes.map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div class="row browse-filter-actions">
        <button type="submit" class="primary">
          Apply filters
        </button>
        {(narrows(props.filters) || props.filters.order || props.filters.limit) && (
          <button type="button" onClick={() => props.onApply(NO_FILTERS)}>
            Clear filters
          </button>
        )}
      </div>
    </form>
  );
}
