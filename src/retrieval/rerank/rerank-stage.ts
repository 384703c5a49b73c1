/**
 * Legacy reranking (§5.2) as a recall stage: when a recall asks for it, the relevance scorer
 * reorders the best fused, boosted candidates (rerank.ts); each judged candidate that is a
 * conversation turn is read with the turns around it. The first-stage order stands when no scorer
 * is available or it fails: recall always answers.
 */
import type { Config } from '../../config/schema.js';
import type { ItemRecord } from '../../domain/records.js';
import { embeddingText } from '../../domain/text.js';
import type { SessionLookup } from '../sessions.js';
import { type Candidate, type RecallRun, type RecallStage, roundMs } from '../stages.js';
import type { TurnIndex } from '../turn-index.js';
import type { RelevanceScorer } from './relevance.js';
import { rerank } from './rerank.js';

/** A candidate as reranking sees it. */
export interface ScoredCandidate {
  item: ItemRecord;
  score: number;
}

/** What reranking needs besides the candidates. */
export interface RerankContext {
  sessions: SessionLookup;
  scorer: RelevanceScorer;
  query: string;
  settings: Config['recall']['rerank'];
}

/**
 * Reorders the best candidates with the relevance scorer. Returns the candidates in their new
 * order with their reranked scores; throws what the scorer throws.
 */
export async function rerankCandidates<T extends ScoredCandidate>(
  ctx: RerankContext,
  ordered: readonly T[],
): Promise<T[]> {
  const judged = ordered.slice(0, ctx.settings.top_n).map((c) => c.item.id);
  const window = ctx.settings.context_window;
  // Only turns the recall's session lookup already brought: the context stage fetched them.
  const around =
    window >= 1
      ? nearbyTexts(judged, await ctx.sessions.index(judged, window, false), window)
      : null;
  const reranked = await rerank(
    ctx.scorer,
    ctx.query,
    ordered,
    (c) => ({ id: c.item.id, text: embeddingText(c.item), context: around?.get(c.item.id) }),
    { topN: ctx.settings.top_n, blend: ctx.settings.blend },
  );
  return reranked.map((r) => ({ ...r.candidate, score: r.score }));
}

/** For each id that is a conversation turn: the bodies of the turns within `window`, nearest first. */
export function nearbyTexts(
  ids: readonly string[],
  index: TurnIndex,
  window: number,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const id of ids) {
    const slot = index.slotOf(id);
    if (slot === undefined) continue;
    // Nearest first; at equal distance the earlier turn, then id.
    const near: string[] = [];
    const add = (offset: number) => {
      for (const q of index.around(slot, offset)) if (q !== slot) near.push(index.turn(q).body);
    };
    add(0);
    for (let d = 1; d <= window; d++) {
      add(-d);
      add(d);
    }
    if (near.length > 0) out.set(id, near);
  }
  return out;
}

/** Legacy rerank as a recall stage; it runs only in recalls that ask for it (`plan.rerank`). */
export class RerankStage implements RecallStage {
  constructor(
    private readonly scorer: RelevanceScorer | null,
    private readonly settings: Config['recall']['rerank'],
    /** Told why the stage could not run. */
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  depth(run: RecallRun): number {
    return run.plan.rerank ? this.settings.top_n : 0;
  }

  async apply(candidates: Candidate[], run: RecallRun): Promise<Candidate[]> {
    if (!run.plan.rerank) return candidates;
    if (!this.scorer) {
      this.onError(new Error('no relevance scorer is available'));
      return candidates;
    }
    const t = performance.now();
    try {
      const reranked = await rerankCandidates(
        {
          sessions: run.sessions,
          scorer: this.scorer,
          query: run.plan.query,
          settings: this.settings,
        },
        candidates,
      );
      // Reported only when the stage applied, so a caller can tell a reranked answer from a plain one.
      run.timings.rerank = roundMs(performance.now() - t);
      return reranked;
    } catch (err) {
      this.onError(err);
      return candidates;
    }
  }
}
