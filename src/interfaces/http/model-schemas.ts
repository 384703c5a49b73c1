/**
 * Schemas of the model-transition routes (§8): the `models use` body, and the results of
 * `modelsStatus`, `useModel`, `rollbackModel`, `pruneModels` and `embedderStatus` exactly as the
 * service returns them (the parity test parses every result losslessly). Response schemas belong
 * in ../responses/ once MCP offers these results too.
 */
import { z } from '@hono/zod-openapi';

import { spaceSchema } from '../../domain/input.js';
import { ITEM_WORK } from '../../domain/jobs.js';
import type { EmbedPriority } from '../../embed/queue.js';
import { JobSchema } from '../responses/jobs.js';

/** `POST /v1/models/use` body: the model to move the store to. */
export const UseModelBody = z
  .strictObject({
    model: z.string().min(1).max(1000).meta({
      description:
        '`static`, `static:sif_a=N`, `onnx:FOLDER`, `openai:MODEL[@DIMENSIONS]`, or the id of a model the store knows.',
      example: 'static:sif_a=0.01',
    }),
  })
  .meta({ id: 'UseModelBody' });

/** `GET /v1/embedder` query: the space of pending items and failures, failures listed at most. */
export const EmbedderQuery = z.strictObject({
  space: spaceSchema.optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

const ModelSpecSchema = z
  .union([
    z.object({ provider: z.literal('static'), sif_a: z.number() }),
    z.object({
      provider: z.literal('onnx'),
      path: z.string(),
      pooling: z.enum(['auto', 'mean', 'cls']),
      normalize: z.boolean(),
    }),
    z.object({
      provider: z.literal('openai'),
      base_url: z.string(),
      model: z.string(),
      dimensions: z.number().int().optional(),
    }),
  ])
  .meta({ id: 'ModelSpec', description: 'What builds the embedder (never an API key).' });

const MODEL_ROLES = ['published', 'target', 'standby'] as const;

/** A model the store knows, its role and how many vectors it holds. */
export const StoredModelSchema = z
  .object({
    id: z.string(),
    dimension: z.number().int(),
    spec: ModelSpecSchema.nullable(),
    role: z.enum(MODEL_ROLES),
    published_at: z.number().nullable(),
    pruned_at: z
      .number()
      .nullable()
      .meta({ description: 'When its vectors were pruned (a rollback would be a rebuild).' }),
    target_at: z.number().nullable(),
    vectors: z.number().int(),
  })
  .meta({ id: 'StoredModel' });

/** A job as the store keeps it (the rebuild of a transition), without the activity view's timings. */
export const JobRecordSchema = JobSchema.omit({
  age_ms: true,
  duration_ms: true,
  orphaned: true,
}).meta({ id: 'JobRecord' });

const TransitionSchema = z
  .object({
    model: StoredModelSchema,
    coverage: z
      .object({ items: z.number().int(), done: z.number().int(), failed: z.number().int() })
      .meta({ description: 'Items in the store, with a current vector of the model, failed.' }),
    job: JobRecordSchema.nullable(),
    rate_per_s: z.number().nullable(),
    eta_s: z.number().nullable(),
  })
  .meta({ id: 'Transition' });

/** `GET /v1/models`: the published model, a running transition with its progress, standbys. */
export const ModelsStatusSchema = z
  .object({
    published: StoredModelSchema.nullable(),
    target: TransitionSchema.nullable(),
    standby: z.array(StoredModelSchema),
    configured: z.object({ model_id: z.string().nullable(), published: z.boolean() }),
  })
  .meta({ id: 'ModelsStatus' });

/** What choosing a model (or rolling back) did. */
export const UseModelResultSchema = z
  .object({
    action: z.enum(['started', 'running', 'published', 'cancelled', 'unchanged']),
    model: z.string(),
    previous: z.string().optional(),
    job: JobRecordSchema.optional(),
  })
  .meta({ id: 'UseModelResult' });

/** The standby models whose vectors were deleted, and how many vectors. */
export const PruneResultSchema = z
  .object({ models: z.array(z.string()), vectors: z.number().int() })
  .meta({ id: 'PruneModelsResult' });

const count = z.number().int();
const QueueStatsSchema = z
  .object({
    queued: z.object({
      query: count,
      write: count,
      background: count,
    } satisfies Record<EmbedPriority, z.ZodNumber>),
    in_flight: count,
    completed: count,
    failed: count,
    last_error: z.string().optional(),
  })
  .meta({ id: 'EmbeddingQueueStats' });

const ItemFailureSchema = z
  .object({
    space: z.string(),
    item_id: z.string(),
    work: z.enum(ITEM_WORK),
    version: z.number().int(),
    attempts: z.number().int(),
    last_error: z.string(),
    first_failed_at: z.string(),
    last_failed_at: z.string(),
    next_attempt_at: z.string().nullable(),
  })
  .meta({ id: 'ItemFailure' });

/** `GET /v1/embedder`: live queue, persisted pending items, failures and provider availability. */
export const EmbedderStatusSchema = z
  .object({
    queue: QueueStatsSchema.nullable().optional().meta({
      description:
        'Live calls of this process by priority (null without a queue); only for an admin token of every space.',
    }),
    pending: count.meta({ description: 'Items of the space waiting for a vector.' }),
    failures: z.array(ItemFailureSchema),
    providers: z.array(
      z.object({
        model: z.string(),
        role: z.string(),
        available: z.boolean(),
        reason: z.string().optional(),
      }),
    ),
  })
  .meta({ id: 'EmbedderStatus' });
