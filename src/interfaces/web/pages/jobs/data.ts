/**
 * The jobs page's reads and writes over `/v1/jobs`: the activity view (counts, worker, grouped
 * failures), a page of jobs by filters (newest first, cursor paging), one job, retry and cancel of
 * a job, and making failed items due again.
 */
import { api, call, type Schemas } from '../../lib/api';
import type { Job, JobKind, JobState } from './format';

/** The activity view of the API. */
export type Activity = Schemas['JobActivity'];
/** A page of jobs. */
export type JobPage = Schemas['JobPage'];

/** The filters of the list, as the URL keeps them (`''` for any). */
export interface JobFilters {
  /** A state, `active` (queued or running), or `''`. */
  state: string;
  kind: string;
  space: string;
}

/** Jobs listed on one page. */
export const PAGE_SIZE = 20;

/** The activity view (store-wide, or of one space and the store-wide jobs). */
export async function loadActivity(space: string): Promise<Activity> {
  const query = space ? { space } : {};
  const data = await call(api.GET('/v1/jobs', { params: { query } }));
  if (!('counts' in data)) throw new Error('The server answered a listing, not the activity view.');
  return data;
}

function statesOf(state: string): JobState[] | undefined {
  if (state === 'active') return ['queued', 'running'];
  return state ? [state as JobState] : undefined;
}

/** One page of jobs matching the filters, newest first, from `cursor`. */
export async function loadJobs(filters: JobFilters, cursor: string | undefined): Promise<JobPage> {
  const query = {
    limit: PAGE_SIZE,
    ...(statesOf(filters.state) ? { state: statesOf(filters.state) } : {}),
    ...(filters.kind ? { kind: [filters.kind as JobKind] } : {}),
    ...(filters.space ? { space: filters.space } : {}),
    ...(cursor ? { cursor } : {}),
  };
  const data = await call(api.GET('/v1/jobs', { params: { query } }));
  if (!('jobs' in data)) throw new Error('The server answered the activity view, not a listing.');
  return data;
}

/** One job, fresh. */
export function loadJob(id: string): Promise<Job> {
  return call(api.GET('/v1/jobs/{id}', { params: { path: { id } } }));
}

/** Queues a failed or cancelled job again, with a fresh attempt budget. */
export function retryJob(id: string): Promise<Job> {
  return call(api.POST('/v1/jobs/{id}/retry', { params: { path: { id } } }));
}

/** Cancels a queued job, or asks a running one to stop at its next checkpoint. */
export function cancelJob(id: string): Promise<Job> {
  return call(api.POST('/v1/jobs/{id}/cancel', { params: { path: { id } } }));
}

/** Makes failed items due again: these ids, or every failed item (of a space). */
export async function retryItems(options: { ids?: string[]; space?: string }): Promise<number> {
  const body = {
    ...(options.ids ? { ids: options.ids } : {}),
    ...(options.space ? { space: options.space } : {}),
  };
  return (await call(api.POST('/v1/jobs/items/retry', { body }))).retried;
}
