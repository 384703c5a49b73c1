/** MCP tools linking memories: relate (and un-relate) and supersede. */
import { z } from 'zod';

import { idSchema, spaceSchema } from '../../../domain/input.js';
import { RelationsResultSchema, SupersedeResultSchema } from '../../responses/memories.js';
import { COMMON_DOCS, defineTool, described, type ToolGroup, WRITES } from '../tool.js';

const change = {
  space: spaceSchema.optional(),
  actor: z.string().max(200).optional(),
  reason: z.string().max(2000).optional(),
};

/** relate and supersede. */
export const relationTools: ToolGroup = () => [
  defineTool({
    name: 'relate',
    title: 'Relate two memories',
    description:
      'Record that one memory is related to, or derived from, another. With remove=true, invalidate that relation instead (it stays in history). Returns {relations} (the live relations from from_id to to_id).',
    input: z.strictObject(
      described(
        {
          from_id: idSchema,
          to_id: idSchema,
          type: z.enum(['related', 'derived_from']).default('related'),
          remove: z.boolean().default(false),
          ...change,
        },
        {
          ...COMMON_DOCS,
          from_id: 'The memory the relation starts from.',
          to_id: 'The memory it points to.',
          type: '"related" (default) or "derived_from" (from_id was derived from to_id).',
          remove: 'Invalidate the relation instead of creating it.',
        },
      ),
    ),
    output: RelationsResultSchema,
    annotations: WRITES,
    run: async ({ from_id, to_id, type, remove, ...options }, { engram }) => {
      if (!remove) return { relations: await engram.relate(from_id, to_id, { ...options, type }) };
      await engram.unrelate(from_id, to_id, { ...options, type });
      return { relations: [] };
    },
  }),
  defineTool({
    name: 'supersede',
    title: 'Supersede a memory',
    description:
      'Record that new_id replaces old_id (for example an updated fact): the old memory leaves recall as "superseded" and a relation records why. Reversible with restore on old_id. Returns {old, new}.',
    input: z.strictObject(
      described(
        { old_id: idSchema, new_id: idSchema, ...change },
        {
          ...COMMON_DOCS,
          old_id: 'The memory that is out of date.',
          new_id: 'The memory that replaces it.',
        },
      ),
    ),
    output: SupersedeResultSchema,
    annotations: WRITES,
    run: ({ old_id, new_id, ...options }, { engram }) => engram.supersede(old_id, new_id, options),
  }),
];
