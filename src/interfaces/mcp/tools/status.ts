/** The MCP status tool: store counts, embedder and published model of one space. */
import { z } from 'zod';

import { spaceSchema } from '../../../domain/input.js';
import { StatusSchema } from '../../responses/status.js';
import { COMMON_DOCS, defineTool, described, READ_ONLY, type ToolGroup } from '../tool.js';

/** status. */
export const statusTools: ToolGroup = () => [
  defineTool({
    name: 'status',
    title: 'Memory status',
    description:
      'How many memories the space holds (by status and kind), vector coverage, relations, and the embedder and model state.',
    input: z.strictObject(described({ space: spaceSchema.optional() }, COMMON_DOCS)),
    output: StatusSchema,
    annotations: READ_ONLY,
    run: ({ space }, { engram }) => engram.status({ space }),
  }),
];
