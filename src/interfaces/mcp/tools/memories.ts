/**
 * MCP tools over single memories: remember, get, revise, forget, restore, list, history. Each is
 * one engram service call; validation and domain rules live in the service.
 */
import { z } from 'zod';

import { idSchema, spaceSchema } from '../../../domain/input.js';
import {
  HistorySchema,
  MemoryPageSchema,
  MemorySchema,
  RememberResultSchema,
} from '../../responses/memories.js';
import {
  COMMON_DOCS,
  defineTool,
  described,
  READ_ONLY,
  type Tool,
  type ToolGroup,
  WRITES,
} from '../tool.js';

const FILTER_DOCS: Record<string, string> = {
  kinds: 'Only these kinds.',
  areas:
    'Only these areas; a prefix matches its sub-areas ("projects" matches "projects/billing").',
  tags: 'Only memories carrying every one of these tags.',
  statuses:
    'Statuses to include (recall default: active and challenged; list default: candidate, active, challenged).',
  pinned: 'Only pinned (true) or only unpinned (false) memories.',
  created_after: 'Created at or after this ISO 8601 time.',
  created_before: 'Created before this ISO 8601 time.',
  updated_after: 'Updated at or after this ISO 8601 time.',
  updated_before: 'Updated before this ISO 8601 time.',
};

/** Field descriptions shared by the memory and recall tools. */
export const FIELD_DOCS: Record<string, string> = {
  ...COMMON_DOCS,
  ...FILTER_DOCS,
  body: 'The memory text: one self-contained statement is best (no need to repeat dates).',
  kind: 'fact, preference, rule, skill, procedure, note, episode, identity or working (default note).',
  title: 'Optional short title (for a skill: its name).',
  area: 'Topic area inside the space, "/"-separated, e.g. "projects/billing" (default "general").',
  importance: 'How much this matters, 0..1 (default 0.5); a small recall boost.',
  pinned: 'Pinned memories never decay and are never archived or merged automatically.',
  status: '"active" (default) or "candidate" (tentative, not recalled by default).',
  source: 'Provenance: agent, speaker (who said it), session, turn, url, import, trust.',
  created_at: 'When the fact was learned, if not now (ISO 8601).',
  related:
    'Also return the existing memories this one is related to, when auto-recall is enabled in interactive mode (subtle mode always returns them; silent never).',
};

/** Arguments of a change to one memory. */
const changeShape = described(
  {
    id: idSchema,
    space: spaceSchema.optional(),
    actor: z.string().max(200).optional(),
    reason: z.string().max(2000).optional(),
  },
  COMMON_DOCS,
);

/** remember, get, revise, forget, restore, list and history. */
export const memoryTools: ToolGroup = (schemas): Tool[] => [
  defineTool({
    name: 'remember',
    title: 'Remember',
    description:
      'Store a memory (a fact, preference, rule, skill, procedure, note, episode, identity or working item) so it can be recalled in later sessions. An exact duplicate (same space, kind and text) returns the existing memory with created=false instead of a copy. Returns {memory, created}; with auto-recall in subtle mode (or interactive and related=true) also related_memories [{id, label, relevance}] and a one-line hint, or related_skipped when that search ran out of time.',
    input: z.strictObject(described(schemas.rememberOne.shape, FIELD_DOCS)),
    output: RememberResultSchema,
    annotations: WRITES,
    run: async (args, { session }) => (await session()).remember(args),
  }),
  defineTool({
    name: 'get',
    title: 'Get a memory',
    description: 'Fetch one memory by id, whatever its status. Returns the memory.',
    input: z.strictObject(described({ id: idSchema, space: spaceSchema.optional() }, COMMON_DOCS)),
    output: MemorySchema,
    annotations: READ_ONLY,
    run: ({ id, space }, { engram }) => engram.get(id, { space }),
  }),
  defineTool({
    name: 'revise',
    title: 'Revise a memory',
    description:
      'Write a new version of a memory: give body, title and/or tags (tags replace the old set). Earlier versions stay in history and can be restored. Returns the memory.',
    input: z.strictObject(
      described(
        { id: idSchema, ...schemas.revise.shape },
        { ...FIELD_DOCS, tags: 'The new full set of tags.' },
      ),
    ),
    output: MemorySchema,
    annotations: WRITES,
    run: ({ id, ...rest }, { engram }) => engram.revise(id, rest),
  }),
  defineTool({
    name: 'forget',
    title: 'Forget a memory',
    description:
      'Hide a memory from recall (for example when it is wrong or no longer true). Reversible with restore; nothing is deleted. Returns the memory.',
    input: z.strictObject(changeShape),
    output: MemorySchema,
    annotations: WRITES,
    run: ({ id, ...options }, { engram }) => engram.forget(id, options),
  }),
  defineTool({
    name: 'restore',
    title: 'Restore a memory',
    description:
      'Bring back a forgotten, archived, superseded or merged memory. With version, instead restore the content of that earlier version as a new version. Returns the memory.',
    input: z.strictObject({
      ...changeShape,
      version: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe('Restore the body, title and tags of this version (see history).'),
    }),
    output: MemorySchema,
    annotations: WRITES,
    run: ({ id, version, ...options }, { engram }) =>
      version === undefined
        ? engram.restore(id, options)
        : engram.restoreVersion(id, version, options),
  }),
  defineTool({
    name: 'list',
    title: 'List memories',
    description:
      'List memories matching filters, most recently updated first (order "created" for newest first by creation). Returns {items, next_cursor}; pass next_cursor as cursor for the next page.',
    input: z.strictObject(
      described(schemas.list.shape, {
        ...FIELD_DOCS,
        pinned: FILTER_DOCS.pinned!,
        limit: 'Page size, 1..1000 (default 50).',
        order: '"updated" (default) or "created".',
        cursor: 'The next_cursor of the previous page.',
      }),
    ),
    output: MemoryPageSchema,
    annotations: READ_ONLY,
    run: (args, { engram }) => engram.list(args),
  }),
  defineTool({
    name: 'history',
    title: 'Memory history',
    description:
      'The versions, status changes and relations of one memory. Returns {item, versions, status_events, relations}.',
    input: z.strictObject(described({ id: idSchema, space: spaceSchema.optional() }, COMMON_DOCS)),
    output: HistorySchema,
    annotations: READ_ONLY,
    run: ({ id, space }, { engram }) => engram.history(id, { space }),
  }),
];
