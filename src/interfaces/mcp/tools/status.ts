/**
 * The MCP status tool: store counts, embedder and published model of one space, and jobs; the
 * store-wide facts only for a caller that sees every space (../../status-scope.ts).
 */
import { z } from 'zod';

import { spaceSchema } from '../../../domain/input.js';
import { seesStoreWide } from '../../access.js';
import { jobsSummary } from '../../jobs-summary.js';
import { StatusSchema } from '../../responses/status.js';
import { statusFor } from '../../status-scope.js';
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
    run: async ({ space }, { engram, principal }) => {
      // Jobs and the store's own facts concern every space: only for a caller that sees them all.
      const wide = seesStoreWide(principal);
      const [status, jobs] = await Promise.all([
        engram.status({ space }),
        wide ? jobsSummary(engram) : undefined,
      ]);
      const scoped = statusFor(principal, status);
      return jobs ? { ...scoped, jobs } : scoped;
    },
  }),
];
