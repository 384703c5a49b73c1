/**
 * Facade for hybrid recall (§3): validates the request and runs the recall pipeline with the
 * space's settings (the configured ones with its runtime changes, settings.ts).
 */
import type { AccessRecorder } from '../access/ledger.js';
import type { Config } from '../config/schema.js';
import { EngramError } from '../domain/errors.js';
import type { RecallRequest } from '../domain/input.js';
import { perChannel, type RecallResponse } from '../domain/types.js';
import { parseWith } from '../domain/zod.js';
import type { Channel } from '../retrieval/channels/channel.js';
import type { DecisionRecallStage } from '../retrieval/decision/decision-stage.js';
import { defaultStages, type RecallDeps, runRecall } from '../retrieval/pipeline.js';
import type { RelevanceScorer } from '../retrieval/rerank/relevance.js';
import type { RecallObserver, RecallPlan } from '../retrieval/stages.js';
import type { ServiceContext } from './context.js';
import { itemFilter } from './memory-reads.js';
import { recallSettings } from './settings.js';

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
  /** The second stage (§5.1); default: off. */
  decision?: DecisionRecallStage;
  /** Where returned hits are counted (§3.6). */
  access: AccessRecorder;
}

/** The recall facade over a context. */
export function recallFacade(ctx: ServiceContext, parts: RecallParts): RecallFacade {
  const { config, log } = ctx;
  const warn = (message: string) => (err: unknown) => log.warn(message, { error: String(err) });
  const build = (recall: Config['recall']): RecallDeps => ({
    store: ctx.store,
    access: parts.access,
    config,
    now: ctx.now,
    stages: defaultStages({
      config: { ...config, recall },
      channels: parts.channels,
      scorer: parts.relevance,
      observers: parts.observers,
      onStageError: (stage, err) => warn(`recall ${stage} skipped`)(err),
      decision: parts.decision,
    }),
    onAccessError: warn('access accounting skipped'),
    onObserverError: warn('recall observer failed'),
  });
  // Stages are built with the boosts in force; a space's runtime boosts get their own (settings.ts).
  const stagesByBoosts = new Map<string, RecallDeps>([
    [JSON.stringify(config.recall.boosts), build(config.recall)],
  ]);
  const depsFor = (recall: Config['recall']): RecallDeps => {
    const key = JSON.stringify(recall.boosts);
    let deps = stagesByBoosts.get(key);
    if (!deps) {
      if (stagesByBoosts.size >= 32) stagesByBoosts.clear();
      stagesByBoosts.set(key, (deps = build(recall)));
    }
    return deps;
  };
  return {
    async recall(request) {
      const req = parseWith(ctx.schemas.recall, request);
      const { query, k, weights, rerank, decision, ...filters } = req;
      if (rerank === true && decision === 'on')
        throw new EngramError(
          'INVALID_INPUT',
          'rerank and decision: ask for one second stage (decision recall replaces legacy reranking)',
          { field: 'rerank', rule: 'not with decision: on' },
        );
      const filter = itemFilter(ctx, { ...filters, limit: 1, order: 'updated' }, false);
      // The configured weights, boosts and rerank with the space's runtime changes (settings.ts).
      const live = await recallSettings(ctx, filter.space);
      const deps = depsFor(live);
      const plan: RecallPlan = {
        query,
        k: k ?? config.recall.k,
        // On by default only where a scorer exists; an explicit request without one is reported.
        rerank: rerank ?? (live.rerank.enabled && parts.relevance !== null),
        filter,
        weights: perChannel((c) => weights?.[c] ?? live.weights[c]),
        ...(decision ? { decision } : {}),
      };
      // With decision recall selected, the first stage is ordinary recall as configured (so a
      // fallback returns exactly its hits); a legacy rerank the caller asked for is skipped.
      if (rerank !== true || !parts.decision?.selects(plan)) return runRecall(deps, plan);
      const response = await runRecall(deps, {
        ...plan,
        rerank: live.rerank.enabled && parts.relevance !== null,
      });
      response.decision = {
        ...response.decision,
        rerank: { state: 'skipped', reason: 'decision_recall_selected' },
      };
      return response;
    },
  };
}
