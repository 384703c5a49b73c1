/**
 * One proposal or diary entry: its action, its reason, the memories it is about in their roles
 * (merged into, superseded by, archived, moved) and its scores and areas.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

import type { Schemas } from '../../lib/api';
import { Badge } from '../../lib/ui';
import { ItemLink } from './items';
import { type Action, ACTION_LABELS } from './words';

type Detail = Schemas['DreamDiaryDetail'];

/** How many entries a list shows before "Show all". */
const SHOWN = 50;
/** How many moved items a fold shows before "and N more". */
const MOVED = 10;

/** An entry as a list item: badges first, then the action and its reason, the items, the detail. */
export function EntryRow(props: {
  action: Action;
  reason: string;
  items: readonly string[];
  detail: Detail;
  badges?: ComponentChildren;
}) {
  return (
    <li class="dream-entry">
      <div class="dream-entry-head">
        {props.badges}
        <strong>{ACTION_LABELS[props.action]}</strong>
        <span>{props.reason}</span>
      </div>
      <EntryItems action={props.action} items={props.items} detail={props.detail} />
      <EntryDetail detail={props.detail} />
    </li>
  );
}

/** A list of entries, the first SHOWN of them until asked for all. */
export function EntryList<T>(props: {
  entries: readonly T[];
  render: (entry: T) => ComponentChildren;
  label: string;
}) {
  const [all, setAll] = useState(false);
  const shown = all ? props.entries : props.entries.slice(0, SHOWN);
  return (
    <>
      <ul class="dream-entries" aria-label={props.label}>
        {shown.map(props.render)}
      </ul>
      {shown.length < props.entries.length && (
        <button type="button" class="link" onClick={() => setAll(true)}>
          Show all {props.entries.length}
        </button>
      )}
    </>
  );
}

/** The memories of an entry in their roles. */
function EntryItems(props: { action: Action; items: readonly string[]; detail: Detail }) {
  const { action, items } = props;
  const [a, b] = items;
  if ((action === 'merge' || action === 'skill_dedupe') && a && b)
    return (
      <p class="dream-entry-items">
        <ItemLink id={a} /> <span class="muted">merged into</span> <ItemLink id={b} />
      </p>
    );
  if (action === 'supersede' && a && b)
    return (
      <p class="dream-entry-items">
        <ItemLink id={a} /> <span class="muted">superseded by</span> <ItemLink id={b} />
      </p>
    );
  if ((action === 'archive' || action === 'skill_cap') && a)
    return (
      <p class="dream-entry-items">
        <ItemLink id={a} /> <span class="muted">archived</span>
      </p>
    );
  if (items.length === 0) return null;
  return (
    <ul class="dream-entry-moved" aria-label="Memories it is about">
      {items.slice(0, MOVED).map((id) => (
        <li key={id}>
          <ItemLink id={id} />
        </li>
      ))}
      {items.length > MOVED && <li class="muted">and {items.length - MOVED} more</li>}
    </ul>
  );
}

/** Scores and areas of an entry, and whether an undo restored it. */
function EntryDetail({ detail }: { detail: Detail }) {
  const parts: string[] = [];
  if (detail.similarity !== undefined) parts.push(`similarity ${detail.similarity.toFixed(3)}`);
  if (detail.overlap !== undefined) parts.push(`text overlap ${detail.overlap.toFixed(3)}`);
  if (detail.from_area !== undefined || detail.to_area !== undefined)
    parts.push(`area ${detail.from_area ?? '?'} → ${detail.to_area ?? '?'}`);
  if (parts.length === 0 && !detail.undone) return null;
  return (
    <p class="dream-entry-detail muted">
      {parts.join(' · ')}
      {detail.undone && (
        <>
          {' '}
          <Badge tone="off">undone</Badge>
        </>
      )}
    </p>
  );
}
