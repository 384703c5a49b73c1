/**
 * Everything the store knows about one job: ids, space, attempts, every time of its life, age apart
 * from the run's duration (an orphaned run's duration ends at its last sign of life), its lease,
 * its payload and its checkpointed progress.
 */
import type { ComponentChildren } from 'preact';

import { Time } from '../../lib/ui';
import { duration, type Job, json } from './format';

/** The details of a job, as a description list and its JSON payload and progress. */
export function JobDetails({ job, id }: { job: Job; id: string }) {
  return (
    <div class="job-details" id={id}>
      <dl class="job-facts">
        <Fact name="Id">
          <code>{job.id}</code>
        </Fact>
        <Fact name="Space">{job.space ?? 'the whole store'}</Fact>
        <Fact name="Attempts">
          {job.attempts} of {job.max_attempts}
        </Fact>
        <Fact name="Created">
          <Time at={job.created_at} />
        </Fact>
        <Fact name="Age">{duration(job.age_ms)}</Fact>
        <Fact name="First started">
          <Time at={job.started_at} />
        </Fact>
        <Fact name="This run started">
          <Time at={job.run_started_at} />
        </Fact>
        <Fact name="Run duration">{runDuration(job)}</Fact>
        <Fact name="Last sign of life">
          <Time at={job.heartbeat_at} />
        </Fact>
        <Fact name="Finished">
          <Time at={job.finished_at} />
        </Fact>
        {job.state === 'queued' && (
          <Fact name="Due">
            <Time at={job.next_attempt_at} />
          </Fact>
        )}
        {job.lease_holder && (
          <Fact name="Lease">
            <span class="mono">{job.lease_holder}</span>, until <Time at={job.lease_expires_at} />
          </Fact>
        )}
        {job.dedupe_key && (
          <Fact name="Dedupe key">
            <code>{job.dedupe_key}</code>
          </Fact>
        )}
      </dl>
      {job.orphaned && (
        <p class="job-warn">
          Its lease expired with no finish: the process that ran it stopped. Another worker takes it
          up when the lease is free; cancel it if it should not run again.
        </p>
      )}
      {job.last_error && <Block title="Last error" text={job.last_error} />}
      <Block title="Payload" text={json(job.payload)} />
      {job.progress && <Block title="Progress" text={json(job.progress)} />}
    </div>
  );
}

function Fact(props: { name: string; children: ComponentChildren }) {
  return (
    <div class="job-fact">
      <dt>{props.name}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}

function Block(props: { title: string; text: string }) {
  return (
    <div class="job-block">
      <h3>{props.title}</h3>
      <pre>{props.text}</pre>
    </div>
  );
}

/** The current or last run's duration; an orphaned run without a last sign of life is unknown. */
function runDuration(job: Job): string {
  if (job.duration_ms != null) return duration(job.duration_ms);
  return job.orphaned ? 'unknown (its process stopped)' : 'not run yet';
}
