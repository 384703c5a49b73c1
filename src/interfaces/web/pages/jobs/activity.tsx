/**
 * The activity view of background work: how many jobs are in each state (each count opens the list
 * of those jobs), the worker of the process that answers, repeated identical failures of jobs and
 * of single items grouped, each group with a retry (through the page's action).
 */
import type { Action } from '../../lib/actions';
import { Badge, Time } from '../../lib/ui';
import { type Activity, retryItems, retryJob } from './data';
import { JOB_STATES, STATE_TONE } from './format';

/** Counts of jobs by state, as links to the list of those jobs, and the worker. */
export function JobSummary(props: { activity: Activity; href: (state: string) => string }) {
  const { counts, worker } = props.activity;
  return (
    <div class="job-summary">
      <ul class="job-counts" aria-label="Job counts">
        {JOB_STATES.map((state) => (
          <li key={state}>
            <a href={props.href(state)} class={`job-count tone-${STATE_TONE[state]}`}>
              <span class="job-count-n">{counts[state].toLocaleString()}</span>
              <span class="job-count-label">{state}</span>
            </a>
          </li>
        ))}
      </ul>
      <WorkerLine worker={worker} />
    </div>
  );
}

function WorkerLine({ worker }: { worker: Activity['worker'] }) {
  if (!worker || worker.status === 'stopped')
    return (
      <p class="muted job-worker">
        This server runs no job worker (<code>worker.enabled: false</code>, or it is shutting down):
        queued jobs wait for another engram process on the same store.
      </p>
    );
  const tone = worker.status === 'failing' ? 'danger' : 'ok';
  return (
    <p class="job-worker">
      <span>Worker of this server</span> <Badge tone={tone}>{worker.status}</Badge>{' '}
      <span class="muted">
        {worker.runs.toLocaleString()} runs, {worker.failed_runs.toLocaleString()} failed · last run{' '}
        <Time at={worker.last_run_at} />
      </span>
      {worker.last_error && (
        <span class="job-error-inline"> · last error: {worker.last_error}</span>
      )}
    </p>
  );
}

/** Repeated failures, grouped; nothing when there are none. */
export function Failures(props: {
  activity: Activity;
  space: string;
  action: Action;
  onChanged: () => void;
}) {
  const { failures, item_failures: items } = props.activity;
  if (failures.length === 0 && items.length === 0) return null;
  return (
    <section class="job-failures" aria-labelledby="failures-title">
      <h2 id="failures-title">Failures</h2>
      {failures.length > 0 && (
        <ul class="failure-groups" aria-label="Failed jobs, grouped by error">
          {failures.map((group) => (
            <JobFailureGroup
              key={`${group.kind}:${group.error}`}
              group={group}
              action={props.action}
              onChanged={props.onChanged}
            />
          ))}
        </ul>
      )}
      {items.length > 0 && (
        <ItemFailures
          items={items}
          space={props.space}
          action={props.action}
          onChanged={props.onChanged}
        />
      )}
    </section>
  );
}

function JobFailureGroup(props: {
  group: Activity['failures'][number];
  action: Action;
  onChanged: () => void;
}) {
  const { group, action } = props;
  const n = group.job_ids.length;
  const retryAll = () =>
    action.run(async () => {
      let queued = 0;
      for (const id of group.job_ids) {
        await retryJob(id);
        queued += 1;
      }
      props.onChanged();
      return `${queued} ${group.kind} ${queued === 1 ? 'job' : 'jobs'} queued again.`;
    });
  return (
    <li class="failure">
      <div class="failure-head">
        <strong>{group.kind}</strong>
        <Badge tone="danger">
          {group.count} {group.count === 1 ? 'failure' : 'failures'}
        </Badge>
        <span class="muted">
          first <Time at={group.first_seen} />, last <Time at={group.last_seen} />
        </span>
      </div>
      <p class="failure-error">{group.error}</p>
      <button type="button" disabled={action.busy} onClick={() => void retryAll()}>
        Retry {n === 1 ? 'this job' : `these ${n} jobs`}
      </button>
    </li>
  );
}

function ItemFailures(props: {
  items: Activity['item_failures'];
  space: string;
  action: Action;
  onChanged: () => void;
}) {
  const all = props.action;
  const retryAll = () =>
    all.run(async () => {
      const n = await retryItems(props.space ? { space: props.space } : {});
      props.onChanged();
      return `${n} ${n === 1 ? 'item is' : 'items are'} due again; the worker embeds them next.`;
    });
  return (
    <>
      <h3>Memories whose background work failed</h3>
      <p class="muted">
        One memory's failure never stops a job: it is recorded here, retried with back-off, and left
        failed once its attempts are spent, until you retry it or the memory changes.
      </p>
      <ul class="failure-groups" aria-label="Failed items, grouped by error">
        {props.items.map((group) => (
          <ItemFailureGroup
            key={`${group.work}:${group.error}`}
            group={group}
            action={all}
            onChanged={props.onChanged}
          />
        ))}
      </ul>
      <button type="button" disabled={all.busy} onClick={() => void retryAll()}>
        Retry every failed item{props.space ? ` of ${props.space}` : ''}
      </button>
    </>
  );
}

function ItemFailureGroup(props: {
  group: Activity['item_failures'][number];
  action: Action;
  onChanged: () => void;
}) {
  const { group, action } = props;
  const retry = () =>
    action.run(async () => {
      const n = await retryItems({ ids: group.item_ids });
      props.onChanged();
      return `${n} ${n === 1 ? 'item is' : 'items are'} due again.`;
    });
  return (
    <li class="failure">
      <div class="failure-head">
        <strong>{group.work === 'vector' ? 'embedding' : 'model rebuild'}</strong>
        <Badge tone="danger">{group.count} items</Badge>
        {group.exhausted > 0 && (
          <Badge tone="warn" title="No attempts left: they wait for a retry">
            {group.exhausted} out of attempts
          </Badge>
        )}
        <span class="muted">
          last <Time at={group.last_seen} />
        </span>
      </div>
      <p class="failure-error">{group.error}</p>
      <button type="button" disabled={action.busy} onClick={() => void retry()}>
        Retry these items
      </button>
    </li>
  );
}
