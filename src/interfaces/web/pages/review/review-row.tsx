/**
 * One memory of the lifecycle review queue: what it is, why it is there (strength in the window,
 * importance, use, when decay archives it), and the actions the review route takes: reinforce (a
 * use), revise (a new version) and let go (archived, restorable), each failing inline.
 */
import { useState } from 'preact/hooks';

import { api, call, errorText, type Paths, type Schemas } from '../../lib/api';
import { KindBadge, memoryHref, StatusBadge } from '../../lib/memory-bits';
import { memoryLabel } from '../../lib/memory-form';
import { useSession } from '../../lib/session';
import { Badge, ConfirmButton, Time } from '../../lib/ui';

type Item = Schemas['ReviewList']['items'][number];
type Action = NonNullable<
  Paths['/v1/spaces/{space}/review/{id}']['post']['requestBody']
>['content']['application/json']['action'];

/** A review item with its reasons and actions; `onDone` says what an action did. */
export function ReviewRow(props: {
  item: Item;
  window: { low: number; high: number };
  onDone: (message: string) => void;
}) {
  const { item, onDone } = props;
  const { space, canWrite } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const name = memoryLabel(item);
  const act = async (action: Action, extra: { body?: string; title?: string | null } = {}) => {
    setBusy(true);
    setError(null);
    try {
      const memory = await call(
        api.POST('/v1/spaces/{space}/review/{id}', {
          params: { path: { space, id: item.id } },
          body: { action, ...extra },
        }),
      );
      onDone(outcome(action, name, item.strength, memory.strength));
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li class="review-item" aria-busy={busy}>
      <div class="review-main">
        <a class="review-title" href={memoryHref(item.id)}>
          {name}
        </a>
        {item.title && <p class="review-body">{clip(item.body, 280)}</p>}
        <div class="review-meta">
          <KindBadge kind={item.kind} />
          <StatusBadge status={item.status} />
          <span class="muted">{item.area}</span>
          <Badge tone="warn" title="Review priority: importance, use and how close decay is">
            priority {item.priority.toFixed(2)}
          </Badge>
        </div>
        <Why item={item} window={props.window} />
      </div>
      {canWrite && (
        <div class="review-actions" role="group" aria-label={`Review ${name}`}>
          <button
            type="button"
            disabled={busy}
            title="Record a use: strength goes up and the memory stays"
            onClick={() => void act('reinforce')}
          >
            Reinforce
          </button>
          <button
            type="button"
            disabled={busy}
            aria-expanded={editing}
            onClick={() => setEditing(!editing)}
          >
            Revise
          </button>
          <ConfirmButton
            label="Let go"
            title="Let this memory go?"
            danger
            disabled={busy}
            message={
              <p>
                “{clip(name, 120)}” is archived now (reason let_go) and leaves recall. Nothing is
                deleted: its memory page can restore it.
              </p>
            }
            onConfirm={() => act('let_go')}
          />
        </div>
      )}
      {editing && canWrite && (
        <ReviseForm
          item={item}
          busy={busy}
          onCancel={() => setEditing(false)}
          onSave={(body, title) => act('revise', { body, title })}
        />
      )}
      {error && (
        <div class="note note-error review-error" role="alert">
          {error}
        </div>
      )}
    </li>
  );
}

/** Why the item is in the queue, in words. */
function Why(props: { item: Item; window: { low: number; high: number } }) {
  const { item, window } = props;
  const span = window.high - window.low;
  const at = span > 0 ? Math.min(1, Math.max(0, (item.strength - window.low) / span)) : 0;
  return (
    <p class="review-why">
      <span class="review-strength" aria-hidden="true">
        <span class="review-strength-bar" style={{ width: `${Math.round(at * 100)}%` }} />
      </span>
      Strength {item.strength.toFixed(2)} is in the review window ({window.low}–{window.high});
      importance {item.importance.toFixed(2)};{' '}
      {item.use_count === 0 ? (
        'never used'
      ) : (
        <>
          used {item.use_count} {item.use_count === 1 ? 'time' : 'times'}, last{' '}
          <Time at={item.last_used_at} />
        </>
      )}
      ; last reinforced <Time at={item.last_reinforced_at} />.
      {item.days_to_archive !== null && (
        <>
          {' '}
          Decay archives it in about {Math.max(0, Math.round(item.days_to_archive))}{' '}
          {Math.round(item.days_to_archive) === 1 ? 'day' : 'days'}.
        </>
      )}
    </p>
  );
}

/** The revise form: the new text and title, prefilled with the current ones. */
function ReviseForm(props: {
  item: Item;
  busy: boolean;
  onCancel: () => void;
  onSave: (body: string, title: string | null) => Promise<void>;
}) {
  const { item } = props;
  const [body, setBody] = useState(item.body);
  const [title, setTitle] = useState(item.title ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const id = `revise-${item.id}`;
  const submit = (e: Event) => {
    e.preventDefault();
    const text = body.trim();
    const name = title.trim() === '' ? null : title.trim();
    if (text === '') return setProblem('The text cannot be empty: write what the memory says.');
    if (text === item.body.trim() && name === item.title)
      return setProblem('Nothing changed: edit the text or the title first.');
    setProblem(null);
    void props.onSave(text, name);
  };
  return (
    <form class="revise-form" onSubmit={submit}>
      <div class="field">
        <label for={`${id}-title`}>Title</label>
        <input id={`${id}-title`} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />
      </div>
      <div class="field">
        <label for={`${id}-body`}>Text</label>
        <textarea id={`${id}-body`} value={body} onInput={(e) => setBody(e.currentTarget.value)} />
      </div>
      {problem && (
        <div class="note note-error" role="alert">
          {problem}
        </div>
      )}
      <div class="row">
        <button type="submit" class="primary" disabled={props.busy}>
          Save revision
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function outcome(action: Action, name: string, before: number, after: number): string {
  const what = `“${clip(name, 80)}”`;
  if (action === 'let_go') return `Let go of ${what}: it is archived; its page can restore it.`;
  const moved = `strength ${before.toFixed(2)} → ${after.toFixed(2)}`;
  return action === 'revise'
    ? `Revised ${what} (a new version; ${moved}).`
    : `Reinforced ${what} (${moved}).`;
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
