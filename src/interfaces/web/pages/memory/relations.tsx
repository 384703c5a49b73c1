/**
 * A memory's relations, live and invalidated: the type read in its direction ("superseded by",
 * "derived from"), the other memory as a link to its page (named by its title when it can be
 * read), and for a writer relating it to another memory and invalidating a relation it made.
 */
import { useState } from 'preact/hooks';

import { api, call, type Schemas } from '../../lib/api';
import { memoryHref } from '../../lib/memory-bits';
import { memoryLabel } from '../../lib/memory-form';
import { Badge, Empty, Time, useAsync } from '../../lib/ui';
import { ActionOutcome, type Runner } from './runner';

type Relation = Schemas['Relation'];
type Memory = Schemas['Memory'];

const PHRASES: Record<Relation['type'], [outgoing: string, incoming: string]> = {
  supersedes: ['supersedes', 'superseded by'],
  merged_into: ['merged into', 'merged from'],
  related: ['related to', 'related from'],
  derived_from: ['derived from', 'source of'],
};

/** The relations of a memory. */
export function Relations(props: {
  memory: Memory;
  relations: readonly Relation[];
  canWrite: boolean;
  runner: Runner;
}) {
  const { memory, relations, runner } = props;
  const others = [...new Set(relations.map((r) => other(r, memory.id)))].sort();
  const labels = useAsync(() => readLabels(memory.space, others), [memory.space, others.join()]);
  const ordered = [...relations].sort(
    (a, b) =>
      Number(a.invalidated_at !== null) - Number(b.invalidated_at !== null) ||
      Date.parse(b.created_at) - Date.parse(a.created_at),
  );
  return (
    <section class="card memory-relations" aria-labelledby="relations-title">
      <h2 id="relations-title">Relations ({relations.length})</h2>
      {ordered.length === 0 ? (
        <Empty title="It is not related to other memories." />
      ) : (
        <ul class="relations">
          {ordered.map((r) => (
            <RelationItem
              key={r.id}
              relation={r}
              memory={memory}
              label={labels.data?.get(other(r, memory.id))}
              canWrite={props.canWrite}
              runner={runner}
            />
          ))}
        </ul>
      )}
      {props.canWrite && <RelateForm memory={memory} runner={runner} />}
    </section>
  );
}

function other(r: Relation, self: string): string {
  return r.from_id === self ? r.to_id : r.from_id;
}

/** The labels of the memories that can be read (a purged or unreadable one keeps its id). */
async function readLabels(space: string, ids: readonly string[]): Promise<Map<string, string>> {
  const read = await Promise.allSettled(
    ids
      .slice(0, 50)
      .map((id) =>
        call(api.GET('/v1/spaces/{space}/memories/{id}', { params: { path: { space, id } } })),
      ),
  );
  const labels = new Map<string, string>();
  for (const r of read)
    if (r.status === 'fulfilled') labels.set(r.value.id, memoryLabel(r.value, 90));
  return labels;
}

function RelationItem(props: {
  relation: Relation;
  memory: Memory;
  label: string | undefined;
  canWrite: boolean;
  runner: Runner;
}) {
  const { relation: r, memory, runner } = props;
  const outgoing = r.from_id === memory.id;
  const id = outgoing ? r.to_id : r.from_id;
  const phrase = PHRASES[r.type][outgoing ? 0 : 1];
  const live = r.invalidated_at === null;
  const editable = live && outgoing && (r.type === 'related' || r.type === 'derived_from');
  const invalidate = () =>
    runner.run(
      `relation-${r.id}`,
      () =>
        call(
          api.DELETE('/v1/spaces/{space}/memories/{id}/relations/{to_id}', {
            params: {
              path: { space: memory.space, id: memory.id, to_id: r.to_id },
              query: { type: r.type as 'related' | 'derived_from' },
            },
          }),
        ),
      'Relation invalidated (kept in history).',
    );
  return (
    <li class={`relation ${live ? '' : 'relation-invalid'}`}>
      <span class="relation-type">{phrase}</span>
      <a href={memoryHref(id)} class="relation-link">
        {props.label ?? <code>{id}</code>}
      </a>
      <span class="muted relation-meta">
        {outgoing ? 'outgoing' : 'incoming'} · <Time at={r.created_at} />
        {r.reason && ` · ${r.reason}`}
      </span>
      {!live && (
        <Badge tone="off" title={r.invalidated_reason ?? undefined}>
          invalidated <Time at={r.invalidated_at} />
          {r.invalidated_reason && ` · ${r.invalidated_reason}`}
        </Badge>
      )}
      {props.canWrite && editable && (
        <button
          type="button"
          class="link"
          disabled={runner.busy !== null}
          onClick={() => void invalidate()}
        >
          Invalidate<span class="visually-hidden"> relation to {props.label ?? id}</span>
        </button>
      )}
      <ActionOutcome runner={runner} name={`relation-${r.id}`} />
    </li>
  );
}

function RelateForm({ memory, runner }: { memory: Memory; runner: Runner }) {
  const [to, setTo] = useState('');
  const [type, setType] = useState<'related' | 'derived_from'>('related');
  const target = to.trim();
  const submit = async (e: Event) => {
    e.preventDefault();
    const ok = await runner.run(
      'relate',
      () =>
        call(
          api.POST('/v1/spaces/{space}/memories/{id}/relations', {
            params: { path: { space: memory.space, id: memory.id } },
            body: { to_id: target, type },
          }),
        ),
      'Related.',
    );
    if (ok) setTo('');
  };
  return (
    <form class="relate-form" onSubmit={submit}>
      <div class="field">
        <label for="relate-type">Relation</label>
        <select
          id="relate-type"
          value={type}
          onChange={(e) => setType(e.currentTarget.value as 'related' | 'derived_from')}
        >
          <option value="related">related to</option>
          <option value="derived_from">derived from</option>
        </select>
      </div>
      <div class="field relate-to">
        <label for="relate-to">Other memory (id)</label>
        <input
          id="relate-to"
          class="mono"
          value={to}
          spellcheck={false}
          autoComplete="off"
          onInput={(e) => setTo(e.currentTarget.value)}
        />
      </div>
      <button
        type="submit"
        disabled={target === '' || target === memory.id || runner.busy !== null}
      >
        Relate
      </button>
      <ActionOutcome runner={runner} name="relate" />
    </form>
  );
}
