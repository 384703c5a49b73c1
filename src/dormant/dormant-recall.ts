/**
 * Dormant recall (§9), the shadow experiment: after each ordinary search has produced its
 * response, a separate evaluation looks for one relevant long-unused memory and writes only to
 * its own bounded review log and state. It never changes the response, never delays it beyond
 * scheduling one callback, and never changes access counts, last access, importance, strength or
 * ordinary logs. Review, inspect and feedback are explicit calls.
 */
import { liveDormantMode } from '../config/runtime-settings.js';
import type { Config } from '../config/schema.js';
import { EngramError, notFound, toEngramError } from '../domain/errors.js';
import type { ItemFilter } from '../domain/filter.js';
import { newId } from '../domain/ids.js';
import type { Logger } from '../domain/log.js';
import { toMemory } from '../domain/memory.js';
import type { RecallResponse } from '../domain/types.js';
import { parseWith } from '../domain/zod.js';
import type { QueryEmbedding } from '../embed/embedder.js';
import type { RelevanceScorer } from '../retrieval/rerank/relevance.js';
import type { RecallObserver, RecallPlan } from '../retrieval/stages.js';
import { DAY_MS, DORMANT_KINDS } from '../store/dormant/profile.js';
import type { DormantEventRecord, DormantStore } from '../store/dormant-store.js';
import type { Store } from '../store/store.js';
import { calibrate, type CalibrationReport } from './calibrate.js';
import { evaluateSearch } from './evaluate.js';
import {
  calibrateSchema,
  type DormantCalibrateInput,
  type DormantFeedbackInput,
  type DormantInspectInput,
  type DormantReviewInput,
  feedbackSchema,
  inspectSchema,
  reviewSchema,
} from './input.js';
import {
  type DormantFeedbackResult,
  type DormantInspection,
  type DormantReview,
  evidenceSummary,
  toEvent,
} from './views.js';

/** Evaluations waiting or running at most; searches beyond that are not evaluated (none). */
export const MAX_PENDING_EVALUATIONS = 4;
/** How long close() waits for evaluations still running. */
export const CLOSE_WAIT_MS = 5_000;

/** What dormant recall is wired with. */
export interface DormantRecallDeps {
  config: Config;
  store: Store;
  embedding: QueryEmbedding;
  /** The relevance scorer of the check; null when none can run here (evaluations fail open). */
  scorer: RelevanceScorer | null;
  log: Logger;
  now: () => number;
  space: (space: string | undefined) => string;
}

/**
 * Dormant recall: the scheduler of shadow evaluations, told of each ordinary recall as its
 * observer, and the review operations.
 */
export class DormantRecall implements RecallObserver {
  private tail: Promise<void> = Promise.resolve();
  private pending = 0;
  private closed = false;
  /** Searches not evaluated because too many evaluations were already waiting. */
  skipped = 0;
  /** Ordinary recalls running now; background work waits for none to be running. */
  private active = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly deps: DormantRecallDeps) {}

  private get settings(): Config['dormant_recall'] {
    return this.deps.config.dormant_recall;
  }

  /** The mode in a space: the configured one, or its runtime value (config/runtime-settings). */
  private async mode(space: string): Promise<Config['dormant_recall']['mode']> {
    const stored = await this.deps.store.lifecycle?.getSetting(space, 'dormant_recall');
    return liveDormantMode(this.deps.config, stored);
  }

  /** The store's dormant capability, or an error naming why there is none. */
  private store(): DormantStore {
    const dormant = this.deps.store.dormant;
    if (!dormant)
      throw new EngramError(
        'STORE_UNAVAILABLE',
        `the ${this.deps.store.capabilities.backend} store has no dormant-recall support`,
        { rule: 'dormant capability' },
      );
    return dormant;
  }

  /**
   * Schedules the evaluation of one finished search. Returns at once: the work starts on a later
   * turn of the event loop, after the caller has its response, one evaluation at a time.
   */
  schedule(search: { query: string; filter: ItemFilter; returned: readonly string[] }): void {
    const dormant = this.deps.store.dormant;
    // The mode is the space's (a runtime change may turn it on or off): runOne reads it.
    if (!dormant || this.closed) return;
    if (this.pending >= MAX_PENDING_EVALUATIONS) {
      this.skipped++;
      return;
    }
    this.pending++;
    const request = { ...search, returned: [...search.returned], now: this.deps.now() };
    this.tail = this.tail
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => this.runOne(dormant, request))
      .finally(() => this.pending--);
  }

  /** An ordinary recall runs: evaluations pause at their next page until it ends. */
  onRecallStart(): void {
    this.active++;
  }

  /**
   * An ordinary recall ended. Evaluations waiting for it go on; when it answered, its search is
   * scheduled for evaluation (§9), which starts after the response exists and never changes or
   * awaits it.
   */
  onRecallEnd(plan: RecallPlan, response: RecallResponse | null): void {
    this.active = Math.max(0, this.active - 1);
    if (this.active === 0) for (const wake of this.waiters.splice(0)) setImmediate(wake);
    if (response)
      this.schedule({
        query: plan.query,
        filter: plan.filter,
        returned: response.hits.map((h) => h.id),
      });
  }

  /**
   * Where an evaluation yields: one turn of the event loop, and then only while no ordinary
   * recall runs. A recall that starts during a page waits for that page at most (§9.5 bound).
   */
  private pause(): Promise<void> {
    return new Promise<void>((resolve) => {
      if (this.active === 0 || this.closed) setImmediate(resolve);
      else this.waiters.push(resolve);
    });
  }

  private async runOne(
    dormant: DormantStore,
    request: Parameters<typeof evaluateSearch>[1],
  ): Promise<void> {
    if (this.closed) return;
    try {
      if ((await this.mode(request.filter.space)) === 'off') return;
      const event = await evaluateSearch(
        { ...this.deps, dormant, newId: (at) => newId(at), pause: () => this.pause() },
        request,
      );
      if (event === null) this.deps.log.info('dormant evaluation skipped', { error_type: 'busy' });
    } catch (err) {
      // A failed shadow write never reaches ordinary recall; report only the error type.
      this.deps.log.warn('dormant evaluation failed', { error_type: toEngramError(err).code });
    }
  }

  /** Resolves when every scheduled evaluation has finished. */
  async idle(): Promise<void> {
    let seen: Promise<void> | undefined;
    while (seen !== this.tail) {
      seen = this.tail;
      await seen;
    }
  }

  /** Stops scheduling and waits (bounded) for evaluations still running. */
  async close(waitMs = CLOSE_WAIT_MS): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, waitMs);
      timer.unref();
    });
    await Promise.race([this.idle(), limit]);
    clearTimeout(timer);
    this.closed = true;
    // An evaluation still parked behind a recall resumes and ends (its store calls then fail).
    for (const wake of this.waiters.splice(0)) wake();
  }

  private retention(now: number) {
    return {
      maxEvents: this.settings.log_max_events,
      before: now - this.settings.log_retention_days * DAY_MS,
    };
  }

  /** The newest review-log events of a space: metadata only (§9.4). */
  async review(input: DormantReviewInput = {}): Promise<DormantReview> {
    const req = parseWith(reviewSchema, input);
    const space = this.deps.space(req.space);
    const events = await this.store().review(
      space,
      req.limit,
      this.retention(this.deps.now()),
      DORMANT_KINDS,
    );
    return { space, mode: await this.mode(space), events: events.map(toEvent) };
  }

  private async event(space: string, id: string): Promise<DormantEventRecord> {
    const event = await this.store().event(space, id);
    if (!event) throw notFound('dormant event', id);
    return event;
  }

  /**
   * The event's memory as it is now, when still eligible; marks it shown and pauses it
   * (`shown_at`, cooldown). Describes the evidence without claiming anything is resolved.
   */
  async inspect(input: DormantInspectInput): Promise<DormantInspection> {
    const req = parseWith(inspectSchema, input);
    const space = this.deps.space(req.space);
    await this.store().prune(space, this.retention(this.deps.now()), DORMANT_KINDS);
    let event = await this.event(space, req.event_id);
    const [item] = event.candidate_id
      ? await this.deps.store.getItems(space, [event.candidate_id])
      : [];
    const reason = !event.candidate_id
      ? 'no_candidate'
      : !item
        ? 'not_found'
        : item.status !== 'active'
          ? `status:${item.status}`
          : !DORMANT_KINDS.includes(item.kind)
            ? `kind:${item.kind}`
            : null;
    if (reason === null) {
      const now = this.deps.now();
      const cooldown = now + this.settings.cooldown_days * DAY_MS;
      event =
        (await this.store().markShown(space, event.id, now, cooldown, DORMANT_KINDS)) ?? event;
    }
    return {
      event: toEvent(event),
      memory: reason === null && item ? toMemory(item) : null,
      eligible: reason === null,
      reason,
      changed_since_selection:
        item !== undefined &&
        event.candidate_version !== null &&
        item.version !== event.candidate_version,
      evidence: {
        literal_overlap: event.overlap_terms === null ? null : event.overlap_terms > 0,
        summary: evidenceSummary(event, this.settings),
      },
    };
  }

  /**
   * Feedback on one event: one category per event (the same again is a no-op, another is a
   * CONFLICT). Any feedback pauses the memory for `feedback_cooldown_days`; *useful* also restarts
   * its dormancy. It is not suppression: after the pause the memory may be considered again.
   */
  async feedback(input: DormantFeedbackInput): Promise<DormantFeedbackResult> {
    const req = parseWith(feedbackSchema, input);
    const space = this.deps.space(req.space);
    const now = this.deps.now();
    await this.store().prune(space, this.retention(now), DORMANT_KINDS);
    const result = await this.store().feedback(
      space,
      req.event_id,
      req.category,
      now,
      now + this.settings.feedback_cooldown_days * DAY_MS,
      DORMANT_KINDS,
    );
    if (!result) throw notFound('dormant event', req.event_id);
    const state = await this.store().state(space, result.event.candidate_id!);
    return {
      event: toEvent(result.event),
      changed: result.changed,
      cooldown_until:
        state?.cooldown_until == null ? null : new Date(state.cooldown_until).toISOString(),
    };
  }

  /** Score distributions on the current store, to set the thresholds for the configured models. */
  async calibrate(input: DormantCalibrateInput = {}): Promise<CalibrationReport> {
    const req = parseWith(calibrateSchema, input);
    return calibrate(
      {
        config: this.deps.config,
        store: this.deps.store,
        dormant: this.store(),
        embedding: this.deps.embedding,
        scorer: this.deps.scorer,
      },
      { space: this.deps.space(req.space), queries: req.queries, sample: req.sample },
    );
  }
}
