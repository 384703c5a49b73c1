/**
 * A memory's text: its title and body, and (for a writer) revising them inline, which writes a
 * new version with an optional reason.
 */
import { useState } from 'preact/hooks';

import { api, call, type Schemas } from '../../lib/api';
import { Field } from '../../lib/ui';
import { ActionOutcome, type Runner } from './runner';

type Memory = Schemas['Memory'];

/** The title and body of a memory, with the revise editor when `canWrite`. */
export function MemoryBody(props: { memory: Memory; canWrite: boolean; runner: Runner }) {
  const { memory, canWrite, runner } = props;
  const [editing, setEditing] = useState(false);
  return (
    <section class="card memory-body" aria-labelledby="body-title">
      <div class="section-head">
        <h2 id="body-title">Text</h2>
        {canWrite && !editing && (
          <button type="button" onClick={() => setEditing(true)} disabled={runner.busy !== null}>
            Revise
          </button>
        )}
      </div>
      {editing ? (
        <ReviseForm memory={memory} runner={runner} onDone={() => setEditing(false)} />
      ) : (
        <>
          {memory.title && <p class="memory-title">{memory.title}</p>}
          <p class="memory-text">{memory.body}</p>
        </>
      )}
      <ActionOutcome runner={runner} name="revise" />
    </section>
  );
}

function ReviseForm(props: { memory: Memory; runner: Runner; onDone: () => void }) {
  const { memory, runner, onDone } = props;
  const [title, setTitle] = useState(memory.title ?? '');
  const [body, setBody] = useState(memory.body);
  const [reason, setReason] = useState('');
  const nextTitle = title.trim() === '' ? null : title.trim();
  const same = nextTitle === memory.title && body === memory.body;
  const save = async (e: Event) => {
    e.preventDefault();
    const ok = await runner.run(
      'revise',
      () =>
        call(
          api.PATCH('/v1/spaces/{space}/memories/{id}', {
            params: { path: { space: memory.space, id: memory.id } },
            body: {
              ...(nextTitle !== memory.title && { title: nextTitle }),
              ...(body !== memory.body && { body }),
              ...(reason.trim() && { reason: reason.trim() }),
            },
          }),
        ),
      'Saved as a new version.',
    );
    if (ok) onDone();
  };
  return (
    <form class="revise-form" onSubmit={save}>
      <Field id="revise-title" label="Title" hint="Optional; leave empty for none.">
        <input
          id="revise-title"
          value={title}
          aria-describedby="revise-title-hint"
          onInput={(e) => setTitle(e.currentTarget.value)}
        />
      </Field>
      <Field id="revise-body" label="Body">
        <textarea
          id="revise-body"
          value={body}
          required
          rows={Math.min(16, Math.max(5, body.split('\n').length + 1))}
          onInput={(e) => setBody(e.currentTarget.value)}
        />
      </Field>
      <Field id="revise-reason" label="Reason" hint="Optional; kept with the version.">
        <input
          id="revise-reason"
          value={reason}
          aria-describedby="revise-reason-hint"
          onInput={(e) => setReason(e.currentTarget.value)}
        />
      </Field>
      <div class="row">
        <button
          type="submit"
          class="primary"
          disabled={same || body.trim() === '' || runner.busy !== null}
        >
          Save
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
