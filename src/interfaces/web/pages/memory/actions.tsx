/**
 * The memory page's actions panel (writers only): pin, move, tags, importance, forget and
 * restore, supersede, and purge for admins. Destructive actions ask first; every outcome shows
 * beside the action.
 */
import { useState } from 'preact/hooks';

import { api, call, type Schemas } from '../../lib/api';
import { LIVE, RESTORABLE } from '../../lib/memory-form';
import { ConfirmButton } from '../../lib/ui';
import { ImportanceForm, MoveForm, TagsForm } from './edits';
import { ActionOutcome, type Runner } from './runner';

type Memory = Schemas['Memory'];

function at(memory: Memory) {
  return { params: { path: { space: memory.space, id: memory.id } } };
}

/** Every action on a memory. */
export function MemoryActions(props: {
  memory: Memory;
  runner: Runner;
  areas: readonly string[];
  isAdmin: boolean;
  onPurged: () => void;
}) {
  const { memory, runner } = props;
  return (
    <section class="card actions memory-actions" aria-labelledby="actions-title">
      <h2 id="actions-title">Actions</h2>
      <PinAction memory={memory} runner={runner} />
      <MoveForm memory={memory} runner={runner} areas={props.areas} />
      <TagsForm memory={memory} runner={runner} />
      <ImportanceForm memory={memory} runner={runner} />
      <StatusAction memory={memory} runner={runner} />
      {LIVE.includes(memory.status) && <SupersedeAction memory={memory} runner={runner} />}
      {props.isAdmin && <PurgeAction memory={memory} runner={runner} onPurged={props.onPurged} />}
    </section>
  );
}

function PinAction({ memory, runner }: { memory: Memory; runner: Runner }) {
  const pin = () =>
    runner.run(
      'pin',
      () =>
        memory.pinned
          ? call(api.POST('/v1/spaces/{space}/memories/{id}/unpin', { ...at(memory), body: {} }))
          : call(api.POST('/v1/spaces/{space}/memories/{id}/pin', { ...at(memory), body: {} })),
      memory.pinned ? 'Unpinned: it decays again.' : 'Pinned: it never decays or gets archived.',
    );
  return (
    <div class="action">
      <span class="action-label">Pinned</span>
      <div class="action-row">
        <button
          type="button"
          aria-pressed={memory.pinned}
          disabled={runner.busy !== null}
          onClick={() => void pin()}
        >
          {memory.pinned ? 'Unpin' : 'Pin'}
        </button>
        <span class="muted">
          {memory.pinned ? 'Never decays, never archived.' : 'Decays with disuse.'}
        </span>
      </div>
      <ActionOutcome runner={runner} name="pin" />
    </div>
  );
}

/** Forget (asks first) or restore; a live memory that was moved can go back to its prior area. */
function StatusAction({ memory, runner }: { memory: Memory; runner: Runner }) {
  const forget = async () => {
    await runner.run(
      'status',
      () => call(api.DELETE('/v1/spaces/{space}/memories/{id}', at(memory))),
      'Forgotten: hidden from recall. Restore brings it back.',
    );
  };
  const restore = (done: string) =>
    runner.run(
      'status',
      () => call(api.POST('/v1/spaces/{space}/memories/{id}/restore', { ...at(memory), body: {} })),
      done,
    );
  const hidden = RESTORABLE.includes(memory.status);
  const priorArea = !hidden && memory.prior?.area && memory.prior.area !== memory.area;
  return (
    <div class="action">
      <span class="action-label">Recall</span>
      <div class="action-row">
        {hidden ? (
          <button
            type="button"
            class="primary"
            disabled={runner.busy !== null}
            onClick={() => void restore('Restored: it takes part in recall again.')}
          >
            Restore
          </button>
        ) : (
          <ConfirmButton
            label="Forget"
            title="Forget this memory?"
            message="It leaves recall and lists of live memories. Nothing is deleted: Restore brings it back."
            danger
            disabled={runner.busy !== null}
            onConfirm={forget}
          />
        )}
        {priorArea && (
          <button
            type="button"
            disabled={runner.busy !== null}
            onClick={() => void restore(`Moved back to ${memory.prior?.area}.`)}
          >
            Move back to {memory.prior?.area}
          </button>
        )}
      </div>
      <ActionOutcome runner={runner} name="status" />
    </div>
  );
}

function SupersedeAction({ memory, runner }: { memory: Memory; runner: Runner }) {
  const [by, setBy] = useState('');
  const other = by.trim();
  const supersede = async () => {
    const ok = await runner.run(
      'supersede',
      () =>
        call(
          api.POST('/v1/spaces/{space}/memories/{id}/supersede', {
            ...at(memory),
            body: { by: other },
          }),
        ),
      `Superseded by ${other}: it leaves recall. Restore undoes this.`,
    );
    if (ok) setBy('');
  };
  return (
    <div class="action">
      <label for="supersede-by">Replaced by (memory id)</label>
      <div class="action-row">
        <input
          id="supersede-by"
          class="mono"
          value={by}
          spellcheck={false}
          autoComplete="off"
          onInput={(e) => setBy(e.currentTarget.value)}
        />
        <ConfirmButton
          label="Supersede"
          title="Supersede this memory?"
          message={
            <>
              This memory leaves recall as superseded, and <code>{other}</code> records that it
              replaces it. Restore undoes this.
            </>
          }
          danger
          disabled={other === '' || other === memory.id || runner.busy !== null}
          onConfirm={supersede}
        />
      </div>
      <ActionOutcome runner={runner} name="supersede" />
    </div>
  );
}

function PurgeAction(props: { memory: Memory; runner: Runner; onPurged: () => void }) {
  const { memory, runner } = props;
  const purge = async () => {
    const ok = await runner.run(
      'purge',
      () => call(api.POST('/v1/spaces/{space}/memories/{id}/purge', { ...at(memory), body: {} })),
      'Purged.',
    );
    if (ok) props.onPurged();
  };
  return (
    <div class="action">
      <span class="action-label">Purge (admin)</span>
      <div class="action-row">
        <ConfirmButton
          label="Purge"
          title="Purge this memory forever?"
          message={
            <>
              <strong>This cannot be undone.</strong> Its text, every version, its vectors and index
              entries are deleted; only an audit record remains. Use it for privacy requests; to
              hide a memory, use Forget instead.
            </>
          }
          confirmLabel="Purge forever"
          danger
          disabled={runner.busy !== null}
          onConfirm={purge}
        />
      </div>
      <ActionOutcome runner={runner} name="purge" />
    </div>
  );
}
