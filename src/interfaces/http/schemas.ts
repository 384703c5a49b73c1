/**
 * Zod schemas of the HTTP API. Request bodies are the service's own input schemas (the space
 * comes from the path instead of the body), so the OpenAPI document, the edge validation and the
 * service agree on every field and limit. Response schemas describe the service's return shapes.
 */
import { z } from '@hono/zod-openapi';

import { ERROR_CODES } from '../../domain/errors.js';
import { areaSchema, idSchema, type InputSchemas, spaceSchema } from '../../domain/input.js';
import { KINDS, RELATION_TYPES, STATUSES, TRUST_LABELS } from '../../domain/types.js';

const iso = z.iso.datetime();

/** Every error response. */
export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      details: z.record(z.string(), z.unknown()),
    }),
  })
  .openapi('Error');

const SourceSchema = z.object({
  agent: z.string().optional(),
  speaker: z.string().optional(),
  session: z.string().optional(),
  turn: z.number().int().optional(),
  url: z.string().optional(),
  import: z.string().optional(),
  trust: z.enum(TRUST_LABELS).optional(),
});

/** A memory item (§1.1). */
export const MemorySchema = z
  .object({
    id: z.string(),
    space: z.string(),
    area: z.string(),
    kind: z.enum(KINDS),
    title: z.string().nullable(),
    body: z.string(),
    tags: z.array(z.string()),
    importance: z.number(),
    pinned: z.boolean(),
    status: z.enum(STATUSES),
    strength: z.number(),
    source: SourceSchema.nullable(),
    version: z.number().int(),
    created_at: iso,
    updated_at: iso,
    access_count: z.number().int(),
    last_accessed_at: iso.nullable(),
    use_count: z.number().int(),
    last_used_at: iso.nullable(),
    prior: z.record(z.string(), z.unknown()).nullable(),
    vector: z.enum(['ready', 'pending', 'empty']),
  })
  .openapi('Memory');

/** A relation between two memories (§1.2). */
export const RelationSchema = z
  .object({
    id: z.string(),
    space: z.string(),
    type: z.enum(RELATION_TYPES),
    from_id: z.string(),
    to_id: z.string(),
    actor: z.string().nullable(),
    reason: z.string().nullable(),
    created_at: iso,
    invalidated_at: iso.nullable(),
    invalidated_reason: z.string().nullable(),
  })
  .openapi('Relation');

const VersionSchema = z.object({
  item_id: z.string(),
  version: z.number().int(),
  title: z.string().nullable(),
  body: z.string(),
  tags: z.array(z.string()),
  actor: z.string().nullable(),
  reason: z.string().nullable(),
  created_at: iso,
});

const StatusEventSchema = z.object({
  id: z.string(),
  item_id: z.string(),
  from_status: z.enum(STATUSES).nullable(),
  to_status: z.enum(STATUSES),
  reason: z.string(),
  actor: z.string().nullable(),
  at: iso,
});

/** Versions, status events and relations of one memory. */
export const HistorySchema = z
  .object({
    item: MemorySchema,
    versions: z.array(VersionSchema),
    status_events: z.array(StatusEventSchema),
    relations: z.array(RelationSchema),
  })
  .openapi('History');

/** The recall envelope (§3.5), identical on every interface. */
export const RecallResponseSchema = z
  .object({
    hits: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(KINDS),
        area: z.string(),
        title: z.string().nullable(),
        body: z.string(),
        score: z.number(),
        relevance: z.number().optional(),
        channels: z.object({
          keyword: z.number().int().optional(),
          vector: z.number().int().optional(),
          graph: z.number().optional(),
          time: z.number().int().optional(),
        }),
        status: z.enum(STATUSES),
        importance: z.number(),
        updated_at: iso,
      }),
    ),
    degraded: z.array(z.object({ channel: z.string(), reason: z.string() })),
    decision: z.object({
      state: z.enum(['applied', 'fell_back', 'skipped', 'off']),
      reason: z.string().optional(),
      low_confidence: z.boolean().optional(),
    }),
    timings_ms: z.record(z.string(), z.number()),
  })
  .openapi('RecallResponse');

/** Result of remember. */
export const RememberResultSchema = z
  .object({ memory: MemorySchema, created: z.boolean() })
  .openapi('RememberResult');

/** Per-item results of a batch remember. */
export const BatchResultSchema = z
  .object({
    results: z.array(
      z.object({
        index: z.number().int(),
        ok: z.boolean(),
        memory: MemorySchema.optional(),
        created: z.boolean().optional(),
        error: z
          .object({ code: z.string(), message: z.string(), field: z.string().optional() })
          .optional(),
      }),
    ),
  })
  .openapi('BatchResult');

/** One page of memories. */
export const ListResultSchema = z
  .object({ items: z.array(MemorySchema), next_cursor: z.string().nullable() })
  .openapi('MemoryPage');

/** Result of supersede. */
export const SupersedeResultSchema = z
  .object({ old: MemorySchema, new: MemorySchema })
  .openapi('SupersedeResult');

/** Relations of a memory. */
export const RelationsResultSchema = z
  .object({ relations: z.array(RelationSchema) })
  .openapi('Relations');

/** Result of purge. */
export const PurgeResultSchema = z.object({ id: z.string(), purged: z.literal(true) });

/** Store, embedder and model state of a space. */
export const StatusSchema = z
  .object({
    space: z.string(),
    store: z.record(z.string(), z.unknown()),
    embedder: z.record(z.string(), z.unknown()),
    published_model: z.record(z.string(), z.unknown()).nullable(),
  })
  .openapi('Status');

const componentStatus = z.enum(['ok', 'loading', 'degraded', 'unavailable', 'off', 'down']);

/** Health of the service and its components. */
export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded', 'down']),
    version: z.string(),
    uptime_s: z.number(),
    auth: z.boolean(),
    components: z.object({
      store: z.object({ status: componentStatus }).catchall(z.unknown()),
      embedder: z.object({ status: componentStatus }).catchall(z.unknown()),
      worker: z.object({ status: componentStatus }).catchall(z.unknown()),
    }),
  })
  .openapi('Health');

// Path parameters are the service's own schemas. Schemas made in core before @hono/zod-openapi
// loaded have no `.openapi()`, so these carry no extra metadata (the generator names params).
/** `/v1/spaces/{space}` path parameters. */
export const SpaceParams = z.object({ space: spaceSchema });
/** `/v1/spaces/{space}/memories/{id}` path parameters. */
export const IdParams = z.object({ space: spaceSchema, id: idSchema });
/** `/v1/spaces/{space}/memories/{id}/relations/{to_id}` path parameters. */
export const RelationParams = z.object({ space: spaceSchema, id: idSchema, to_id: idSchema });

/** A query parameter holding a list: repeated (`?kinds=a&kinds=b`) or comma-separated. */
function listParam<T extends z.ZodType>(item: T) {
  return z
    .preprocess(
      (v) =>
        (Array.isArray(v) ? v : [v]).flatMap((s) =>
          typeof s === 'string'
            ? s
                .split(',')
                .map((x) => x.trim())
                .filter(Boolean)
            : [s],
        ),
      z.array(item),
    )
    .optional();
}

const booleanParam = z
  .enum(['true', 'false'], { message: 'must be true or false' })
  .transform((v) => v === 'true')
  .optional();

/** Request schemas of one configuration (its limits), built from the service's input schemas. */
export function requestSchemas(s: InputSchemas) {
  const change = { actor: s.remember.shape.actor, reason: s.remember.shape.reason };
  const { space: _space, ...revise } = s.revise.shape;
  return {
    remember: s.remember.omit({ space: true }).openapi('RememberBody'),
    batch: z
      .strictObject({
        items: z.array(z.record(z.string(), z.unknown())).openapi({
          description:
            'Remember bodies (see RememberBody), at most limits.max_batch_items; a bad item fails alone.',
        }),
      })
      .openapi('RememberBatchBody'),
    revise: z
      .strictObject(revise)
      .openapi('ReviseBody', { description: 'Give at least one of body, title, tags.' }),
    recall: s.recall.omit({ space: true }).openapi('RecallBody'),
    change: z.strictObject(change).openapi('ChangeBody'),
    restore: z.strictObject({ ...change, version: z.number().int().min(1).optional() }),
    move: z.strictObject({ area: areaSchema, ...change }),
    tags: z.strictObject({ ...s.tagChange.shape, ...change }),
    importance: z.strictObject({ importance: s.importance, ...change }),
    supersede: z.strictObject({ by: idSchema, ...change }),
    relate: z.strictObject({
      to_id: idSchema,
      type: z.enum(['related', 'derived_from']).default('related'),
      ...change,
    }),
    unrelateQuery: z.strictObject({
      type: z.enum(['related', 'derived_from']).optional(),
      ...change,
    }),
    changeQuery: z.strictObject(change),
    listQuery: z.strictObject({
      kinds: listParam(z.enum(KINDS)),
      areas: listParam(areaSchema),
      tags: listParam(z.string().min(1)),
      statuses: listParam(z.enum(STATUSES)),
      pinned: booleanParam,
      created_after: s.list.shape.created_after,
      created_before: s.list.shape.created_before,
      updated_after: s.list.shape.updated_after,
      updated_before: s.list.shape.updated_before,
      limit: z.coerce.number().int().min(1).max(1000).optional(),
      order: z.enum(['created', 'updated']).optional(),
      cursor: z.string().max(500).optional(),
    }),
  };
}

/** The request schemas of one configuration. */
export type RequestSchemas = ReturnType<typeof requestSchemas>;
