/** Facade for hybrid recall (§3): validates the request and runs the recall pipeline. */
import type { RecallRequest } from '../domain/input.js';
import type { RecallResponse } from '../domain/types.js';
import { parseWith } from '../domain/zod.js';
import type { DormantRecall } from '../dormant/dormant-recall.js';
import type { Channel } from '../retrieval/channels/channel.js';
import { runRecall } from '../retrieval/pipeline.js';
import type { RelevanceScorer } from '../retrieval/rerank/relevance.js';
import type { ServiceContext } from './context.js';
import { itemFilter } from './memory-reads.js';

/** The recall facade. */
export interface RecallFacade {
  /** Hybrid recall (§3); returns the §3.5 envelope. */
  recall(request: RecallRequest): Promise<RecallResponse>;
}

/** What recall runs with besides the context. */
export interface RecallParts {
  channels: readonly Channel[];
  /** The relevance scorer (§8) for reranking; none when no word vectors are available. */
  relevance: RelevanceScorer | null;
  dormant: DormantRecall;
}

/** The recall facade over a context. */
export function recallFacade(ctx: ServiceContext, parts: RecallParts): RecallFacade {
  const { config, log } = ctx;
  const deps = {
    store: ctx.store,
    config,
    channels: parts.channels,
    now: ctx.now,
    onAccessError: (err: unknown) => log.warn('access accounting skipped', { error: String(err) }),
    scorer: parts.relevance,
    onStageError: (stage: string, err: unknown) =>
      log.warn(`recall ${stage} skipped`, { error: String(err) }),
  };
  return {
    async recall(request) {
      const req = parseWith(ctx.schemas.recall, request);
      const { query, k, weights, rerank, ...filters } = req;
      const filter = itemFilter(ctx, { ...filters, limit: 1, order: 'updated' }, false);
      parts.dormant.enterRecall();
      const response = await runRecall(deps, {
        query,
        k: k ?? config.recall.k,
        // On by default only where a scorer exists; an explicit request without one is reported.
        rerank: rerank ?? (config.recall.rerank.enabled && parts.relevance !== null),
        filter,
        weights: {
          keyword: weights?.keyword ?? config.recall.weights.keyword,
          vector: weights?.vector ?? config.recall.weights.vector,
          graph: weights?.graph ?? config.recall.weights.graph,
          time: weights?.time ?? config.recall.weights.time,
        },
      }).finally(() => parts.dormant.leaveRecall());
      // Shadow evaluation (§9) starts after the response exists and never changes or awaits it.
      parts.dormant.schedule({ query, filter, returned: response.hits.map((h) => h.id) });
      return response;
    },
  };
}
