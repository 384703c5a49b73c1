/** The MCP status tool: store counts, embedder and published model of one space, and jobs. */
import { z } from 'zod';

import { spaceSchema } from '../../../domain/input.js';
import { jobsSummary } from '../../jobs-summary.js';
import { StatusSchema } from '../../responses/status.js';
import { COMMON_DOCS, defineTool, described, READ_ONLY, type ToolGroup } from '../tool.js';

/** status. */
export const statusTools: ToolGroup = () => [
  defineTool({
    name: 'status',
    title: 'Memory status',
    description:
      'How many memories the space holds (by status and kind), vector coverage, relations, the embedder and model state, and background jobs by state with the worker of this server.',
    input: z.strictObject(described({ space: spaceSchema.optional() }, COMMON_DOCS)),
    output: StatusSchema,
    annotations: READ_ONLY,
    run: async ({ space }, { engram }) => {
      const [status, jobs] = await Promise.all([engram.status({ space }), jobsSummary(engram)]);
      return jobs ? { ...status, jobs } : status;
    },
  }),
];
