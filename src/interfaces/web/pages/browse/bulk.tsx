/**
 * Bulk actions of the browse page on the selected memories: forget (asks first), restore, add a
 * tag, move to an area. Each memory is its own API call, so a failing one fails alone; the outcome
 * says how many were applied and which failed, and why.
 */
import { useState } from 'preact/hooks';

import { api, call, errorText, type Schemas } from '../../lib/api';
import { memoryHref } from '../../lib/memory-bits';
import { AreaOptions, eachItem, memoryLabel } from '../../lib/memory-form';
import { ConfirmButton } from '../../lib/ui';

type Memory = Schemas['Memory'];

/** How a bulk action ended: what it was, how many it applied, and the failures. */
export interface BulkOutcome {
  action: string;
  applied: number;
  failed: { id: string; label: string; message: string }[];
}

type Work = (space: string, id: string) => Promise<unknown>;

const at = (space: string, id: string) => ({ params: { path: { space, id } } });

const WORK = {
  forget: (space, id) => call(api.DELETE('/v1/spaces/{space}/memories/{id}', at(space, id))),
  restore: (space, id) =>
    call(api.POST('/v1/spaces/{space}/memories/{id}/restore', { ...at(space, id), body: {} })),
} satisfies Record<string, Work>;

/**
 * The bulk actions bar. `onDone` gets the outcome after every selected memory was tried.
 */
export function BulkBar(props: {
  space: string;
  selected: readonly Memory[];
  areas: readonly string[];
  onDone: (outcome: BulkOutcome) => void;
}) {
  const { space, selected } = props;
  const [busy, setBusy] = useState(false);
  const [tag, setTag] = useState('');
  const [area, setArea] = useState('');
  const none = selected.length === 0 || busy;
  const apply = async (action: string, work: Work): Promise<boolean> => {
    setBusy(true);
    try {
      const outcomes = await eachItem(
        selected.map((m) => m.id),
        (id) => work(space, id),
      );
      const byId = new Map(selected.map((m) => [m.id, m]));
      const failed = outcomes.flatMap((o) =>
        o.error === undefined
          ? []
          : [{ id: o.id, label: memoryLabel(byId.get(o.id)!, 80), message: errorText(o.error) }],
      );
      props.onDone({ action, applied: outcomes.length - failed.length, failed });
      return failed.length === 0;
    } finally {
      setBusy(false);
    }
  };
  const addTag = (e: Event) => {
    e.preventDefault();
    const t = tag.trim();
    void apply(`Tagged ${t}`, (s, id) =>
      call(api.POST('/v1/spaces/{space}/memories/{id}/tags', { ...at(s, id), body: { add: [t] } })),
    ).then((ok) => ok && setTag(''));
  };
  const move = (e: Event) => {
    e.preventDefault();
    const a = area.trim();
    void apply(`Moved to ${a}`, (s, id) =>
      call(api.POST('/v1/spaces/{space}/memories/{id}/move', { ...at(s, id), body: { area: a } })),
    ).then((ok) => ok && setArea(''));
  };
  const count = `${selected.length} ${selected.length === 1 ? 'memory' : 'memories'}`;
  return (
    <div class="bulk-actions" role="group" aria-label="Bulk actions on the selected memories">
      <ConfirmButton
        label="Forget"
        title={`Forget ${count}?`}
        message="They leave recall and lists of live memories. Nothing is deleted: Restore brings them back (filter by status forgotten to find them)."
        confirmLabel={`Forget ${count}`}
        danger
        disabled={none}
        onConfirm={async () => void (await apply('Forgotten', WORK.forget))}
      />
      <button type="button" disabled={none} onClick={() => void apply('Restored', WORK.restore)}>
        Restore
      </button>
      <form class="bulk-form" onSubmit={addTag}>
        <label for="bulk-tag" class="visually-hidden">
          Tag to add to the selected memories
        </label>
        <input
          id="bulk-tag"
          placeholder="tag"
          value={tag}
          onInput={(e) => setTag(e.currentTarget.value)}
        />
        <button type="submit" disabled={none || tag.trim() === ''}>
          Add tag
        </button>
      </form>
      <form class="bulk-form" onSubmit={move}>
        <label for="bulk-area" class="visually-hidden">
          Area to move the selected memories to
        </label>
        <input
          id="bulk-area"
          list="bulk-areas"
          placeholder="area"
          value={area}
          onInput={(e) => setArea(e.currentTarget.value)}
        />
        <AreaOptions id="bulk-areas" areas={props.areas} />
        <button type="submit" disabled={none || area.trim() === ''}>
          Move
        </button>
      </form>
    </div>
  );
}

/** What the last bulk action did: a notice of the applied ones and the failures with reasons. */
export function BulkResult({ outcome }: { outcome: BulkOutcome | null }) {
  if (!outcome) return null;
  const { action, applied, failed } = outcome;
  const total = applied + failed.length;
  return (
    <div class="bulk-result">
      {applied > 0 && (
        <div class="note note-ok" role="status">
          {action}: {applied} of {total} {total === 1 ? 'memory' : 'memories'}.
        </div>
      )}
      {failed.length > 0 && (
        <div class="note note-error bulk-failures" role="alert">
          <span>
            {failed.length} of {total} failed and are still selected; fix the cause and try again:
          </span>
          <ul>
            {failed.map((f) => (
              <li key={f.id}>
                <a href={memoryHref(f.id)}>{f.label}</a>: {f.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
