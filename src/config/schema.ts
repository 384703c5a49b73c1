/**
 * The configuration schema of engram: every key, its type, its rule and its documented default.
 * docs/configuration.md is the human reference of this file; keep the two in step.
 */
import { z } from 'zod';

const ms = (def: number, max = 600_000) => z.number().int().min(0).max(max).default(def);
const unit = (def: number) => z.number().min(0).max(1).default(def);

/** Memory kinds of §1.1. */
export const KINDS = [
  'fact',
  'preference',
  'rule',
  'skill',
  'procedure',
  'note',
  'episode',
  'identity',
  'working',
] as const;
/** Item statuses of §1.1 / §7. */
export const STATUSES = [
  'candidate',
  'active',
  'challenged',
  'superseded',
  'merged',
  'archived',
  'forgotten',
] as const;

const storeSchema = z
  .strictObject({
    backend: z.enum(['sqlite']).default('sqlite'),
    path: z.string().min(1).optional(),
    busy_timeout_ms: ms(5_000),
    write_retry_ms: ms(30_000),
  })
  .prefault({});

const embedderSchema = z
  .strictObject({
    provider: z.enum(['static', 'none']).default('static'),
    cache_dir: z.string().min(1).optional(),
    sif_a: z.number().positive().max(1).default(1e-3),
    write_budget_ms: ms(2_000),
    backfill_batch: z.number().int().min(1).max(10_000).default(256),
  })
  .prefault({});

const weightsSchema = z
  .strictObject({
    keyword: z.number().min(0).max(10).default(1),
    vector: z.number().min(0).max(10).default(1),
  })
  .prefault({});

const boostsSchema = z
  .strictObject({
    recency: unit(0.05),
    recency_half_life_days: z.number().positive().max(36_500).default(30),
    frequency: unit(0.03),
    frequency_saturation: z.number().int().min(1).max(1_000_000).default(20),
    importance: unit(0.05),
    strength: unit(0.03),
  })
  .prefault({});

const recallSchema = z
  .strictObject({
    k: z.number().int().min(1).max(200).default(5),
    pool: z.number().int().min(1).max(10_000).default(30),
    max_pool: z.number().int().min(1).max(10_000).default(200),
    rrf_k: z.number().min(0).max(10_000).default(60),
    semantic_budget_ms: ms(800),
    weights: weightsSchema,
    boosts: boostsSchema,
    default_statuses: z.array(z.enum(STATUSES)).min(1).default(['active', 'challenged']),
  })
  .refine((r) => r.pool <= r.max_pool, { message: 'pool must not exceed max_pool', path: ['pool'] })
  .prefault({});

const limitsSchema = z
  .strictObject({
    max_body_bytes: z
      .number()
      .int()
      .min(1)
      .max(16 * 1024 * 1024)
      .default(32 * 1024),
    max_title_chars: z.number().int().min(1).max(10_000).default(200),
    max_tags: z.number().int().min(0).max(1_000).default(32),
    max_tag_chars: z.number().int().min(1).max(1_000).default(64),
    max_query_chars: z.number().int().min(1).max(100_000).default(4_000),
    max_batch_items: z.number().int().min(1).max(1_000_000).default(1_000),
  })
  .prefault({});

/** The whole configuration file. Unknown keys are errors, so a typo never goes unnoticed. */
export const configSchema = z.strictObject({
  space: z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
      'letters, digits, ".", "_" or "-", at most 64, not starting with punctuation',
    )
    .default('default'),
  store: storeSchema,
  embedder: embedderSchema,
  recall: recallSchema,
  limits: limitsSchema,
});

/** The validated configuration (defaults applied). */
export type Config = z.output<typeof configSchema>;
/** What a configuration file or `createEngram` may give: every key optional. */
export type ConfigInput = z.input<typeof configSchema>;
