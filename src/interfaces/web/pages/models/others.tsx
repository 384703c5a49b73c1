/**
 * The other models the store knows (standbys): their provider, dimension, vectors kept or pruned,
 * switching to one, rolling back to the previously published one, and pruning the standby
 * models' vectors. Each change says first what it does, what stays and what is deleted.
 */
import type { Action } from '../../lib/actions';
import { ConfirmButton, Time } from '../../lib/ui';
import { type ModelsStatus, prune, rollback, specText, type StoredModel, useModel } from './data';
import { Fact } from './published';

/** The previous model a rollback publishes again: the other model published last. */
export function previousModel(status: ModelsStatus): StoredModel | undefined {
  return [...status.standby, status.target?.model ?? null]
    .filter((m): m is StoredModel => m !== null && m.published_at !== null)
    .sort((a, b) => b.published_at! - a.published_at!)[0];
}

/** The standby models, with rollback and prune. */
export function OtherModels(props: {
  status: ModelsStatus;
  action: Action;
  onChanged: () => void;
}) {
  const standby = props.status.standby.filter((m): m is StoredModel => m !== null);
  const published = props.status.published?.id ?? null;
  return (
    <section aria-labelledby="others-title">
      <h2 id="others-title">Other models</h2>
      {standby.length === 0 ? (
        <p class="muted">
          The store knows no other model. Switching to one (above) keeps the published model as a
          standby, so you can roll back to it.
        </p>
      ) : (
        <ul class="models" aria-label="Standby models">
          {standby.map((m) => (
            <StandbyModel
              key={m.id}
              model={m}
              published={published}
              action={props.action}
              onChanged={props.onChanged}
            />
          ))}
        </ul>
      )}
      <div class="model-actions">
        <Rollback status={props.status} action={props.action} onChanged={props.onChanged} />
        {standby.length > 0 && (
          <Prune
            standby={standby}
            published={published}
            action={props.action}
            onChanged={props.onChanged}
          />
        )}
      </div>
    </section>
  );
}

function StandbyModel(props: {
  model: StoredModel;
  published: string | null;
  action: Action;
  onChanged: () => void;
}) {
  const { model, action } = props;
  const use = () =>
    action.run(async () => {
      const text = await useModel(model.id);
      props.onChanged();
      return text;
    });
  return (
    <li class="card model-card">
      <code class="model-id">{model.id}</code>
      <dl class="model-facts">
        <Fact name="Provider">{specText(model.spec)}</Fact>
        <Fact name="Dimension">{model.dimension}</Fact>
        <Fact name="Last published">
          <Time at={model.published_at} />
        </Fact>
        <Fact name="Vectors">
          {model.pruned_at !== null ? (
            <>
              pruned <Time at={model.pruned_at} />
            </>
          ) : (
            `${model.vectors.toLocaleString()} kept`
          )}
        </Fact>
      </dl>
      <div class="model-actions">
        <ConfirmButton
          label="Switch to this model"
          title={`Switch to ${model.id}?`}
          disabled={action.busy || !model.spec}
          message={
            <>
              <p>
                If its kept vectors cover every memory, it is published at once. Otherwise the
                memories it lacks are embedded in the background while recall stays on{' '}
                <code>{props.published ?? 'the published model'}</code>, and they swap when it is
                complete.
              </p>
              <p>Nothing is deleted: the published model keeps its vectors as a standby.</p>
            </>
          }
          onConfirm={use}
        />
      </div>
    </li>
  );
}

function Rollback(props: { status: ModelsStatus; action: Action; onChanged: () => void }) {
  const { action } = props;
  const previous = previousModel(props.status);
  const current = props.status.published?.id ?? 'the published model';
  const run = () =>
    action.run(async () => {
      const text = await rollback();
      props.onChanged();
      return text;
    });
  if (!previous) return null;
  const pruned = previous.pruned_at !== null;
  return (
    <div class="model-action">
      <ConfirmButton
        label="Roll back"
        title={`Roll back to ${previous.id}?`}
        disabled={action.busy || pruned}
        message={
          <>
            <p>
              Publishes <code>{previous.id}</code> again with the vectors it kept; memories changed
              since are embedded first.
            </p>
            <p>
              <code>{current}</code> becomes a standby and keeps its vectors: you can switch back.
              Nothing is deleted.
            </p>
          </>
        }
        onConfirm={run}
      />
      <span class="muted">
        {pruned
          ? `The vectors of ${previous.id} were pruned: switching to it is a full rebuild, not a rollback.`
          : `to ${previous.id}, published before`}
      </span>
    </div>
  );
}

function Prune(props: {
  standby: StoredModel[];
  published: string | null;
  action: Action;
  onChanged: () => void;
}) {
  const { action } = props;
  const prunable = props.standby.filter((m) => m.pruned_at === null);
  const run = () =>
    action.run(async () => {
      const text = await prune();
      props.onChanged();
      return text;
    });
  return (
    <div class="model-action">
      <ConfirmButton
        label="Prune standby vectors"
        title="Delete the vectors of the standby models?"
        confirmLabel="Delete their vectors"
        danger
        disabled={action.busy || prunable.length === 0}
        message={
          <>
            <p>Deletes the vectors of:</p>
            <ul>
              {prunable.map((m) => (
                <li key={m.id}>
                  <code>{m.id}</code> ({m.vectors.toLocaleString()} vectors)
                </li>
              ))}
            </ul>
            <p>
              Stays: every memory, the published model <code>{props.published ?? ''}</code> with its
              vectors, and a transition's target. Afterwards, going back to a pruned model is a full
              rebuild, not a rollback.
            </p>
          </>
        }
        onConfirm={run}
      />
      <span class="muted">
        {prunable.length === 0
          ? 'No standby model keeps vectors.'
          : `frees the vectors of ${prunable.length} standby ${prunable.length === 1 ? 'model' : 'models'}`}
      </span>
    </div>
  );
}
