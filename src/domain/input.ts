/**
 * Input schemas of the service's operations. Every request from any interface is parsed here,
 * so one bad field gets one clear error naming the field and the rule, whatever the edge.
 */
import { z } from 'zod';

import { KINDS, perChannel, RELATION_TYPES, STATUSES, TRUST_LABELS } from './types.js';

const SPACE_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const AREA_RE = /^[A-Za-z0-9_][A-Za-z0-9_.-]*(\/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$/;

/** A space name. */
export const spaceSchema = z
  .string()
  .regex(
    SPACE_RE,
    'must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit',
  );
/** An area path like `projects/billing`. */
export const areaSchema = z
  .string()
  .max(128, 'must be at most 128 characters')
  .regex(AREA_RE, 'must be "/"-separated segments of letters, digits, "_", "." or "-"');
/** A memory id. */
export const idSchema = z
  .string()
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'must be an engram id');
/** An ISO 8601 timestamp. */
export const isoSchema = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' });
const unitSchema = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');
const textField = z
  .string()
  .refine((s) => s.isWellFormed(), 'must be valid UTF-8 text')
  .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters');

/** Provenance given by a writer. */
export const sourceSchema = z.strictObject({
  agent: textField.max(200).optional(),
  speaker: textField.trim().min(1, 'must not be empty').max(200).optional(),
  session: textField.max(200).optional(),
  turn: z.number().int().min(0).optional(),
  url: textField.max(2000).optional(),
  import: textField.max(200).optional(),
  trust: z.enum(TRUST_LABELS).optional(),
});

function bodySchema(limits: InputLimits) {
  return textField
    .refine((s) => s.trim() !== '', 'must not be empty')
    .refine(
      (s) => Buffer.byteLength(s, 'utf8') <= limits.max_body_bytes,
      `must be at most ${limits.max_body_bytes} bytes`,
    );
}

function tagsSchema(limits: InputLimits) {
  return z
    .array(
      textField
        .trim()
        .min(1, 'must not be empty')
        .max(limits.max_tag_chars, `must be at most ${limits.max_tag_chars} characters`)
        .regex(/^[^\s,]+$/, 'must not contain spaces or commas'),
    )
    .max(limits.max_tags, `must have at most ${limits.max_tags} tags`);
}

function titleSchema(limits: InputLimits) {
  return textField
    .max(limits.max_title_chars, `must be at most ${limits.max_title_chars} characters`)
    .nullable();
}

/** The size limits input is validated against (the `limits` section of the configuration). */
export interface InputLimits {
  max_body_bytes: number;
  max_tag_chars: number;
  max_tags: number;
  max_title_chars: number;
  max_query_chars: number;
}

/** What the input schemas need of the configuration. */
export interface InputSchemaConfig {
  limits: InputLimits;
  recall: { max_pool: number };
}

/** All operation schemas for one configuration's limits. */
export function inputSchemas(config: InputSchemaConfig) {
  const { limits } = config;
  const common = {
    space: spaceSchema.optional(),
    actor: textField.max(200).optional(),
    reason: textField.max(2000).optional(),
  };
  const remember = z.strictObject({
    ...common,
    body: bodySchema(limits),
    kind: z.enum(KINDS, { message: `must be one of ${KINDS.join(', ')}` }).default('note'),
    title: titleSchema(limits).optional(),
    area: areaSchema.default('general'),
    tags: tagsSchema(limits).default([]),
    importance: unitSchema.default(0.5),
    pinned: z.boolean().default(false),
    status: z
      .enum(['active', 'candidate'], { message: 'must be active or candidate' })
      .default('active'),
    source: sourceSchema.optional(),
    created_at: isoSchema.optional(),
  });
  // A single remember may also ask for related memories (auto-recall's interactive mode); a batch
  // item may not, so the flag lives on its own schema.
  const rememberOne = remember.extend({
    related: z.boolean({ message: 'must be true or false' }).optional(),
  });
  const revise = z
    .strictObject({
      ...common,
      body: bodySchema(limits).optional(),
      title: titleSchema(limits).optional(),
      tags: tagsSchema(limits).optional(),
    })
    .refine((v) => v.body !== undefined || v.title !== undefined || v.tags !== undefined, {
      message: 'give at least one of body, title, tags',
      path: ['body'],
    });
  const filters = {
    kinds: z.array(z.enum(KINDS, { message: `must be one of ${KINDS.join(', ')}` })).optional(),
    areas: z.array(areaSchema).optional(),
    tags: z.array(z.string().min(1)).optional(),
    statuses: z
      .array(z.enum(STATUSES, { message: `must be one of ${STATUSES.join(', ')}` }))
      .min(1)
      .optional(),
    pinned: z.boolean().optional(),
    created_after: isoSchema.optional(),
    created_before: isoSchema.optional(),
    updated_after: isoSchema.optional(),
    updated_before: isoSchema.optional(),
  };
  const recall = z.strictObject({
    space: spaceSchema.optional(),
    query: textField
      .refine((s) => s.trim() !== '', 'must not be empty')
      .refine(
        (s) => s.length <= limits.max_query_chars,
        `must be at most ${limits.max_query_chars} characters`,
      ),
    k: z
      .number()
      .int()
      .min(1, 'must be at least 1')
      .max(config.recall.max_pool, `must be at most ${config.recall.max_pool}`)
      .optional(),
    ...filters,
    weights: z.strictObject(perChannel(() => z.number().min(0).max(10).optional())).optional(),
    /** Legacy reranking (§5.2) for this search; default `recall.rerank.enabled`. */
    rerank: z.boolean({ message: 'must be true or false' }).optional(),
    /** Decision recall (§5.1) for this search: `on` or `off`; default: on when an adapter is configured. */
    decision: z.enum(['on', 'off'], { message: 'must be on or off' }).optional(),
  });
  const list = z.strictObject({
    space: spaceSchema.optional(),
    ...filters,
    limit: z.number().int().min(1).max(1000).default(50),
    order: z.enum(['created', 'updated']).default('updated'),
    cursor: z.string().max(500).optional(),
  });
  return {
    remember,
    rememberOne,
    revise,
    recall,
    list,
    relate: z.strictObject({
      ...common,
      type: z
        .enum(['related', 'derived_from'], { message: 'must be related or derived_from' })
        .default('related'),
    }),
    move: areaSchema,
    importance: unitSchema,
    tagChange: z.strictObject({
      add: tagsSchema(limits).default([]),
      remove: z.array(z.string()).default([]),
    }),
  };
}

/** The parsed input schemas of one configuration. */
export type InputSchemas = ReturnType<typeof inputSchemas>;
/** Raw input of a single remember (a batch item is the same without `related`). */
export type RememberInput = z.input<InputSchemas['rememberOne']>;
/** Parsed revise input. */
export type ReviseInput = z.input<InputSchemas['revise']>;
/** A recall request. */
export type RecallRequest = z.input<InputSchemas['recall']>;
/** A list request. */
export type ListRequest = z.input<InputSchemas['list']>;

export { RELATION_TYPES };
