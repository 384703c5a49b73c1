/**
 * A space's insights as the edges return them (the library's shape in src/service/insights.ts):
 * memories by kind and status changes day by day, the current totals, the strength distribution
 * of live memories, and the recall latency this process measured since it started.
 */
import { z } from 'zod';

const count = z.number().int();
const counts = z.record(z.string(), count);
const ms = z.number().meta({ description: 'Milliseconds.' });

const InsightDaySchema = z
  .object({
    day: z.string().meta({ description: 'The UTC day, `YYYY-MM-DD`.' }),
    kinds: counts.meta({
      description:
        'Memories of each kind created by the end of the day (any status; purged ones are gone). Every kind of the space has an entry.',
    }),
    status_changes: counts.meta({
      description:
        'Memories that changed to each status during the day (status events). Every status changed to in the period has an entry.',
    }),
  })
  .meta({ id: 'InsightDay' });

const StrengthBucketSchema = z
  .object({
    from: z.number(),
    to: z.number(),
    count: count.meta({
      description: 'Live memories with `from <= strength < to` (the last holds 1).',
    }),
  })
  .meta({ id: 'StrengthBucket' });

const PercentilesSchema = z.object({ p50: ms, p95: ms, p99: ms }).meta({ id: 'Percentiles' });

const LatencyPointSchema = z
  .object({
    start: z.string().meta({ description: 'When the bucket starts (ISO 8601).' }),
    count,
    p50: ms.nullable(),
    p95: ms.nullable(),
    p99: ms.nullable(),
  })
  .meta({ id: 'LatencyPoint', description: 'One time bucket; percentiles are null when empty.' });

const RecallLatencySchema = z
  .object({
    since: z.string().meta({ description: 'When this process started measuring (ISO 8601).' }),
    capacity: count.meta({ description: 'Most recalls kept; older ones drop out first.' }),
    served: count.meta({ description: 'Recalls this process served since it started.' }),
    count: count.meta({ description: 'Recalls kept and summarised (at most `capacity`).' }),
    overall: PercentilesSchema.nullable().meta({
      description: 'Percentiles of the kept recalls (nearest rank); null before the first.',
    }),
    bucket_ms: count.meta({ description: 'Width of each time bucket.' }),
    buckets: z.array(LatencyPointSchema).meta({
      description:
        "From the process's start (once recalls dropped out: the oldest kept one's bucket) to now's, oldest first, empty ones included; none before the first recall.",
    }),
  })
  .meta({
    id: 'RecallLatency',
    description:
      'Recall durations measured by this server process since it started (not persisted, not shared with other processes): the most recent `capacity` recalls that succeeded.',
  });

/** A space's insights (HTTP `GET /v1/spaces/{space}/insights`). */
export const InsightsSchema = z
  .object({
    space: z.string(),
    days: count,
    from: z.string().meta({ description: 'First day covered, `YYYY-MM-DD` (UTC).' }),
    to: z.string().meta({ description: 'Last day covered: today, `YYYY-MM-DD` (UTC).' }),
    totals: z.object({
      items: count.meta({ description: 'Memories in the space, any status.' }),
      by_kind: counts,
      by_status: counts.meta({ description: 'Memories by current status.' }),
    }),
    timeline: z.array(InsightDaySchema).meta({ description: 'Every day from `from` to `to`.' }),
    strength: z.object({
      live: count.meta({
        description: 'Live memories (not forgotten, merged or superseded).',
      }),
      buckets: z.array(StrengthBucketSchema).meta({ description: 'Ten tenths of 0..1.' }),
    }),
    recall_latency: RecallLatencySchema,
  })
  .meta({ id: 'Insights' });
