/**
 * The lifecycle module the service delegates to: maintenance runs, the review list and its
 * actions, reinforcement (`observe_memory_usage`), lifecycle metrics and the nightly schedule.
 */
import type { Config } from '../config/schema.js';
import { EngramError } from '../domain/errors.js';
import type { Logger } from '../domain/log.js';
import type { ItemRecord } from '../domain/records.js';
import type { Status } from '../domain/types.js';
import { parseWith } from '../domain/zod.js';
import {
  type DecayFacts,
  type LifecycleStore,
  requireLifecycle,
  type UseSource,
} from '../store/lifecycle-store.js';
import type { MutationPlan, Store } from '../store/store.js';
import type { ExportBackup } from './backup.js';
import { strengthAt, strengthWithoutUse } from './decay.js';
import {
  type MaintainInput,
  maintainInputSchema,
  type ObserveInput,
  observeInputSchema,
  type ReviewInput,
  reviewInputSchema,
} from './input.js';
import { createCrossDomainLinks, type LinkContext } from './links.js';
import { type MaintenanceReport, runMaintenance } from './maintain.js';
import { planUse } from './reinforce.js';
import { inReview, letGoPlan, type ReviewEntry, reviewList, reviewPriority } from './review.js';
import { type MaintenanceSchedule, startSchedule } from './scheduler.js';

/** What the lifecycle module is wired with by the service. */
export interface LifecycleDeps {
  config: Config;
  store: Store;
  log: Logger;
  now: () => number;
  /** Resolves an optional space name to a validated one (default: the configured space). */
  space: (space: string | undefined) => string;
  /** The service's one path for changes to existing items (tells write observers). */
  mutate: (
    space: string,
    ids: readonly string[],
    plan: MutationPlan,
    operation: string,
  ) => Promise<ItemRecord[]>;
  /** Tells write observers about items whose status a maintenance run changed. */
  notifyChanged: (space: string, items: readonly ItemRecord[], operation: string) => Promise<void>;
  /** Writes the store as a JSONL export file: the backup where the backend has no file to copy. */
  exportBackup: ExportBackup;
}

/** One id's outcome in an observe call. */
export type ObserveItemResult =
  | {
      id: string;
      ok: true;
      cross_domain: boolean;
      strength_before: number;
      strength: number;
      base: number;
      use_count: number;
      status: Status;
      /** Review priority after the use, or null when the item is out of the review window. */
      review_priority: number | null;
      /** Memories this call newly related this one to (`related`, from a cross-domain use). */
      linked: string[];
    }
  | { id: string; ok: false; error: { code: string; message: string } };

/** Result of observe_memory_usage: per id, the rest applied when some fail. */
export interface ObserveResult {
  applied: number;
  failed: number;
  /** Cross-domain links (`related` relations) this call created. */
  links_created: number;
  results: ObserveItemResult[];
}

/** The review list and the window it used. */
export interface ReviewList {
  space: string;
  window: { low: number; high: number };
  total: number;
  items: (ReviewEntry & { title: string | null; body: string })[];
}

/** Lifecycle metrics reported by `auto-recall stats` (§6). */
export interface LifecycleMetrics {
  /** Live items at or above the archive threshold that would be below it without their uses. */
  items_kept_by_reinforcement: number;
  reinforcement_events: number;
  reinforcement_by_source: Record<string, number>;
  cross_domain_detections: number;
  important_items: number;
  mean_strength_important: number | null;
}

const LIVE: readonly Status[] = ['active', 'candidate', 'challenged'];

/** The lease a real maintenance run holds; renewed every third of its time while it runs. */
const MAINTENANCE_LEASE = 'engram:maintenance';
const MAINTENANCE_LEASE_MS = 60_000;

/** Decay, review and reinforcement over one store. */
export class Lifecycle {
  constructor(private readonly deps: LifecycleDeps) {}

  private get store(): LifecycleStore {
    return requireLifecycle(this.deps.store);
  }

  private get config(): Config['lifecycle'] {
    return this.deps.config.lifecycle;
  }

  /** Runs (or previews, with dry_run) the decay job. */
  async maintain(
    input: MaintainInput = {},
    onProgress?: (done: number, total: number) => void,
  ): Promise<MaintenanceReport> {
    const req = parseWith(maintainInputSchema, input);
    const space = req.space == null ? null : this.deps.space(req.space);
    const path = this.deps.config.store.path;
    const run = (progress?: (done: number, total: number) => void) =>
      runMaintenance(
        {
          lifecycle: this.store,
          config: this.config,
          storePath: path === undefined || path === ':memory:' ? null : path,
          onlineBackup: this.deps.store.capabilities.onlineBackup,
          exportBackup: this.deps.exportBackup,
          now: this.deps.now,
        },
        { space, dryRun: req.dry_run, listLimit: req.list_limit, onProgress: progress },
      );
    const { report, changed } = req.dry_run
      ? await run(onProgress)
      : await this.exclusively(run, onProgress);
    await this.notify(changed);
    return report;
  }

  /**
   * Runs a real maintenance under the store's maintenance lease, so processes sharing the store
   * (and overlapping calls in one process) never run it twice at once, backup included. A lost
   * lease stops the run at its next progress report, which rolls the run back.
   */
  private async exclusively<T>(
    run: (onProgress: (done: number, total: number) => void) => Promise<T>,
    onProgress?: (done: number, total: number) => void,
  ): Promise<T> {
    const outcome = await this.deps.store.withLease(
      MAINTENANCE_LEASE,
      MAINTENANCE_LEASE_MS,
      (lease) =>
        run((done, total) => {
          lease.signal.throwIfAborted();
          onProgress?.(done, total);
        }),
    );
    if (outcome.acquired) return outcome.value;
    throw new EngramError(
      'CONFLICT',
      `maintenance is already running on this store (${outcome.holder}, lease until ${new Date(outcome.expires_at).toISOString()}); try again when it has finished`,
      { rule: 'one maintenance run at a time' },
    );
  }

  private async notify(changed: { space: string; id: string; operation: string }[]) {
    const groups = new Map<string, Map<string, string[]>>();
    for (const c of changed) {
      const bySpace = groups.get(c.operation) ?? new Map<string, string[]>();
      bySpace.set(c.space, [...(bySpace.get(c.space) ?? []), c.id]);
      groups.set(c.operation, bySpace);
    }
    for (const [operation, bySpace] of groups)
      for (const [space, ids] of bySpace)
        await this.deps.notifyChanged(space, await this.deps.store.getItems(space, ids), operation);
  }

  /** Items in the review window, by priority. */
  async review(input: ReviewInput = {}): Promise<ReviewList> {
    const req = parseWith(reviewInputSchema, input);
    const space = this.deps.space(req.space);
    const { entries, total } = reviewList(
      await this.store.decayFacts(space),
      this.deps.now(),
      this.config,
      req.limit ?? this.config.review.limit,
    );
    const texts = new Map(
      (
        await this.deps.store.getItems(
          space,
          entries.map((e) => e.id),
        )
      ).map((i) => [i.id, i]),
    );
    return {
      space,
      window: { low: this.config.review.window_low, high: this.config.review.window_high },
      total,
      items: entries.map((e) => ({
        ...e,
        title: texts.get(e.id)?.title ?? null,
        body: texts.get(e.id)?.body ?? '',
      })),
    };
  }

  /** Records uses of memories (reinforcement); unknown or forgotten ids fail alone. */
  async observe(input: ObserveInput, source: UseSource = 'explicit'): Promise<ObserveResult> {
    const req = parseWith(observeInputSchema, input);
    const space = this.deps.space(req.space);
    const ids = [...new Set(req.memory_ids)];
    const now = this.deps.now();
    const context = {
      tags: req.context_tags,
      area: req.context_area,
      source,
      conversation_id: req.conversation_id,
      actor: req.actor,
    };
    // The facts each use was planned from, as they are once the use is written.
    const after = new Map<string, DecayFacts>();
    const events = await this.store.recordUses(space, ids, (facts) =>
      ids.flatMap((id) => {
        const f = facts.get(id);
        if (!f) return [];
        const event = planUse(f, context, now, this.config);
        after.set(id, {
          ...f,
          base: event.base_after,
          use_count: f.use_count + 1,
          last_used_at: Math.max(f.last_used_at ?? 0, now),
        });
        return [event];
      }),
    );
    const byId = new Map(events.map((e) => [e.item_id, e]));
    const missing = ids.filter((id) => !byId.has(id));
    const existing = new Set(
      missing.length ? (await this.deps.store.getItems(space, missing)).map((i) => i.id) : [],
    );
    const results = ids.map((id): ObserveItemResult => {
      const e = byId.get(id);
      const f = after.get(id);
      if (!e || !f) return { id, ok: false, error: useError(id, existing.has(id)) };
      const strength = strengthAt(f, now, this.config);
      return {
        id,
        ok: true,
        cross_domain: e.cross_domain,
        strength_before: e.strength_before,
        strength: e.strength_after,
        base: e.base_after,
        use_count: f.use_count,
        status: f.status,
        review_priority: inReview(f, strength, this.config)
          ? reviewPriority(f, strength, this.config)
          : null,
        linked: [],
      };
    });
    const links_created = await this.link(space, results, context, now);
    return {
      applied: events.length,
      failed: results.length - events.length,
      links_created,
      results,
    };
  }

  /**
   * Relates each memory used across domains to the other memories of the call (§4, §6) when
   * `lifecycle.cross_domain_links` is on; fills their `linked` and returns how many were made. A
   * failure is logged: the uses are recorded either way.
   */
  private async link(
    space: string,
    results: ObserveItemResult[],
    context: LinkContext,
    now: number,
  ): Promise<number> {
    if (!this.config.cross_domain_links) return 0;
    const used = results.flatMap((r) => (r.ok ? [r] : []));
    try {
      const created = await createCrossDomainLinks(this.deps, space, used, context, now);
      let n = 0;
      for (const r of used) {
        r.linked = created.get(r.id) ?? [];
        n += r.linked.length;
      }
      return n;
    } catch (err) {
      this.deps.log.warn('cross-domain links not created; the uses are recorded', {
        error: String(err),
      });
      return 0;
    }
  }

  /** Let go of a memory from review: archived now with reason `let_go` (restore brings it back). */
  async letGo(
    id: string,
    options: { space?: string; actor?: string; reason?: string } = {},
  ): Promise<ItemRecord> {
    const space = this.deps.space(options.space);
    const plan = letGoPlan(id, {
      actor: options.actor ?? null,
      reason: options.reason ?? null,
      now: this.deps.now(),
    });
    const [item] = await this.deps.mutate(space, [id], plan, 'let_go');
    if (!item) throw new EngramError('NOT_FOUND', `memory ${id} not found`, { id });
    return item;
  }

  /** Lifecycle metrics of a space at the current time. */
  async metrics(space: string): Promise<LifecycleMetrics> {
    const now = this.deps.now();
    const facts = await this.store.decayFacts(space);
    const uses = await this.store.useCounts(space);
    const threshold = this.config.archive_threshold;
    let kept = 0;
    let important = 0;
    let importantSum = 0;
    for (const f of facts) {
      if (!LIVE.includes(f.status)) continue;
      const strength = strengthAt(f, now, this.config);
      if (
        f.use_count > 0 &&
        strength >= threshold &&
        strengthWithoutUse(f, now, this.config) < threshold
      )
        kept++;
      if (f.importance >= this.config.important_threshold) {
        important++;
        importantSum += strength;
      }
    }
    return {
      items_kept_by_reinforcement: kept,
      reinforcement_events: uses.events,
      reinforcement_by_source: uses.by_source,
      cross_domain_detections: uses.cross_domain,
      important_items: important,
      mean_strength_important: important
        ? Math.round((importantSum / important) * 1e4) / 1e4
        : null,
    };
  }

  /**
   * Starts the nightly maintenance schedule of a long-running process; `run` replaces running
   * maintenance here (the service queues it as a job).
   */
  startSchedule(
    run: () => Promise<unknown> = () => this.maintain({ space: null }),
  ): MaintenanceSchedule {
    return startSchedule({
      schedule: this.config.schedule,
      run,
      lastRunAt: async () => (await this.store.lastMaintenance(null))?.started_at,
      log: this.deps.log,
    });
  }
}

/** Why a use was not recorded: the id names no memory of the space, or a forgotten one. */
function useError(id: string, exists: boolean): { code: string; message: string } {
  return exists
    ? {
        code: 'CONFLICT',
        message: `memory ${id} is forgotten; restore it before recording its use`,
      }
    : { code: 'NOT_FOUND', message: `memory ${id} not found` };
}
