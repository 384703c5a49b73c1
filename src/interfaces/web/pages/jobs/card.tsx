/**
 * One job in the list: its kind, state, progress (a real progress bar while it works), attempts,
 * times and error; retry (failed or cancelled) and cancel (queued or running, confirmed first),
 * through the page's action (its outcome stays in view); and its details, expanded on demand.
 */
import { useState } from 'preact/hooks';

import type { Action } from '../../lib/actions';
import { Badge, ConfirmButton, Time } from '../../lib/ui';
import { cancelJob, retryJob } from './data';
import { JobDetails } from './details';
import { duration, type Job, KIND_INFO, progressRatio, progressText, STATE_TONE } from './format';

/** A job of the list; `onChanged` reloads the page's data after an action. */
export function JobCard(props: {
  job: Job;
  action: Action;
  onChanged: () => void;
  open?: boolean;
}) {
  const { job } = props;
  const [open, setOpen] = useState(props.open ?? false);
  const detailsId = `job-${job.id}-details`;
  return (
    <li class="job">
      <div class="job-head">
        <span class="job-kind" title={KIND_INFO[job.kind]}>
          {job.kind}
        </span>
        <StateBadge job={job} />
        <span class="muted">{job.space ?? 'whole store'}</span>
        <span class="muted job-when">
          created <Time at={job.created_at} />
        </span>
      </div>
      <JobLine job={job} />
      <JobError job={job} />
      <div class="job-actions">
        <button
          type="button"
          class="link"
          aria-expanded={open}
          aria-controls={detailsId}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide details' : 'Details'}
        </button>
        <JobActions job={job} action={props.action} onChanged={props.onChanged} />
      </div>
      <div hidden={!open}>
        <JobDetails job={job} id={detailsId} />
      </div>
    </li>
  );
}

/** A job's state, with a stop asked for or a stopped process said plainly. */
export function StateBadge({ job }: { job: Job }) {
  return (
    <>
      <Badge tone={STATE_TONE[job.state]}>{job.state}</Badge>
      {job.orphaned && (
        <Badge tone="warn" title="Its lease expired with no finish: its process stopped">
          orphaned
        </Badge>
      )}
      {job.cancel_requested && job.state === 'running' && (
        <Badge tone="warn" title="It stops at its next checkpoint">
          stop asked
        </Badge>
      )}
    </>
  );
}

/** Progress while it works (or where it resumes), then attempts and run time. */
function JobLine({ job }: { job: Job }) {
  const text = progressText(job.progress);
  return (
    <div class="job-line">
      {job.state === 'running' || (job.state === 'queued' && job.progress) ? (
        <JobProgress job={job} text={text} />
      ) : (
        text && <span class="job-result">{text}</span>
      )}
      <span class="muted">
        attempt {job.attempts} of {job.max_attempts}
      </span>
      {job.duration_ms != null && <span class="muted">ran {duration(job.duration_ms)}</span>}
      {job.finished_at && (
        <span class="muted">
          finished <Time at={job.finished_at} />
        </span>
      )}
    </div>
  );
}

/** A progress bar: a count of a total when the job reports both, else indeterminate. */
function JobProgress({ job, text }: { job: Job; text: string | null }) {
  const id = `job-${job.id}-progress`;
  const ratio = progressRatio(job.progress);
  const running = job.state === 'running';
  const words = `${ratio ? `${Math.round((100 * ratio.value) / ratio.max)}% · ` : ''}${text ?? 'working'}`;
  const bar = ratio ? (
    <progress id={id} value={ratio.value} max={ratio.max} />
  ) : (
    running && <progress id={id} />
  );
  return (
    <span class="job-progress">
      {bar}
      {bar ? (
        <label for={id}>
          <span class="visually-hidden">Progress of {job.kind}: </span>
          {words}
        </label>
      ) : (
        <span>resumes from: {words}</span>
      )}
    </span>
  );
}

/** Why it failed, or why it waits for another attempt. */
function JobError({ job }: { job: Job }) {
  if (!job.last_error) return null;
  if (job.state === 'failed')
    return (
      <p class="job-error">
        <strong>Failed:</strong> {job.last_error}
      </p>
    );
  if (job.state !== 'queued') return null;
  return (
    <p class="job-warn">
      Attempt {job.attempts} failed: {job.last_error}. Next attempt{' '}
      <Time at={job.next_attempt_at} />.
    </p>
  );
}

/** Retry a failed or cancelled job; cancel a queued or running one (asked first). */
function JobActions(props: { job: Job; action: Action; onChanged: () => void }) {
  const { job, action, onChanged } = props;
  const name = `The ${job.kind} job`;
  const retry = () =>
    action.run(async () => {
      const next = await retryJob(job.id);
      onChanged();
      return `${name} is queued again (now ${next.state}), with a fresh budget of ${next.max_attempts} attempts.`;
    });
  const cancel = () =>
    action.run(async () => {
      const next = await cancelJob(job.id);
      onChanged();
      return next.state === 'cancelled'
        ? `${name} is cancelled: it will not run. Retry queues it again.`
        : `${name} was asked to stop: it stops at its next checkpoint and keeps the work done so far.`;
    });
  const canRetry = job.state === 'failed' || job.state === 'cancelled';
  const canCancel = (job.state === 'queued' || job.state === 'running') && !job.cancel_requested;
  return (
    <>
      {canRetry && (
        <button type="button" disabled={action.busy} onClick={() => void retry()}>
          Retry job
        </button>
      )}
      {canCancel && (
        <ConfirmButton
          label="Cancel job"
          title={`Cancel this ${job.kind} job?`}
          confirmLabel="Yes, cancel it"
          danger
          disabled={action.busy}
          message={
            job.state === 'running'
              ? 'It stops at its next checkpoint; the work it has done so far is kept. You can queue it again later with Retry.'
              : 'It will not run. You can queue it again later with Retry.'
          }
          onConfirm={cancel}
        />
      )}
    </>
  );
}
