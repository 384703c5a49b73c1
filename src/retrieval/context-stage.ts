/**
 * The session-context stage (context.ts) on the channels' lists before fusion: each list of
 * additive evidence (BM25: keyword, time) is replaced with its spread along conversations, each
 * session lending as much as its cohesion allows (cohesion.ts). It also
 * makes the recall's one session lookup, which the rerank stage reads later.
 */
import type { Config } from '../config/schema.js';
import { SessionCohesion } from './cohesion.js';
import { sessionContextOn, type SessionContextOptions, spreadAlongSessions } from './context.js';
import type { RankedList } from './fuse.js';
import { type SessionLookup, sessionWindow } from './sessions.js';
import { type ListStage, type RecallRun, roundMs } from './stages.js';

/**
 * Replaces each list of additive scores with its session-context spread (see context.ts), cut
 * to `limit`.
 */
export async function withSessionContext(
  sessions: SessionLookup,
  lists: readonly RankedList[],
  options: SessionContextOptions,
  limit: number,
  cohesion?: SessionCohesion,
): Promise<RankedList[]> {
  if (!sessionContextOn(options)) return [...lists];
  const out: RankedList[] = [];
  for (const list of lists) {
    if (!list.additive || !list.scores || list.ids.length === 0) {
      out.push(list);
      continue;
    }
    const index = await sessions.index(list.ids, options.window);
    // By slot of this index: each session's share of the evidence it lends (kept across recalls).
    const factors = await cohesion?.factors(
      index,
      sessions.space,
      (ids, w) => sessions.readAround(ids, w),
      (ids, w) => sessions.readWritten(ids, w),
    );
    const scored = list.ids.map((id, i) => ({ id, score: list.scores![i] ?? 0 }));
    const spread = spreadAlongSessions(scored, index, options, factors).slice(0, limit);
    out.push({ ...list, ids: spread.map((s) => s.id), scores: spread.map((s) => s.score) });
  }
  return out;
}

/** Session context as a list stage; recall goes on without it when the store cannot say. */
export class SessionContextStage implements ListStage {
  /** Each session's cohesion, kept across this stage's recalls. */
  private readonly cohesion = new SessionCohesion();

  constructor(
    private readonly recall: Config['recall'],
    /** Told why the stage could not run. */
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  async apply(lists: RankedList[], run: RecallRun): Promise<RankedList[]> {
    const t = performance.now();
    try {
      // One lookup for every channel's candidates serves session context and the reranker alike.
      const window = sessionWindow(this.recall, run.plan.rerank);
      await run.sessions.index([...new Set(lists.flatMap((l) => l.ids))], window);
      return await withSessionContext(
        run.sessions,
        lists,
        this.recall.context,
        run.pool,
        this.cohesion,
      );
    } catch (err) {
      this.onError(err);
      return lists;
    } finally {
      run.timings.context = roundMs(performance.now() - t);
    }
  }
}
