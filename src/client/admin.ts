/**
 * The store-wide routes over HTTP, for an admin token of every space, with the library's method
 * names and answers: background jobs (`/v1/jobs`) and embedding models (`/v1/models`), and the
 * embedder status of a space (`/v1/embedder`, read role).
 */
import { type Calls, seg } from './calls.js';
import type { CallOptions, QueryOf, Schemas } from './types.js';

type JobsQuery = QueryOf<'/v1/jobs', 'get'>;
/** A job listing request, with the library's names (`states`, `kinds`). */
export interface JobListRequest extends CallOptions {
  states?: JobsQuery['state'];
  kinds?: JobsQuery['kind'];
  /** Only jobs of this space (and jobs over the whole store). */
  space?: string;
  limit?: number;
  cursor?: string;
}

/** The jobs and models methods of EngramClient. */
export interface AdminMethods {
  /** Jobs, newest first. */
  jobs(options?: JobListRequest): Promise<Schemas['JobPage']>;
  /** Counts, running and queued jobs, grouped failures, and the server's worker. */
  jobActivity(options?: { space?: string } & CallOptions): Promise<Schemas['JobActivity']>;
  /** One job. */
  job(id: string, options?: CallOptions): Promise<Schemas['Job']>;
  /** Queues a failed or cancelled job again with a fresh attempt budget. */
  retryJob(id: string, options?: CallOptions): Promise<Schemas['Job']>;
  /** Cancels a queued job; asks a running one to stop at its next checkpoint. */
  cancelJob(id: string, options?: CallOptions): Promise<Schemas['Job']>;
  /** Makes failed items due again (all, of a space, or these ids); answers how many. */
  retryItemFailures(options?: { space?: string; ids?: string[] } & CallOptions): Promise<number>;
  /** The published model, a running transition, standby models, the configured model. */
  modelsStatus(options?: CallOptions): Promise<Schemas['ModelsStatus']>;
  /** Moves the store to a model (202-style `started`/`running` while it rebuilds). */
  useModel(input: Schemas['UseModelBody'] & CallOptions): Promise<Schemas['UseModelResult']>;
  /** Publishes the previous model again. */
  rollbackModel(options?: CallOptions): Promise<Schemas['UseModelResult']>;
  /** Deletes the vectors of standby models. */
  pruneModels(options?: CallOptions): Promise<Schemas['PruneModelsResult']>;
  /** A space's vector-pending items and failures, and each model's provider availability. */
  embedderStatus(
    options?: { space?: string; limit?: number } & CallOptions,
  ): Promise<Schemas['EmbedderStatus']>;
}

/** Jobs listed when a listing names no limit, as the library lists them. */
const DEFAULT_JOB_LIMIT = 50;

/** The jobs and models methods over the given calls; `space` is the client's space option. */
export function adminMethods(calls: Calls, space: string | undefined): AdminMethods {
  const post = <T>(path: string, options: CallOptions | undefined, body?: object) =>
    calls.send<T>(options, { method: 'POST', path, body });
  return {
    jobs: (options = {}) =>
      // `GET /v1/jobs` answers a listing when it names a filter or limit: a limit always goes.
      calls.send(options, {
        method: 'GET',
        path: '/v1/jobs',
        query: {
          state: options.states,
          kind: options.kinds,
          space: options.space,
          limit: options.limit ?? DEFAULT_JOB_LIMIT,
          cursor: options.cursor,
        },
      }),
    jobActivity: (options) =>
      calls.send(options, { method: 'GET', path: '/v1/jobs', query: { space: options?.space } }),
    job: (id, options) => calls.send(options, { method: 'GET', path: `/v1/jobs/${seg(id)}` }),
    retryJob: (id, options) => post(`/v1/jobs/${seg(id)}/retry`, options),
    cancelJob: (id, options) => post(`/v1/jobs/${seg(id)}/cancel`, options),
    retryItemFailures: async (options) =>
      (
        await post<Schemas['ItemRetryResult']>('/v1/jobs/items/retry', options, {
          space: options?.space,
          ids: options?.ids,
        })
      ).retried,
    modelsStatus: (options) => calls.send(options, { method: 'GET', path: '/v1/models' }),
    useModel: (input) => post('/v1/models/use', input, { model: input.model }),
    rollbackModel: (options) => post('/v1/models/rollback', options),
    pruneModels: (options) => post('/v1/models/prune', options),
    embedderStatus: (options) =>
      calls.send(options, {
        method: 'GET',
        path: '/v1/embedder',
        query: { space: options?.space ?? space, limit: options?.limit },
      }),
  };
}
