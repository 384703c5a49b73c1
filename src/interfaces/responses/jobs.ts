/** Background jobs (§11) as the edges return them: a job, a listing, the activity view, counts. */
import { z } from 'zod';

import { ITEM_WORK, JOB_KINDS, JOB_STATES, type JobState } from '../../domain/jobs.js';

/** A time as the store reports it (ISO 8601). */
const time = z.string();
const data = z.record(z.string(), z.unknown());

const count = z.number().int();
/** How many jobs are in each state. */
export const JobCountsSchema = z
  .object({
    queued: count,
    running: count,
    succeeded: count,
    failed: count,
    cancelled: count,
  } satisfies Record<JobState, z.ZodNumber>)
  .meta({ id: 'JobCounts' });

/** The job worker of the process that answers. */
export const WorkerStateSchema = z
  .object({
    status: z.enum(['idle', 'running', 'failing', 'stopped']),
    holder: z.string(),
    runs: z.number().int(),
    failed_runs: z.number().int(),
    last_run_at: time.nullable(),
    last_error: z.string().nullable(),
  })
  .meta({ id: 'WorkerState' });

/** A job, with its age apart from its run's duration. */
export const JobSchema = z
  .object({
    id: z.string(),
    kind: z.enum(JOB_KINDS),
    space: z.string().nullable(),
    payload: data,
    state: z.enum(JOB_STATES),
    attempts: z.number().int(),
    max_attempts: z.number().int(),
    next_attempt_at: time,
    lease_holder: z.string().nullable(),
    lease_expires_at: time.nullable(),
    progress: data.nullable(),
    last_error: z.string().nullable(),
    cancel_requested: z.boolean(),
    dedupe_key: z.string().nullable(),
    created_at: time,
    started_at: time.nullable(),
    run_started_at: time.nullable(),
    heartbeat_at: time.nullable(),
    finished_at: time.nullable(),
    age_ms: z.number().meta({ description: 'Since the job was created.' }),
    duration_ms: z.number().nullable().meta({
      description:
        'The current or last run; of an orphaned run, up to its last sign of life; null when unknown.',
    }),
    orphaned: z
      .boolean()
      .meta({ description: 'Running, but its lease expired with no finish: its process stopped.' }),
  })
  .meta({ id: 'Job' });

/** A page of jobs, newest first. */
export const JobPageSchema = z
  .object({ jobs: z.array(JobSchema), next_cursor: z.string().nullable() })
  .meta({ id: 'JobPage' });

const JobFailureGroupSchema = z.object({
  kind: z.enum(JOB_KINDS),
  error: z.string(),
  count: z.number().int(),
  first_seen: time,
  last_seen: time,
  job_ids: z.array(z.string()),
});

const ItemFailureGroupSchema = z.object({
  work: z.enum(ITEM_WORK),
  error: z.string(),
  count: z.number().int(),
  exhausted: z.number().int(),
  first_seen: time,
  last_seen: time,
  item_ids: z.array(z.string()),
});

/** The activity view: counts, running and queued jobs, failures grouped, this process's worker. */
export const JobActivitySchema = z
  .object({
    counts: JobCountsSchema,
    running: z.array(JobSchema),
    queued: z.array(JobSchema),
    recent: z.array(JobSchema),
    failures: z.array(JobFailureGroupSchema),
    item_failures: z.array(ItemFailureGroupSchema),
    worker: WorkerStateSchema.nullable(),
  })
  .meta({ id: 'JobActivity' });

/** How many failed items were made due again. */
export const ItemRetryResultSchema = z
  .object({ retried: z.number().int() })
  .meta({ id: 'ItemRetryResult' });

/** Job counts and the worker of the answering process, as `status` adds them. */
export const JobsSummarySchema = z.object({
  counts: JobCountsSchema,
  worker: WorkerStateSchema.nullable(),
});
