/**
 * Decision recall (§5.1): the second stage. It judges the best hits of the ordinary order with one
 * adapter, independently and all or nothing under one deadline, then orders them by absolute
 * relevance (ties keep the ordinary order) and cuts to k. Every hit it returns carries
 * `relevance`; `low_confidence` flags a best relevance below the threshold and removes nothing.
 * When the adapter is missing, unavailable, failing or late, the caller gets exactly the ordinary
 * hits with `decision.state = "fell_back"` and the reason. Judging reads no store state and
 * records no access.
 */
import type { Config } from '../../config/schema.js';
import type { Logger } from '../../domain/log.js';
import type { Decision, RecallHit } from '../../domain/types.js';
import { nearbyTexts } from '../rerank/rerank-stage.js';
import { type DecisionStage, type RecallPlan, type RecallRun, roundMs } from '../stages.js';
import {
  type DecisionAdapter,
  DecisionError,
  type FallbackReason,
  type JudgedDocument,
} from './adapter.js';
import type { CandidateSource } from './sources.js';

type Settings = Config['recall']['decision'];

/** Text of a hit as the judge reads it: its title and body. */
function hitText(hit: RecallHit): string {
  return hit.title ? `${hit.title}\n${hit.body}` : hit.body;
}

/** The decision stage over one adapter (or none: `adapter_unregistered` when asked for). */
export class DecisionRecallStage implements DecisionStage {
  constructor(
    private readonly adapter: DecisionAdapter | null,
    private readonly settings: Settings,
    private readonly log: Logger,
    /** Candidate sources (§5.3); each adds at most its configured count. */
    private readonly sources: readonly CandidateSource[] = [],
  ) {}

  /** Whether a recall asks for the stage: configured on unless the caller says off, or asked on. */
  selects(plan: RecallPlan): boolean {
    if (plan.decision === 'off') return false;
    return plan.decision === 'on' || this.settings.adapter !== 'none';
  }

  selected(run: RecallRun): boolean {
    return this.selects(run.plan);
  }

  depth(run: RecallRun): number {
    return this.selected(run) ? Math.max(run.plan.k, this.settings.pool) : run.plan.k;
  }

  async decide(
    hits: RecallHit[],
    run: RecallRun,
  ): Promise<{ hits: RecallHit[]; decision: Decision }> {
    const k = run.plan.k;
    const ordinary = hits.slice(0, k);
    if (!this.selected(run)) return { hits: ordinary, decision: { state: 'off' } };
    const fallBack = (reason: FallbackReason, message: string) => {
      this.log.info('decision recall fell back', { reason, error: message });
      return { hits: ordinary, decision: this.decision({ state: 'fell_back', reason }) };
    };
    if (!this.adapter) return fallBack('adapter_unregistered', 'no decision adapter is configured');
    const unavailable = this.adapter.unavailable();
    if (unavailable) return fallBack(unavailable.reason, unavailable.message);
    const t = performance.now();
    const ranked = hits.slice(0, Math.max(k, this.settings.pool));
    const pool = [...ranked, ...(await this.gather(run, hits))];
    if (pool.length === 0) return { hits: [], decision: this.decision({ state: 'applied' }) };
    let scores: number[];
    try {
      // One deadline for the whole search: it counts from the recall's start.
      scores = await this.judgeWithin(
        run,
        pool,
        ranked.length,
        this.settings.deadline_ms - (performance.now() - (run.started ?? t)),
      );
    } catch (err) {
      if (err instanceof DecisionError) return fallBack(err.reason, err.message);
      return fallBack('adapter_error', err instanceof Error ? err.message : String(err));
    } finally {
      run.timings.decision = roundMs(performance.now() - t);
    }
    const judged = pool
      .map((hit, i) => ({ hit, i, relevance: scores[i]! }))
      .sort((a, b) => b.relevance - a.relevance || a.i - b.i)
      .slice(0, k)
      .map(({ hit, relevance }) => ({
        ...hit,
        relevance: Math.round(relevance * 10_000) / 10_000,
      }));
    const best = Math.max(...scores);
    return {
      hits: judged,
      decision: this.decision({
        state: 'applied',
        low_confidence: best < this.settings.min_relevance,
      }),
    };
  }

  /**
   * What the sources add (deduplicated, in source order), within a third of the deadline: a
   * source that fails or is late is skipped and logged; the search goes on.
   */
  private async gather(run: RecallRun, hits: readonly RecallHit[]): Promise<RecallHit[]> {
    const wanted = this.sources.filter((s) => this.settings.sources[s.name] > 0);
    if (wanted.length === 0) return [];
    const seen = new Set(hits.map((h) => h.id));
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), Math.max(1, this.settings.deadline_ms / 3));
    });
    const request = { query: run.plan.query, filter: run.plan.filter, pool: seen };
    const settled = await Promise.all(
      wanted.map(async (source) => {
        const limit = this.settings.sources[source.name];
        try {
          const found = await Promise.race([source.gather({ ...request, limit }), late]);
          if (found === 'late') throw new Error('no answer within a third of the deadline');
          return found.slice(0, limit);
        } catch (err) {
          this.log.info('a decision source was skipped', {
            source: source.name,
            error: String(err),
          });
          return [];
        }
      }),
    );
    clearTimeout(timer);
    const added: RecallHit[] = [];
    for (const hit of settled.flat())
      if (!seen.has(hit.id)) {
        seen.add(hit.id);
        added.push(hit);
      }
    return added;
  }

  private decision(base: Decision): Decision {
    return { ...base, adapter: this.adapter?.name ?? this.settings.adapter };
  }

  /** Every score, or a rejection: late, failed or malformed judgments never return partially. */
  private async judgeWithin(
    run: RecallRun,
    pool: RecallHit[],
    ranked: number,
    deadlineMs: number,
  ): Promise<number[]> {
    const adapter = this.adapter!;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          // Rejected before the abort, so the race reports the deadline, not the aborted requests.
          reject(
            new DecisionError(
              'deadline_expired',
              `no judgment within ${this.settings.deadline_ms} ms`,
            ),
          );
          controller.abort();
        },
        Math.max(0, deadlineMs),
      );
    });
    try {
      const documents = await this.documents(run, pool, ranked);
      const scores = await Promise.race([
        adapter.judge(run.plan.query, documents, controller.signal),
        deadline,
      ]);
      if (
        !Array.isArray(scores) ||
        scores.length !== pool.length ||
        scores.some((s) => typeof s !== 'number' || !(s >= 0 && s <= 1))
      )
        throw new DecisionError(
          'adapter_error',
          `the ${adapter.name} adapter returned malformed scores`,
        );
      return scores;
    } finally {
      clearTimeout(timer);
      controller.abort();
    }
  }

  /**
   * The pool as documents, each conversation turn with the turns around it as its context; the
   * first `ranked` (the ordinary order's) with their position in it.
   */
  private async documents(
    run: RecallRun,
    pool: RecallHit[],
    ranked: number,
  ): Promise<JudgedDocument[]> {
    const window = this.settings.context_window;
    const ids = pool.map((h) => h.id);
    const around =
      window >= 1 ? nearbyTexts(ids, await run.sessions.index(ids, window, false), window) : null;
    return pool.map((h, i) => ({
      id: h.id,
      text: hitText(h),
      context: around?.get(h.id),
      ...(i < ranked ? { position: i } : {}),
    }));
  }
}
