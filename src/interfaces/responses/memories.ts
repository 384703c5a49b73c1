/**
 * Memories, relations and their history as every edge returns them (the library's own shapes in
 * src/domain/types.ts): the HTTP routes and OpenAPI document, and the MCP tools' structured content.
 */
import { z } from 'zod';

import { KINDS, RELATION_TYPES, STATUSES, TRUST_LABELS } from '../../domain/types.js';

/** An ISO 8601 time. */
export const iso = z.iso.datetime();

const SourceSchema = z.object({
  agent: z.string().optional(),
  speaker: z.string().optional(),
  session: z.string().optional(),
  turn: z.number().int().optional(),
  url: z.string().optional(),
  import: z.string().optional(),
  trust: z.enum(TRUST_LABELS).optional(),
});

const PriorSchema = z
  .object({
    kind: z.enum(KINDS).optional(),
    area: z.string().optional(),
    status: z.enum(STATUSES).optional(),
    at: iso,
    reason: z.string(),
  })
  .meta({ description: 'The state before the last automatic change, so it can be undone.' });

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
    prior: PriorSchema.nullable(),
    vector: z.enum(['ready', 'pending', 'empty']),
  })
  .meta({ id: 'Memory' });

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
  .meta({ id: 'Relation' });

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
  .meta({ id: 'History' });

/** An existing memory related to a new one (auto-recall on writes, §6). */
const RelatedMemorySchema = z
  .object({
    id: z.string(),
    label: z.string().meta({ description: 'The title, or the first words of the body.' }),
    relevance: z.number(),
  })
  .meta({ id: 'RelatedMemory' });

/**
 * Result of remember: the memory, and false when an exact duplicate already existed. With
 * auto-recall on writes (subtle mode, or interactive and `related: true`), also the memories it
 * is related to; each added field is absent when it does not apply.
 */
export const RememberResultSchema = z
  .object({
    memory: MemorySchema,
    created: z.boolean(),
    applied: z
      .array(z.enum(['area', 'importance', 'tags', 'pinned']))
      .optional()
      .meta({
        description:
          'On an exact duplicate: the options given that differed and were applied to the existing memory (with history).',
      }),
    related_memories: z.array(RelatedMemorySchema).optional().meta({
      description:
        "Existing memories related to this one, best first, at most the space's auto-recall max_results, above its relevance_threshold; never the memory itself.",
    }),
    hint: z.string().optional().meta({
      description: 'One line naming the related memories, when any were found.',
    }),
    related_skipped: z.enum(['budget_exceeded']).optional().meta({
      description:
        'Set instead of related_memories when the related search did not fit auto_recall.related_budget_ms.',
    }),
  })
  .meta({ id: 'RememberResult' });

/** Per-item results of a batch remember: a bad item fails alone. */
export const BatchResultSchema = z
  .object({
    results: z.array(
      z.discriminatedUnion('ok', [
        z.object({
          index: z.number().int(),
          ok: z.literal(true),
          memory: MemorySchema,
          created: z.boolean(),
        }),
        z.object({
          index: z.number().int(),
          ok: z.literal(false),
          error: z.object({
            code: z.string(),
            message: z.string(),
            field: z.string().optional(),
          }),
        }),
      ]),
    ),
  })
  .meta({ id: 'BatchResult' });

/** One page of memories; pass `next_cursor` as the cursor of the next page. */
export const MemoryPageSchema = z
  .object({ items: z.array(MemorySchema), next_cursor: z.string().nullable() })
  .meta({ id: 'MemoryPage' });

/** Result of supersede: the replaced memory and the one that replaces it. */
export const SupersedeResultSchema = z
  .object({ old: MemorySchema, new: MemorySchema })
  .meta({ id: 'SupersedeResult' });

/** Relations of a memory. */
export const RelationsResultSchema = z
  .object({ relations: z.array(RelationSchema) })
  .meta({ id: 'Relations' });

/** Result of purge. */
export const PurgeResultSchema = z.object({ id: z.string(), purged: z.literal(true) });
