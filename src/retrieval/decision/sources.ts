/**
 * Candidate sources of the decision stage (§5.3): each adds candidates the ordinary pool lacks,
 * respecting the search's filters; its additions are judged with the pool and appear only when
 * the stage applies. A failing source is skipped and never fails the search.
 * - `graph`: memory items tied to the query's entities (the graph channel's list beyond the pool);
 * - `docs`: sections of engram's own documentation and CLI reference (never memory state);
 * - `sessions`: excerpts of past sessions, labelled with their session (never memory items).
 */
import type { ItemFilter } from '../../domain/filter.js';
import type { ItemRecord } from '../../domain/records.js';
import type { RecallHit } from '../../domain/types.js';
import type { Channel } from '../channels/channel.js';
import type { DocsIndex } from './docs-index.js';

/** Names of the sources, as `recall.decision.sources` configures their counts. */
export const SOURCE_NAMES = ['graph', 'docs', 'sessions'] as const;
/** A source's name. */
export type SourceName = (typeof SOURCE_NAMES)[number];

/** What a source is asked. */
export interface SourceRequest {
  query: string;
  filter: ItemFilter;
  /** Candidates it may add at most. */
  limit: number;
  /** Ids already in the pool. */
  pool: ReadonlySet<string>;
}

/** A candidate source. */
export interface CandidateSource {
  readonly name: SourceName;
  gather(request: SourceRequest): Promise<RecallHit[]>;
}

/** A hit for a document or a session excerpt: not a memory item, labelled by its source. */
function foreignHit(
  id: string,
  title: string,
  body: string,
  at: string,
  source: RecallHit['source'],
): RecallHit {
  return {
    id,
    kind: 'note',
    area: source?.type === 'docs' ? 'engram/docs' : 'sessions',
    title,
    body,
    score: 0,
    channels: {},
    status: 'active',
    importance: 0,
    updated_at: at,
    source,
  };
}

/** Memory items tied to the query's entities that the pool lacks (the graph channel, further down). */
export class GraphSource implements CandidateSource {
  readonly name = 'graph' as const;

  constructor(
    private readonly channel: Channel,
    private readonly items: (space: string, ids: string[]) => Promise<ItemRecord[]>,
  ) {}

  async gather(request: SourceRequest): Promise<RecallHit[]> {
    const found = await this.channel.search({
      query: request.query,
      filter: request.filter,
      limit: request.pool.size + request.limit,
      deadline: Number.POSITIVE_INFINITY,
    });
    const ids = (found.ids ?? [])
      .map((s) => s.id)
      .filter((id) => !request.pool.has(id))
      .slice(0, request.limit);
    if (ids.length === 0) return [];
    const byId = new Map((await this.items(request.filter.space, ids)).map((i) => [i.id, i]));
    return ids.flatMap((id, rank) => {
      const item = byId.get(id);
      if (!item) return [];
      return [
        {
          id,
          kind: item.kind,
          area: item.area,
          title: item.title,
          body: item.body,
          score: 0,
          channels: { graph: rank + 1, ...found.details?.get(id) },
          status: item.status,
          importance: item.importance,
          updated_at: new Date(item.updated_at).toISOString(),
          source: { type: 'graph' as const },
        },
      ];
    });
  }
}

/** Sections of engram's own documentation (read-only; never touches memory). */
export class DocsSource implements CandidateSource {
  readonly name = 'docs' as const;

  constructor(private readonly index: () => DocsIndex) {}

  async gather(request: SourceRequest): Promise<RecallHit[]> {
    const at = new Date(0).toISOString();
    return this.index()
      .search(request.query, request.limit)
      .map(({ section: s }) =>
        foreignHit(`docs:${s.document}#${s.anchor}`, `${s.document} › ${s.section}`, s.text, at, {
          type: 'docs',
          document: s.document,
          section: s.section,
          pointer: s.pointer,
        }),
      );
  }
}

/** One matching turn of a past session. */
export interface SessionExcerpt {
  session_id: string;
  turn_index: number;
  role: string;
  text: string;
  agent: string | null;
  title: string | null;
  /** When the session started (ms since the epoch). */
  started_at: number;
}

/** Excerpts of past sessions of the searched space, labelled as such. */
export class SessionsSource implements CandidateSource {
  readonly name = 'sessions' as const;

  constructor(
    private readonly search: (
      space: string,
      query: string,
      limit: number,
    ) => Promise<SessionExcerpt[]>,
  ) {}

  async gather(request: SourceRequest): Promise<RecallHit[]> {
    const found = await this.search(request.filter.space, request.query, request.limit);
    return found.map((e) =>
      foreignHit(
        `session:${e.session_id}#${e.turn_index}`,
        `session ${e.title ?? e.session_id}, turn ${e.turn_index} (${e.role})`,
        e.text,
        new Date(e.started_at).toISOString(),
        {
          type: 'session',
          session_id: e.session_id,
          turn_index: e.turn_index,
          role: e.role,
          agent: e.agent,
        },
      ),
    );
  }
}
