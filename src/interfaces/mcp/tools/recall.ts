/** The MCP recall tool: hybrid recall returning the §3.5 envelope, unchanged. */
import { z } from 'zod';

import { RecallResponseSchema } from '../../responses/recall.js';
import { defineTool, described, READ_ONLY, type ToolGroup } from '../tool.js';
import { FIELD_DOCS } from './memories.js';

/** recall. */
export const recallTools: ToolGroup = (schemas) => [
  defineTool({
    name: 'recall',
    title: 'Recall memories',
    description:
      'Find the memories most relevant to a query (keyword + semantic search, fused). Use it before answering anything that may depend on what was learned in earlier sessions. Returns {hits: [{id, kind, area, title, body, score, relevance?, channels, status, importance, updated_at}], degraded, decision, timings_ms}; `channels` shows which search found each hit, `degraded` lists channels that could not contribute and why; `decision` says whether the decision stage judged the hits (applied, with low_confidence) or fell back (reason).',
    input: z.strictObject(
      described(schemas.recall.shape, {
        ...FIELD_DOCS,
        pinned: 'Only pinned (true) or only unpinned (false) memories.',
        query: 'What you are looking for, in plain words (any text; no query syntax).',
        k: 'How many hits to return (default 5).',
        weights:
          'Per-channel fusion weights (keyword, vector, graph, time), 0..10 (default recall.weights; 0 turns a channel off).',
        decision:
          'Decision recall for this search: on or off (default: on when an adapter is configured). When applied, every hit carries relevance (0..1) and decision.low_confidence says none may answer the query.',
      }),
    ),
    output: RecallResponseSchema,
    annotations: READ_ONLY,
    run: (args, { engram }) => engram.recall(args),
  }),
];
