/**
 * Request schemas of the HTTP API. Request bodies are the service's own input schemas (the space
 * comes from the path instead of the body), so the OpenAPI document, the edge validation and the
 * service agree on every field and limit. Response schemas are shared with MCP (../responses/).
 */
import { z } from '@hono/zod-openapi';

import { areaSchema, idSchema, type InputSchemas, spaceSchema } from '../../domain/input.js';
import { KINDS, STATUSES } from '../../domain/types.js';

// Path parameters are the service's own schemas. Schemas made in core before @hono/zod-openapi
// loaded have no `.openapi()`, so these carry no extra metadata (the generator names params).
/** `/v1/spaces/{space}` path parameters. */
export const SpaceParams = z.object({ space: spaceSchema });
/** `/v1/spaces/{space}/memories/{id}` path parameters. */
export const IdParams = z.object({ space: spaceSchema, id: idSchema });
/** `/v1/spaces/{space}/memories/{id}/relations/{to_id}` path parameters. */
export const RelationParams = z.object({ space: spaceSchema, id: idSchema, to_id: idSchema });

/** A query parameter holding a list: repeated (`?kinds=a&kinds=b`) or comma-separated. */
export function listParam<T extends z.ZodType>(item: T) {
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
    remember: s.rememberOne.omit({ space: true }).openapi('RememberBody'),
    batch: z
      .strictObject({
        items: z.array(z.record(z.string(), z.unknown())).openapi({
          description:
            'Remember bodies (see RememberBody, without `related`), at most limits.max_batch_items; a bad item fails alone.',
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
