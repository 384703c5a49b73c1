/**
 * Jobs (§11): the background work of the store for an admin. Counts by state and the worker, the
 * repeated failures grouped with their retry, and the jobs newest first by state, kind and space,
 * each with its progress, attempts, times and error, retry and cancel, and its details. While a
 * job is queued or running the page refreshes itself every few seconds; the timer stops when
 * nothing runs or the page is left. Filters and an opened job are kept in the URL.
 */
import './jobs.css';

import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';

import { ActionToast, POLL_MS, useAction, usePoll } from '../lib/actions';
import { ErrorNote, Loading, Page, useAsync } from '../lib/ui';
import { Failures, JobSummary } from './jobs/activity';
import { type JobFilters, loadActivity, loadJobs } from './jobs/data';
import { isActive } from './jobs/format';
import { JobFilterBar, JobList, NoJobs, OpenedJob, Pager } from './jobs/list';

const NO_FILTERS: JobFilters = { state: '', kind: '', space: '' };

function filtersFrom(query: Record<string, string>): JobFilters {
  return { state: query.state ?? '', kind: query.kind ?? '', space: query.space ?? '' };
}

/** The URL of the list with these filters (and a job opened). */
export function jobsUrl(filters: JobFilters, job?: string): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v) params.set(k, v);
  if (job) params.set('job', job);
  const text = params.toString();
  return text ? `/jobs?${text}` : '/jobs';
}

/** The jobs page. */
export default function JobsPage() {
  const location = useLocation();
  const filters = filtersFrom(location.query);
  const opened = location.query.job;
  // Cursors of the pages after the first, for these filters only (an opened job keeps them).
  const key = jobsUrl(filters);
  const [paging, setPaging] = useState<{ key: string; cursors: string[] }>({ key, cursors: [] });
  const cursors = paging.key === key ? paging.cursors : [];
  const cursor = cursors.at(-1);
  const [version, setVersion] = useState(0);
  const changes = useAction();
  const activity = useAsync(() => loadActivity(filters.space), [filters.space, version]);
  const list = useAsync(() => loadJobs(filters, cursor), [key, cursor, version]);
  const counts = activity.data?.counts;
  const active =
    (counts !== undefined && counts.queued + counts.running > 0) ||
    (list.data?.jobs.some(isActive) ?? false);
  const refresh = () => setVersion((v) => v + 1);
  usePoll(active, refresh);
  const filtered = Object.values(filters).some(Boolean);
  const setCursors = (next: string[]) => setPaging({ key, cursors: next });
  return (
    <Page
      title="Jobs"
      actions={
        <>
          <span class="muted refresh-note" aria-live="off">
            {active ? `Refreshing every ${POLL_MS / 1000} s while jobs run` : ''}
          </span>
          <button type="button" onClick={refresh}>
            Refresh
          </button>
        </>
      }
    >
      {opened && (
        <OpenedJob
          id={opened}
          version={version}
          action={changes}
          closeHref={jobsUrl(filters)}
          onChanged={refresh}
        />
      )}
      {activity.error ? (
        <ErrorNote error={activity.error} onRetry={activity.reload} />
      ) : !activity.data ? (
        <div class="job-summary">
          <Loading lines={1} label="Loading the job counts" />
        </div>
      ) : (
        <>
          <JobSummary activity={activity.data} href={(state) => jobsUrl({ ...filters, state })} />
          <Failures
            activity={activity.data}
            space={filters.space}
            action={changes}
            onChanged={refresh}
          />
        </>
      )}
      <h2>Jobs</h2>
      <JobFilterBar filters={filters} set={(next) => location.route(jobsUrl(next, opened), true)} />
      <div class="job-list" aria-busy={list.loading}>
        {list.error ? (
          <ErrorNote error={list.error} onRetry={list.reload} />
        ) : !list.data ? (
          <Loading lines={4} label="Loading jobs" />
        ) : !filtered && cursors.length === 0 && list.data.jobs.length === 0 ? (
          <NoJobs />
        ) : (
          <>
            <JobList
              page={list.data}
              action={changes}
              filtered={filtered}
              onChanged={refresh}
              clearHref={jobsUrl(NO_FILTERS)}
            />
            <Pager
              pageNumber={cursors.length + 1}
              next={list.data.next_cursor}
              onNewer={() => setCursors(cursors.slice(0, -1))}
              onOlder={(next) => setCursors([...cursors, next])}
            />
          </>
        )}
      </div>
      <ActionToast action={changes} />
    </Page>
  );
}
