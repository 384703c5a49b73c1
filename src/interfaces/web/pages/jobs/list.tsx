/**
 * The list of jobs: filters by state, kind and space (kept in the URL), newest first, paged with
 * the API's cursor, an empty state that says what creates jobs, and one job opened by its id
 * (`/jobs?job=ID`, as the models page links a transition's rebuild).
 */
import type { Action } from '../../lib/actions';
import { useSession } from '../../lib/session';
import { Empty, ErrorNote, Field, Loading, useAsync } from '../../lib/ui';
import { JobCard } from './card';
import { type JobFilters, type JobPage, loadJob } from './data';
import { JOB_KINDS, JOB_STATES, KIND_INFO } from './format';

/** The filter controls; each change applies at once. */
export function JobFilterBar(props: { filters: JobFilters; set: (next: JobFilters) => void }) {
  const { filters, set } = props;
  const { me } = useSession();
  const change = (key: keyof JobFilters) => (e: Event) =>
    set({ ...filters, [key]: (e.currentTarget as HTMLSelectElement).value });
  return (
    <form class="job-filters" aria-label="Filter jobs" onSubmit={(e) => e.preventDefault()}>
      <Field id="jobs-state" label="State">
        <select id="jobs-state" value={filters.state} onChange={change('state')}>
          <option value="">any state</option>
          <option value="active">queued or running</option>
          {JOB_STATES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </Field>
      <Field id="jobs-kind" label="Kind">
        <select id="jobs-kind" value={filters.kind} onChange={change('kind')}>
          <option value="">any kind</option>
          {JOB_KINDS.map((k) => (
            <option key={k} value={k}>
              {k} ({KIND_INFO[k].toLowerCase()})
            </option>
          ))}
        </select>
      </Field>
      <Field id="jobs-space" label="Space">
        <select id="jobs-space" value={filters.space} onChange={change('space')}>
          <option value="">every space</option>
          {me.spaces.map((s) => (
            <option key={s.space} value={s.space}>
              {s.space} and store-wide jobs
            </option>
          ))}
        </select>
      </Field>
    </form>
  );
}

/** A page of jobs, or why there is none. */
export function JobList(props: {
  page: JobPage;
  action: Action;
  filtered: boolean;
  onChanged: () => void;
  clearHref: string;
}) {
  const { page } = props;
  if (page.jobs.length > 0)
    return (
      <ul class="jobs" aria-label="Jobs, newest first">
        {page.jobs.map((job) => (
          <JobCard key={job.id} job={job} action={props.action} onChanged={props.onChanged} />
        ))}
      </ul>
    );
  if (props.filtered)
    return (
      <Empty title="No jobs match these filters.">
        <a href={props.clearHref}>Show every job</a>
      </Empty>
    );
  return <NoJobs />;
}

/** The empty state of a store that never ran background work. */
export function NoJobs() {
  return (
    <Empty title="No background jobs yet">
      Jobs appear when engram works in the background: embedding new memories, extracting the
      knowledge graph (<code>engram graph rebuild</code>), lifecycle maintenance (
      <code>engram maintain</code>), a model transition (the Models page) and dream runs.
    </Empty>
  );
}

/** Paging buttons: back to newer jobs, on to older ones. */
export function Pager(props: {
  pageNumber: number;
  next: string | null;
  onNewer: () => void;
  onOlder: (cursor: string) => void;
}) {
  const { next } = props;
  if (props.pageNumber === 1 && !next) return null;
  return (
    <nav class="pager" aria-label="Pages of jobs">
      <button type="button" disabled={props.pageNumber === 1} onClick={props.onNewer}>
        Newer jobs
      </button>
      <span class="muted">page {props.pageNumber}</span>
      <button type="button" disabled={!next} onClick={() => next && props.onOlder(next)}>
        Older jobs
      </button>
    </nav>
  );
}

/** One job opened by its id, fetched fresh, with a way back to the list. */
export function OpenedJob(props: {
  id: string;
  action: Action;
  closeHref: string;
  version: number;
  onChanged: () => void;
}) {
  const job = useAsync(() => loadJob(props.id), [props.id, props.version]);
  return (
    <section class="opened-job" aria-labelledby="opened-job-title">
      <div class="opened-head">
        <h2 id="opened-job-title">Job {props.id}</h2>
        <a href={props.closeHref}>Back to every job</a>
      </div>
      {job.error ? (
        <ErrorNote error={job.error} onRetry={job.reload} />
      ) : !job.data ? (
        <Loading lines={2} label="Loading the job" />
      ) : (
        <ul class="jobs">
          <JobCard job={job.data} action={props.action} onChanged={props.onChanged} open />
        </ul>
      )}
    </section>
  );
}
