/** Facade for hybrid recall (§3): validates the request and runs the recall pipeline. */
import type { RecallRequest } from '../domain/input.js';
import { perChannel, type RecallResponse } from '../domain/types.js';
import { parseWith } from '../domain/zod.js';
import type { Channel } from '../retrieval/channels/channel.js';
import { defaultStages, type RecallDeps, runRecall } from '../retrieval/pipeline.js';
import type { RelevanceScorer } from '../retrieval/rerank/relevance.js';
import type { RecallObserver } from '../retrieval/stages.js';
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
  /** Told when each recall starts and ends (dormant recall's shadow evaluation, §9). */
  observers: readonly RecallObserver[];
}

/** The recall facade over a context. */
export function recallFacade(ctx: ServiceContext, parts: RecallParts): RecallFacade {
  const { config, log } = ctx;
  const warn = (message: string) => (err: unknown) => log.warn(message, { error: String(err) });
  const deps: RecallDeps = {
    store: ctx.store,
    config,
    now: ctx.now,
    stages: defaultStages({
      config,
      channels: parts.channels,
      scorer: parts.relevance,
      observers: parts.observers,
      onStageError: (stage, err) => warn(`recall ${stage} skipped`)(err),
    }),
    onAccessError: warn('access accounting skipped'),
    onObserverError: warn('recall observer failed'),
  };
  return {
    async recall(request) {
      const req = parseWith(ctx.schemas.recall, request);
      const { query, k, weights, rerank, ...filters } = req;
      const filter = itemFilter(ctx, { ...filters, limit: 1, order: 'updated' }, false);
      return runRecall(deps, {
        query,
        k: k ?? config.recall.k,
        // On by default only where a scorer exists; an explicit request without one is reported.
        rerank: rerank ?? (config.recall.rerank.enabled && parts.relevance !== null),
        filter,
        weights: perChannel((c) => weights?.[c] ?? config.recall.weights[c]),
      });
    },
  };
}
