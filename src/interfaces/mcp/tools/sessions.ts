/**
 * The MCP tools of sessions (§1.4, §13): sessions_search (turns of past conversations) and
 * sessions_get (one conversation with its turns). Both read only; neither ever returns a memory.
 */
import { z } from 'zod';

import { spaceSchema } from '../../../domain/input.js';
import { sessionIdSchema, type SessionLimits, sessionSchemas } from '../../../domain/sessions.js';
import { SessionSchema, SessionSearchResultSchema } from '../../responses/sessions.js';
import { COMMON_DOCS, defineTool, described, READ_ONLY, type ToolGroup } from '../tool.js';

const DOCS: Record<string, string> = {
  ...COMMON_DOCS,
  query: 'What was discussed, in plain words (any text; no query syntax).',
  agent: 'Only conversations had with this agent (as named when they were stored).',
  limit: 'How many turns to return, 1..200 (default 10).',
  id: 'Session id: the session_id of a sessions_search hit.',
};

/**
 * A tool group gets the configuration's memory input schemas, not its session limits. Of the
 * session search fields only `query` depends on one (limits.max_query_chars), and recall's query
 * follows the same rule, so the domain's search schema is taken with recall's query in its place;
 * these bounds are never reached. The service validates again with the configuration's own.
 */
const LIMITS_UNUSED: SessionLimits = {
  max_session_turns: Number.MAX_SAFE_INTEGER,
  max_turn_bytes: Number.MAX_SAFE_INTEGER,
  max_title_chars: Number.MAX_SAFE_INTEGER,
  max_query_chars: Number.MAX_SAFE_INTEGER,
};

/** sessions_search and sessions_get. */
export const sessionTools: ToolGroup = (schemas) => [
  defineTool({
    name: 'sessions_search',
    title: 'Search past conversations',
    description:
      'Search past conversations (stored sessions, turn by turn) when the user refers to something discussed earlier that may not be stored as a memory ("what did we decide last week about...", "as I told you before..."). Keyword full-text search over what was said; it never returns memories (use recall for those). Returns {hits: [{session_id, turn_index, role, text, snippet?, score, session: {id, agent, title, started_at}}]}, best first; open the whole conversation with sessions_get.',
    input: z.strictObject(
      described(
        sessionSchemas(LIMITS_UNUSED).search.extend({ query: schemas.recall.shape.query }).shape,
        DOCS,
      ),
    ),
    output: SessionSearchResultSchema,
    annotations: READ_ONLY,
    run: (args, { engram }) => engram.searchSessions(args),
  }),
  defineTool({
    name: 'sessions_get',
    title: 'Get a past conversation',
    description:
      'Fetch one stored conversation with all its turns in order, e.g. to read what surrounds a sessions_search hit. Returns {id, space, agent, title, started_at, ended_at, source, created_at, turns: [{index, role, text, at}]}.',
    input: z.strictObject(described({ id: sessionIdSchema, space: spaceSchema.optional() }, DOCS)),
    output: SessionSchema,
    annotations: READ_ONLY,
    run: ({ id, space }, { engram }) => engram.getSession(id, { space }),
  }),
];
