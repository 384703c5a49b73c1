/**
 * A transition in progress: the model being built, how many memories have a vector of it (a real
 * progress bar), failures, rate and time left, its rebuild job (linked on the jobs page), and
 * cancelling it, which keeps the published model.
 */
import type { Action } from '../../lib/actions';
import { Badge, ConfirmButton, Time } from '../../lib/ui';
import { eta, type ModelsStatus, specText, type Transition, useModel } from './data';

/** The transition's card; nothing when no transition runs. */
export function TransitionPanel(props: {
  status: ModelsStatus;
  action: Action;
  onChanged: () => void;
}) {
  const { target, published } = props.status;
  if (!target?.model) return null;
  const model = target.model;
  return (
    <section class="card model-card transition" aria-labelledby="transition-title">
      <h2 id="transition-title">Transition in progress</h2>
      <p class="transition-what">
        Re-embedding every memory with <code class="model-id">{model.id}</code>{' '}
        <span class="muted">({specText(model.spec)})</span>. Recall stays on{' '}
        <code class="model-id">{published?.id ?? 'the published model'}</code> until it is complete;
        then the two swap at once.
      </p>
      <Coverage target={target} />
      <RebuildJob target={target} />
      <TransitionActions
        target={target}
        published={published?.id ?? null}
        action={props.action}
        onChanged={props.onChanged}
      />
    </section>
  );
}

function Coverage({ target }: { target: Transition }) {
  const { items, done, failed } = target.coverage;
  const percent = items > 0 ? Math.floor((100 * done) / items) : 100;
  return (
    <div class="coverage">
      <label for="transition-progress" class="coverage-label">
        <span>Re-embedding</span>
        <span class="coverage-count">
          {done.toLocaleString()} of {items.toLocaleString()} memories ({percent}%)
        </span>
      </label>
      <progress id="transition-progress" value={done} max={Math.max(items, 1)} />
      <p class="muted coverage-facts">
        {failed > 0 && (
          <span class="model-reason">
            {failed} failed (recorded; the rebuild goes on without them) ·{' '}
          </span>
        )}
        {target.rate_per_s !== null && <span>{target.rate_per_s} per second · </span>}
        {target.eta_s !== null ? (
          <span>about {eta(target.eta_s)} left</span>
        ) : (
          <span>rate not known yet</span>
        )}
        {target.model?.target_at != null && (
          <span>
            {' '}
            · chosen <Time at={target.model.target_at} />
          </span>
        )}
      </p>
    </div>
  );
}

function RebuildJob({ target }: { target: Transition }) {
  const job = target.job;
  if (!job)
    return (
      <p class="model-warn">
        No rebuild job is queued or running for it (it may have failed: see the{' '}
        <a href="/jobs?kind=models.rebuild">rebuild jobs</a>). Restart the rebuild to go on from the
        vectors already made.
      </p>
    );
  return (
    <p class="rebuild-job">
      Rebuild job <Badge tone={job.state === 'running' ? 'kind' : undefined}>{job.state}</Badge>{' '}
      <span class="muted">
        attempt {job.attempts} of {job.max_attempts}
      </span>{' '}
      <a href={`/jobs?job=${encodeURIComponent(job.id)}`}>Open the job</a>
      {job.last_error && <span class="model-reason"> · last error: {job.last_error}</span>}
    </p>
  );
}

function TransitionActions(props: {
  target: Transition;
  published: string | null;
  action: Action;
  onChanged: () => void;
}) {
  const { action } = props;
  const model = props.target.model!.id;
  const run = (choice: string) =>
    action.run(async () => {
      const text = await useModel(choice);
      props.onChanged();
      return text;
    });
  return (
    <div class="model-actions">
      {!props.target.job && (
        <button type="button" disabled={action.busy} onClick={() => void run(model)}>
          Restart the rebuild
        </button>
      )}
      {props.published && (
        <ConfirmButton
          label="Cancel transition"
          title={`Cancel the move to ${model}?`}
          confirmLabel="Yes, cancel it"
          danger
          disabled={action.busy}
          message={
            <>
              <p>
                Recall stays on <code>{props.published}</code>, which keeps all its vectors. The
                rebuild stops, and <code>{model}</code> becomes a standby model.
              </p>
              <p>
                The vectors already made for it stay in the store until you prune standby models;
                choosing it again later goes on from them.
              </p>
            </>
          }
          onConfirm={() => run(props.published!)}
        />
      )}
    </div>
  );
}
