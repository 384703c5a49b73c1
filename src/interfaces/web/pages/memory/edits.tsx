/**
 * The memory page's field edits: move to another area, add and remove tags, set importance. Each
 * is one change call; its outcome shows beside its controls.
 */
import { useEffect, useState } from 'preact/hooks';

import { api, call, type Schemas } from '../../lib/api';
import { AreaOptions } from '../../lib/memory-form';
import { ActionOutcome, type Runner } from './runner';

type Memory = Schemas['Memory'];

/** The path parameters of a memory's change routes. */
function at(memory: Memory) {
  return { params: { path: { space: memory.space, id: memory.id } } };
}

/** Move to another area (suggesting the space's areas). */
export function MoveForm(props: { memory: Memory; runner: Runner; areas: readonly string[] }) {
  const { memory, runner } = props;
  const [area, setArea] = useState(memory.area);
  useEffect(() => setArea(memory.area), [memory.area]);
  const target = area.trim();
  const submit = (e: Event) => {
    e.preventDefault();
    void runner.run(
      'move',
      () =>
        call(
          api.POST('/v1/spaces/{space}/memories/{id}/move', {
            ...at(memory),
            body: { area: target },
          }),
        ),
      `Moved to ${target}.`,
    );
  };
  return (
    <form class="action" onSubmit={submit}>
      <label for="move-area">Area</label>
      <div class="action-row">
        <input
          id="move-area"
          list="move-areas"
          value={area}
          onInput={(e) => setArea(e.currentTarget.value)}
        />
        <AreaOptions id="move-areas" areas={props.areas} />
        <button
          type="submit"
          disabled={target === '' || target === memory.area || runner.busy !== null}
        >
          Move
        </button>
      </div>
      <ActionOutcome runner={runner} name="move" />
    </form>
  );
}

/** The tags: each removable, and a field to add more (comma-separated). */
export function TagsForm(props: { memory: Memory; runner: Runner }) {
  const { memory, runner } = props;
  const [draft, setDraft] = useState('');
  const change = (body: { add?: string[]; remove?: string[] }, done: string) =>
    runner.run(
      'tags',
      () => call(api.POST('/v1/spaces/{space}/memories/{id}/tags', { ...at(memory), body })),
      done,
    );
  const adding = [...new Set(draft.split(',').map((t) => t.trim()))].filter(
    (t) => t && !memory.tags.includes(t),
  );
  const submit = async (e: Event) => {
    e.preventDefault();
    const ok = await change({ add: adding }, `Tagged ${adding.join(', ')}.`);
    if (ok) setDraft('');
  };
  return (
    <form class="action" onSubmit={submit}>
      <span class="action-label" id="tags-label">
        Tags
      </span>
      <ul class="tag-edit" aria-labelledby="tags-label">
        {memory.tags.length === 0 && <li class="muted">none</li>}
        {memory.tags.map((t) => (
          <li key={t} class="badge">
            {t}
            <button
              type="button"
              class="tag-remove"
              aria-label={`Remove tag ${t}`}
              title={`Remove tag ${t}`}
              disabled={runner.busy !== null}
              onClick={() => void change({ remove: [t] }, `Removed tag ${t}.`)}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
      <label for="tag-add" class="visually-hidden">
        Tags to add
      </label>
      <div class="action-row">
        <input
          id="tag-add"
          value={draft}
          placeholder="new tag, another"
          onInput={(e) => setDraft(e.currentTarget.value)}
        />
        <button type="submit" disabled={adding.length === 0 || runner.busy !== null}>
          Add tag
        </button>
      </div>
      <ActionOutcome runner={runner} name="tags" />
    </form>
  );
}

/** Importance, 0..1, with a slider (arrow keys step by 0.05) and a save button. */
export function ImportanceForm(props: { memory: Memory; runner: Runner }) {
  const { memory, runner } = props;
  const [value, setValue] = useState(memory.importance);
  useEffect(() => setValue(memory.importance), [memory.importance]);
  const submit = (e: Event) => {
    e.preventDefault();
    void runner.run(
      'importance',
      () =>
        call(
          api.POST('/v1/spaces/{space}/memories/{id}/importance', {
            ...at(memory),
            body: { importance: value },
          }),
        ),
      `Importance set to ${value.toFixed(2)}.`,
    );
  };
  return (
    <form class="action" onSubmit={submit}>
      <label for="importance">Importance</label>
      <div class="action-row">
        <input
          id="importance"
          type="range"
          min={0}
          max={1}
          step={0.05}
          value={value}
          aria-valuetext={value.toFixed(2)}
          onInput={(e) => setValue(Number(e.currentTarget.value))}
        />
        <output for="importance" class="mono">
          {value.toFixed(2)}
        </output>
        <button
          type="submit"
          disabled={Math.abs(value - memory.importance) < 1e-9 || runner.busy !== null}
        >
          Set
        </button>
      </div>
      <ActionOutcome runner={runner} name="importance" />
    </form>
  );
}
