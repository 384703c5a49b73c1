/**
 * The MemoryService: the one API every interface (library, CLI, MCP, HTTP) calls. It validates
 * input, applies the domain rules (plans), embeds within budget and runs recall; persistence is the
 * Store's, embedding the queue's.
 */
import type { HistoryMessage, RecallAnalysis } from '../autorecall/analyze.js';
import { AutoRecall, type AutoRecallResult, type AutoRecallStats } from '../autorecall/engine.js';
import type { AnalyzeInput, ProcessMessageInput } from '../autorecall/input.js';
import type {
  AutoRecallSettings,
  ConfigureAutoRecallInput,
} from '../config/autorecall-settings.js';
import type { Config } from '../config/schema.js';
import { EngramError, notFound, toEngramError } from '../domain/errors.js';
import type { EntityInfo, GraphStats } from '../domain/graph.js';
import { newId } from '../domain/ids.js';
import {
  type InputSchemas,
  inputSchemas,
  type ListRequest,
  type RecallRequest,
  type RememberInput,
  type ReviseInput,
  spaceSchema,
} from '../domain/input.js';
import type { Logger } from '../domain/log.js';
import { toMemory, toRelation, toStatusEvent, toVersion } from '../domain/memory.js';
import type { WriteEvent, WriteObserver } from '../domain/observers.js';
import type { ItemExport, ItemRecord, ModelRecord, RelationRecord } from '../domain/records.js';
import { bodyHash, embeddingText } from '../domain/text.js';
import type { History, Memory, RecallResponse, Relation, RelationType } from '../domain/types.js';
import { parseWith } from '../domain/zod.js';
import type { CalibrationReport } from '../dormant/calibrate.js';
import { DormantRecall } from '../dormant/dormant-recall.js';
import type {
  DormantCalibrateInput,
  DormantFeedbackInput,
  DormantInspectInput,
  DormantReviewInput,
} from '../dormant/input.js';
import type { DormantFeedbackResult, DormantInspection, DormantReview } from '../dormant/views.js';
import type { EmbedderState, PrepareOptions } from '../embed/embedder.js';
import { InlineExtractor, WorkerExtractor } from '../graph/extractor.js';
import {
  type EntitiesRequest,
  GraphApi,
  type HubsRequest,
  type NeighborsRequest,
  type NeighborsResult,
  type RebuildRequest,
} from '../graph/graph-api.js';
import type { HubReport } from '../graph/hubs.js';
import { GraphMaintainer, type RebuildProgress, type RebuildReport } from '../graph/maintainer.js';
import type { MaintainInput, ObserveInput, ReviewInput } from '../lifecycle/input.js';
import { Lifecycle, type ObserveResult, type ReviewList } from '../lifecycle/lifecycle.js';
import type { MaintenanceReport } from '../lifecycle/maintain.js';
import type { ReviewAction } from '../lifecycle/review.js';
import type { MaintenanceSchedule } from '../lifecycle/scheduler.js';
import * as plans from '../memories/plans.js';
import type { VectorSupply } from '../models/supply.js';
import type { Channel } from '../retrieval/channels/channel.js';
import { GraphChannel, graphLimits } from '../retrieval/channels/graph.js';
import { KeywordChannel } from '../retrieval/channels/keyword.js';
import { TimeChannel } from '../retrieval/channels/time.js';
import { VectorChannel } from '../retrieval/channels/vector.js';
import { runRecall } from '../retrieval/pipeline.js';
import type { RelevanceScorer } from '../retrieval/rerank/relevance.js';
import type {
  ImportOutcome,
  ItemDraft,
  ItemFilter,
  MutationPlan,
  Store,
  StoreStats,
} from '../store/store.js';

/** Options common to changes: which space, who, why. */
export interface ChangeOptions {
  space?: string;
  actor?: string;
  reason?: string;
}

/** Result of remember: the item, and whether it was created or an exact duplicate was found. */
export interface RememberResult {
  memory: Memory;
  created: boolean;
}

/** Per-item result of a batch write: a bad item fails alone. */
export type BatchResult =
  | { index: number; ok: true; memory: Memory; created: boolean }
  | { index: number; ok: false; error: { code: string; message: string; field?: string } };

/** What `status` reports. */
export interface ServiceStatus {
  space: string;
  store: StoreStats & { backend: string };
  embedder: (EmbedderState & { queue: unknown }) | { available: false; reason: string };
  published_model: ModelRecord | null;
}

/** What `health` reports: whether the store answers, and the embedder's state. */
export interface ServiceHealth {
  store: { ok: boolean; backend: string; latency_ms?: number; reason?: string };
  embedder: ServiceStatus['embedder'];
}

/** What the service is built from (wired by createEngram). */
export interface ServiceDeps {
  config: Config;
  store: Store;
  vectors: VectorSupply;
  log: Logger;
  now?: () => number;
  /** The relevance scorer (§8) for reranking; none when no word vectors are available. */
  relevance?: RelevanceScorer | null;
  /** The scorer of the dormant relevance check (§9.2); default: `relevance`. */
  dormantRelevance?: RelevanceScorer | null;
}

/** The memory service. */
export class MemoryService {
  readonly config: Config;
  private readonly store: Store;
  private readonly vectors: VectorSupply;
  private readonly log: Logger;
  private readonly now: () => number;
  private readonly schemas: InputSchemas;
  private readonly channels: Channel[];
  private readonly relevance: RelevanceScorer | null;
  private readonly observers: WriteObserver[] = [];

  constructor(deps: ServiceDeps) {
    this.config = deps.config;
    this.store = deps.store;
    this.vectors = deps.vectors;
    this.log = deps.log;
    this.now = deps.now ?? Date.now;
    this.schemas = inputSchemas(deps.config);
    this.relevance = deps.relevance ?? null;
    this.channels = [
      new KeywordChannel(this.store),
      new VectorChannel(this.store, this.vectors),
      new TimeChannel(this.store, this.config.recall.time, this.now),
    ];
    this.graphApi = this.wireGraph();
    this.dormant = this.wireDormant(
      deps.dormantRelevance === undefined ? this.relevance : deps.dormantRelevance,
    );
  }

  /** Registers a module that follows committed writes (graph, lifecycle). */
  addWriteObserver(observer: WriteObserver): void {
    this.observers.push(observer);
  }

  /** Tells observers about a committed write; their failures are logged, never thrown. */
  private async notify(event: WriteEvent): Promise<void> {
    for (const observer of this.observers) {
      try {
        await observer.onWrite(event);
      } catch (err) {
        this.log.warn(
          `${observer.name} could not follow a ${event.type} write; its rebuild repairs it`,
          {
            error: String(err),
          },
        );
      }
    }
  }

  private space(space: string | undefined): string {
    return space === undefined ? this.config.space : parseWith(spaceSchema, space, 'space');
  }

  private meta(options: ChangeOptions = {}): plans.ChangeMeta {
    return { actor: options.actor ?? null, reason: options.reason ?? null, now: this.now() };
  }

  /** Builds an item record from validated input (no I/O). */
  private draft(input: ReturnType<InputSchemas['remember']['parse']>, now: number): ItemDraft {
    const created = input.created_at ? Date.parse(input.created_at) : now;
    const item: ItemRecord = {
      id: newId(created),
      space: this.space(input.space),
      area: input.area,
      kind: input.kind,
      title: input.title ?? null,
      body: input.body,
      body_hash: bodyHash(input.body),
      tags: [...new Set(input.tags)],
      importance: input.importance,
      pinned: input.pinned,
      status: input.status,
      strength: 1,
      source: input.source ?? null,
      version: 1,
      created_at: created,
      updated_at: created,
      access_count: 0,
      last_accessed_at: null,
      use_count: 0,
      last_used_at: null,
      prior: null,
      vector_state: 'pending',
    };
    return { item, actor: input.actor ?? null, reason: input.reason ?? null };
  }

  /** Stores one memory; an exact duplicate returns the existing item (§2). */
  async remember(input: RememberInput): Promise<RememberResult> {
    const [result] = await this.rememberMany([input], { strict: true });
    if (!result!.ok) throw new EngramError('INTERNAL', 'unreachable');
    return { memory: result!.memory, created: result!.created };
  }

  /**
   * Stores many memories in one transaction; each input is validated on its own and a bad one
   * fails alone. With `strict`, the first invalid input throws instead.
   */
  async rememberMany(
    inputs: readonly unknown[],
    options: { strict?: boolean; priority?: 'write' | 'background' } = {},
  ): Promise<BatchResult[]> {
    if (inputs.length > this.config.limits.max_batch_items) {
      throw new EngramError(
        'PAYLOAD_TOO_LARGE',
        `items: at most ${this.config.limits.max_batch_items} per batch`,
        { field: 'items', rule: `at most ${this.config.limits.max_batch_items}` },
      );
    }
    const now = this.now();
    const results: BatchResult[] = [];
    const drafts: { index: number; draft: ItemDraft }[] = [];
    inputs.forEach((raw, index) => {
      try {
        drafts.push({ index, draft: this.draft(parseWith(this.schemas.remember, raw), now) });
      } catch (err) {
        if (options.strict || !(err instanceof EngramError)) throw err;
        results.push({
          index,
          ok: false,
          error: { code: err.code, message: err.message, field: err.details.field },
        });
      }
    });
    // Entity extraction starts now, beside the embedding, when the graph has a worker thread.
    const releaseGraph = this.graphMaintainer?.prefetch(drafts.map((d) => d.draft.item));
    await this.attachVectors(
      drafts.map((d) => d.draft),
      options.priority ?? 'write',
    );
    const outcomes =
      drafts.length > 0 ? await this.store.createItems(drafts.map((d) => d.draft)) : [];
    outcomes.forEach((o, i) =>
      results.push({
        index: drafts[i]!.index,
        ok: true,
        memory: toMemory(o.item),
        created: o.created,
      }),
    );
    const created = outcomes.filter((o) => o.created).map((o) => o.item);
    for (const [space, items] of groupBySpace(created))
      await this.notify({ type: 'created', space, items });
    releaseGraph?.();
    if (outcomes.some((o) => o.created && o.item.vector_state === 'pending'))
      this.vectors.schedule();
    return results.sort((a, b) => a.index - b.index);
  }

  private async attachVectors(
    drafts: ItemDraft[],
    priority: 'write' | 'background',
  ): Promise<void> {
    if (drafts.length === 0) return;
    const vectors = await this.vectors.embedForWrite(
      drafts.map((d) => embeddingText(d.item)),
      priority,
    );
    if (!vectors) return;
    drafts.forEach(
      (d, i) => (d.vector = { model: vectors.model, vector: vectors.vectors[i] ?? null }),
    );
  }

  /** One memory by id. */
  async get(id: string, options: { space?: string } = {}): Promise<Memory> {
    const [item] = await this.store.getItems(this.space(options.space), [id]);
    if (!item) throw notFound('memory', id);
    return toMemory(item);
  }

  /** Memories matching filters, newest first, with a cursor for the next page. */
  async list(request: ListRequest = {}): Promise<{ items: Memory[]; next_cursor: string | null }> {
    const req = parseWith(this.schemas.list, request);
    const page = await this.store.listItems({
      filter: this.filter(req, true),
      limit: req.limit,
      order: req.order,
      cursor: req.cursor,
    });
    return { items: page.items.map(toMemory), next_cursor: page.next_cursor };
  }

  private filter(req: ReturnType<InputSchemas['list']['parse']>, listing: boolean): ItemFilter {
    const ms = (s: string | undefined) => (s === undefined ? undefined : Date.parse(s));
    return {
      space: this.space(req.space),
      statuses:
        req.statuses ??
        (listing ? ['candidate', 'active', 'challenged'] : this.config.recall.default_statuses),
      kinds: req.kinds,
      areas: req.areas,
      tags: req.tags,
      pinned: req.pinned,
      created_after: ms(req.created_after),
      created_before: ms(req.created_before),
      updated_after: ms(req.updated_after),
      updated_before: ms(req.updated_before),
    };
  }

  private async mutateOne(
    id: string,
    options: ChangeOptions,
    plan: MutationPlan,
    operation: string,
  ): Promise<Memory> {
    const [item] = await this.mutate(this.space(options.space), [id], plan, operation);
    if (!item) throw notFound('memory', id);
    return toMemory(item);
  }

  /** Runs a mutation plan and tells observers: the one path for changes to existing items. */
  private async mutate(
    space: string,
    ids: readonly string[],
    plan: MutationPlan,
    operation: string,
  ): Promise<ItemRecord[]> {
    let touched = false;
    const items = await this.store.mutate(space, ids, (ctx) => {
      const mutation = plan(ctx);
      touched =
        mutation.changes.length +
          (mutation.addRelations?.length ?? 0) +
          (mutation.invalidateRelations?.length ?? 0) >
        0;
      return mutation;
    });
    if (touched) await this.notify({ type: 'changed', space, items, operation });
    return items;
  }

  /** Imports full exported records (ids kept); ids that exist already are left alone. */
  async importRecords(
    items: readonly ItemExport[],
    relations: readonly RelationRecord[],
  ): Promise<{ items: ImportOutcome[]; relations: ImportOutcome[] }> {
    const itemOutcomes = items.length ? await this.store.importItems(items) : [];
    const relationOutcomes = relations.length ? await this.store.importRelations(relations) : [];
    const imported = items.filter((_, i) => itemOutcomes[i] === 'imported').map((r) => r.item);
    for (const [space, group] of groupBySpace(imported))
      await this.notify({ type: 'created', space, items: group });
    const newRelations = relations.filter((_, i) => relationOutcomes[i] === 'imported');
    for (const [space, group] of groupBySpace(newRelations)) {
      await this.notify({
        type: 'relations',
        space,
        ids: group.flatMap((r) => [r.from_id, r.to_id]),
        operation: 'import',
      });
    }
    if (imported.some((i) => i.vector_state === 'pending')) this.vectors.schedule();
    return { items: itemOutcomes, relations: relationOutcomes };
  }

  /** A new version of body, title and/or tags. */
  async revise(id: string, input: ReviseInput): Promise<Memory> {
    const rev = parseWith(this.schemas.revise, input);
    const space = this.space(rev.space);
    const [current] = await this.store.getItems(space, [id]);
    if (!current) throw notFound('memory', id);
    const next = {
      title: rev.title !== undefined ? rev.title : current.title,
      body: rev.body ?? current.body,
      tags: rev.tags ? [...new Set(rev.tags)] : current.tags,
    };
    const text = embeddingText(next);
    const embedded = await this.vectors.embedForWrite([text], 'write');
    const vector = embedded
      ? { forText: text, write: { model: embedded.model, vector: embedded.vectors[0] ?? null } }
      : undefined;
    const memory = await this.mutateOne(
      id,
      rev,
      // Only the fields the caller changed: the plan takes the rest from the row it locked, so a
      // concurrent change to another field (a tag added meanwhile) is not overwritten.
      plans.revisePlan(
        id,
        {
          title: rev.title,
          body: rev.body,
          tags: rev.tags ? next.tags : undefined,
          vector,
        },
        embeddingText,
        this.meta(rev),
      ),
      'revise',
    );
    if (memory.vector === 'pending') this.vectors.schedule();
    return memory;
  }

  /** Restores an old version's content as a new version (history is never rewritten). */
  async restoreVersion(id: string, version: number, options: ChangeOptions = {}): Promise<Memory> {
    const versions = await this.store.versions(this.space(options.space), id);
    const old = versions.find((v) => v.version === version);
    if (!old)
      throw new EngramError('NOT_FOUND', `memory ${id} has no version ${version}`, {
        id,
        field: 'version',
        rule: 'existing version',
      });
    return this.revise(id, {
      space: options.space,
      actor: options.actor,
      reason: options.reason ?? `restore version ${version}`,
      body: old.body,
      title: old.title,
      tags: old.tags,
    });
  }

  /** Hides a memory from recall; reversible with restore. */
  async forget(id: string, options: ChangeOptions = {}): Promise<Memory> {
    return this.mutateOne(id, options, plans.forgetPlan(id, this.meta(options)), 'forget');
  }

  /** Brings back a forgotten, archived, superseded or merged memory. */
  async restore(id: string, options: ChangeOptions = {}): Promise<Memory> {
    return this.mutateOne(id, options, plans.restorePlan(id, this.meta(options)), 'restore');
  }

  /** Irreversibly deletes a memory's text, versions, vectors and index entries (audited). */
  async purge(id: string, options: ChangeOptions = {}): Promise<{ id: string; purged: true }> {
    const meta = this.meta(options);
    const space = this.space(options.space);
    await this.store.purge(space, id, { actor: meta.actor, reason: meta.reason, at: meta.now });
    await this.notify({ type: 'purged', space, id });
    return { id, purged: true };
  }

  /** Pins (never decays, never merged away or archived automatically). */
  async pin(id: string, options: ChangeOptions = {}): Promise<Memory> {
    return this.mutateOne(id, options, plans.pinPlan(id, true, this.meta(options)), 'pin');
  }

  /** Unpins. */
  async unpin(id: string, options: ChangeOptions = {}): Promise<Memory> {
    return this.mutateOne(id, options, plans.pinPlan(id, false, this.meta(options)), 'unpin');
  }

  /** Moves to another area. */
  async move(id: string, area: string, options: ChangeOptions = {}): Promise<Memory> {
    return this.mutateOne(
      id,
      options,
      plans.movePlan(id, parseWith(this.schemas.move, area, 'area'), this.meta(options)),
      'move',
    );
  }

  /** Adds and removes tags. */
  async tag(
    id: string,
    change: { add?: string[]; remove?: string[] },
    options: ChangeOptions = {},
  ): Promise<Memory> {
    const parsed = parseWith(this.schemas.tagChange, change);
    return this.mutateOne(
      id,
      options,
      plans.tagPlan(id, parsed.add, parsed.remove, this.config.limits.max_tags, this.meta(options)),
      'tag',
    );
  }

  /** Sets importance in 0..1. */
  async setImportance(
    id: string,
    importance: number,
    options: ChangeOptions = {},
  ): Promise<Memory> {
    return this.mutateOne(
      id,
      options,
      plans.importancePlan(
        id,
        parseWith(this.schemas.importance, importance, 'importance'),
        this.meta(options),
      ),
      'importance',
    );
  }

  /** NEW supersedes OLD: OLD leaves recall as `superseded`, with a relation recording why. */
  async supersede(
    oldId: string,
    newId_: string,
    options: ChangeOptions = {},
  ): Promise<{ old: Memory; new: Memory }> {
    const space = this.space(options.space);
    const items = await this.mutate(
      space,
      [oldId, newId_],
      plans.supersedePlan(oldId, newId_, this.meta(options), space),
      'supersede',
    );
    const byId = new Map(items.map((i) => [i.id, toMemory(i)]));
    return { old: byId.get(oldId)!, new: byId.get(newId_)! };
  }

  /** Relates A -> B (`related` or `derived_from`). */
  async relate(
    from: string,
    to: string,
    options: ChangeOptions & { type?: RelationType } = {},
  ): Promise<Relation[]> {
    const parsed = parseWith(this.schemas.relate, options);
    const space = this.space(parsed.space);
    await this.mutate(
      space,
      [from, to],
      plans.relatePlan(from, to, parsed.type, this.meta(parsed), space),
      'relate',
    );
    return (await this.store.relations(space, from))
      .filter((r) => r.to_id === to && r.invalidated_at === null)
      .map(toRelation);
  }

  /** Invalidates live relations A -> B (kept in history, never deleted). */
  async unrelate(
    from: string,
    to: string,
    options: ChangeOptions & { type?: RelationType } = {},
  ): Promise<void> {
    await this.mutate(
      this.space(options.space),
      [from, to],
      plans.unrelatePlan(from, to, options.type, this.meta(options)),
      'unrelate',
    );
  }

  /** Versions, status events and relations of one memory. */
  async history(id: string, options: { space?: string } = {}): Promise<History> {
    const space = this.space(options.space);
    const item = await this.get(id, { space });
    const [versions, events, relations] = await Promise.all([
      this.store.versions(space, id),
      this.store.statusEvents(space, id),
      this.store.relations(space, id),
    ]);
    return {
      item,
      versions: versions.map(toVersion),
      status_events: events.map(toStatusEvent),
      relations: relations.map(toRelation),
    };
  }

  /** Relations from and to one memory, live and invalidated (NOT_FOUND when it does not exist). */
  async relations(id: string, options: { space?: string } = {}): Promise<Relation[]> {
    const space = this.space(options.space);
    await this.get(id, { space });
    return (await this.store.relations(space, id)).map(toRelation);
  }

  /** Hybrid recall (§3); returns the §3.5 envelope. */
  async recall(request: RecallRequest): Promise<RecallResponse> {
    const req = parseWith(this.schemas.recall, request);
    const { query, k, weights, rerank, ...filters } = req;
    const config = this.config.recall;
    const filter = this.filter({ ...filters, limit: 1, order: 'updated' }, false);
    this.dormant.enterRecall();
    const response = await runRecall(
      {
        store: this.store,
        config: this.config,
        channels: this.channels,
        now: this.now,
        onAccessError: (err) => this.log.warn('access accounting skipped', { error: String(err) }),
        scorer: this.relevance,
        onStageError: (stage, err) =>
          this.log.warn(`recall ${stage} skipped`, { error: String(err) }),
      },
      {
        query,
        k: k ?? config.k,
        // On by default only where a scorer exists; an explicit request without one is reported.
        rerank: rerank ?? (config.rerank.enabled && this.relevance !== null),
        filter,
        weights: {
          keyword: weights?.keyword ?? config.weights.keyword,
          vector: weights?.vector ?? config.weights.vector,
          graph: weights?.graph ?? config.weights.graph,
          time: weights?.time ?? config.weights.time,
        },
      },
    ).finally(() => this.dormant.leaveRecall());
    // Shadow evaluation (§9) starts after the response exists and never changes or awaits it.
    this.dormant.schedule({ query, filter, returned: response.hits.map((h) => h.id) });
    return response;
  }

  /** Store, embedder and model state. */
  async status(options: { space?: string } = {}): Promise<ServiceStatus> {
    const space = this.space(options.space);
    const stats = await this.store.stats(space);
    return {
      space,
      store: { ...stats, backend: this.store.capabilities.backend },
      embedder: this.vectors.state(),
      published_model: (await this.vectors.publishedModel()) ?? null,
    };
  }

  /** Cheap liveness of the store (one small read) and the embedder, for health checks. */
  async health(): Promise<ServiceHealth> {
    const backend = this.store.capabilities.backend;
    const started = performance.now();
    let store: ServiceHealth['store'];
    try {
      await this.store.publishedModel();
      const latency_ms = Math.round((performance.now() - started) * 100) / 100;
      store = { ok: true, backend, latency_ms };
    } catch (err) {
      store = { ok: false, backend, reason: toEngramError(err).code };
    }
    return { store, embedder: this.vectors.state() };
  }

  /** Builds or loads the embedder's model cache (`engram models prepare`). */
  async prepareModels(options: PrepareOptions = {}): Promise<void> {
    return this.vectors.prepare(options);
  }

  /** Embeds items waiting for a vector; returns how many were filled. */
  async backfill(
    options: { limit?: number; onProgress?: (done: number) => void } = {},
  ): Promise<number> {
    return this.vectors.backfill(options);
  }

  // ---- lifecycle and auto-recall (issue 8): thin delegates to src/lifecycle and src/autorecall ----
  private lifecycleModules?: { lifecycle: Lifecycle; autoRecall: AutoRecall };

  /** The lifecycle and auto-recall modules, built on first use. */
  private lifecycleParts(): { lifecycle: Lifecycle; autoRecall: AutoRecall } {
    if (!this.lifecycleModules) {
      const space = (s: string | undefined) => this.space(s);
      const lifecycle = new Lifecycle({
        config: this.config,
        store: this.store,
        log: this.log,
        now: this.now,
        space,
        mutate: (s, ids, plan, operation) => this.mutate(s, ids, plan, operation),
        notifyChanged: (s, items, operation) =>
          this.notify({ type: 'changed', space: s, items, operation }),
      });
      const autoRecall = new AutoRecall({
        config: this.config,
        store: this.store,
        vectors: this.vectors,
        lifecycle,
        now: this.now,
        space,
      });
      this.lifecycleModules = { lifecycle, autoRecall };
    }
    return this.lifecycleModules;
  }

  /** Runs the decay job (§7.2, §7.3); with `dry_run` a preview that writes nothing. */
  maintain(
    options: MaintainInput = {},
    onProgress?: (done: number, total: number) => void,
  ): Promise<MaintenanceReport> {
    return this.lifecycleParts().lifecycle.maintain(options, onProgress);
  }

  /** Memories in the review window, highest priority first (§7.4). */
  review(options: ReviewInput = {}): Promise<ReviewList> {
    return this.lifecycleParts().lifecycle.review(options);
  }

  /** A review action: reinforce (a use), revise (a new version) or let go (archived, restorable). */
  async reviewAction(
    id: string,
    action: ReviewAction,
    options: ChangeOptions & { body?: string; title?: string } = {},
  ): Promise<Memory> {
    const { lifecycle } = this.lifecycleParts();
    if (action === 'revise')
      return this.revise(id, {
        space: options.space,
        actor: options.actor,
        reason: options.reason ?? 'review',
        body: options.body,
        title: options.title,
      });
    if (action === 'let_go') return toMemory(await lifecycle.letGo(id, options));
    const [result] = (
      await lifecycle.observe(
        { space: options.space, memory_ids: [id], actor: options.actor },
        'review',
      )
    ).results;
    if (result && !result.ok)
      throw new EngramError(
        result.error.code === 'NOT_FOUND' ? 'NOT_FOUND' : 'CONFLICT',
        result.error.message,
        { id },
      );
    return this.get(id, { space: options.space });
  }

  /**
   * Records that memories were used (§6 step 4): last_used_at, use_count and a bounded strength
   * boost (larger across domains), as use events. Unknown ids fail alone; the rest are applied.
   */
  observeMemoryUsage(
    input: ObserveInput | readonly string[],
    contextTags: readonly string[] = [],
  ): Promise<ObserveResult> {
    const req = isStringList(input)
      ? { memory_ids: [...input], context_tags: [...contextTags] }
      : input;
    return this.lifecycleParts().lifecycle.observe(req);
  }

  /** Analyses a message for auto-recall: topics, entities, key phrases, trigger decision (§6). */
  analyzeForRecall(
    input: AnalyzeInput | string,
    history?: HistoryMessage[],
  ): Promise<RecallAnalysis> {
    const req = typeof input === 'string' ? { message: input, history } : input;
    return this.lifecycleParts().autoRecall.analyze(req);
  }

  /** Auto-recall for one conversation message (§6): analyse, search, surface by mode, reinforce. */
  processMessage(
    input: ProcessMessageInput | string,
    history?: HistoryMessage[],
    conversationId?: string,
  ): Promise<AutoRecallResult> {
    const req =
      typeof input === 'string'
        ? { message: input, history, conversation_id: conversationId }
        : input;
    return this.lifecycleParts().autoRecall.process(req);
  }

  /** Changes auto-recall settings at run time; persisted in the store per space. */
  configureAutoRecall(input: ConfigureAutoRecallInput): Promise<AutoRecallSettings> {
    return this.lifecycleParts().autoRecall.configure(input);
  }

  /** The effective auto-recall settings of a space. */
  autoRecallSettings(options: { space?: string } = {}): Promise<AutoRecallSettings> {
    return this.lifecycleParts().autoRecall.settings(options.space);
  }

  /** Auto-recall and lifecycle metrics (§6): rescued items, reinforcements, cross-domain uses. */
  autoRecallStats(options: { space?: string } = {}): Promise<AutoRecallStats> {
    return this.lifecycleParts().autoRecall.stats(options.space);
  }

  /** Starts the nightly maintenance schedule (for long-running service processes). */
  startMaintenanceSchedule(): MaintenanceSchedule {
    return this.lifecycleParts().lifecycle.startSchedule();
  }
  // ---- end of lifecycle and auto-recall ----

  // ---- knowledge graph (issue 6): thin delegates to src/graph ----
  private readonly graphApi: GraphApi;

  /** Registers graph upkeep and the graph channel when the graph is enabled (§4). */
  private graphMaintainer: GraphMaintainer | undefined;

  private wireGraph(): GraphApi {
    const graph = this.store.graph;
    if (!this.config.graph.enabled || !graph) {
      if (this.config.graph.enabled) this.channels.push(new GraphChannel(graph, this.config.graph));
      return new GraphApi(this.store, this.config, undefined);
    }
    const options = graphLimits(this.config.graph).extraction;
    const maintainer = new GraphMaintainer(
      this.store,
      graph,
      options,
      this.config.graph.worker ? new WorkerExtractor(options) : new InlineExtractor(options),
      (err) =>
        this.log.warn('graph upkeep failed; graph rebuild repairs it', { error: String(err) }),
    );
    this.graphMaintainer = maintainer;
    this.addWriteObserver(maintainer);
    this.channels.push(new GraphChannel(graph, this.config.graph, (ms) => maintainer.settle(ms)));
    return new GraphApi(this.store, this.config, maintainer);
  }

  /** Entity, mention and edge counts, stale items and hubs of a space's graph. */
  graphStats(options: { space?: string } = {}): Promise<GraphStats & { enabled: boolean }> {
    return this.graphApi.stats(options);
  }

  /** An entity and its neighbours up to `depth` edges away, with paths and edge types. */
  graphNeighbors(request: NeighborsRequest): Promise<NeighborsResult> {
    return this.graphApi.neighbors(request);
  }

  /** The most mentioned (or most connected) entities of a space. */
  graphEntities(request: EntitiesRequest = {}): Promise<EntityInfo[]> {
    return this.graphApi.entities(request);
  }

  /** The hub report (§4): congested entities, their cause, cluster suggestions, anchors. */
  graphHubs(request: HubsRequest = {}): Promise<HubReport> {
    return this.graphApi.hubs(request);
  }

  /** Recomputes a space's graph from scratch (or only its stale items). */
  graphRebuild(
    request: RebuildRequest = {},
    onProgress?: (p: RebuildProgress) => void,
  ): Promise<RebuildReport> {
    return this.graphApi.rebuild(request, onProgress);
  }
  // ---- end of knowledge graph ----

  // ---- dormant recall (issue 7): thin delegates to src/dormant ----
  private readonly dormant: DormantRecall;

  private wireDormant(scorer: RelevanceScorer | null): DormantRecall {
    return new DormantRecall({
      config: this.config,
      store: this.store,
      embedding: this.vectors,
      scorer,
      log: this.log,
      now: this.now,
      space: (s) => this.space(s),
    });
  }

  /** Newest dormant-recall review-log events of a space: metadata only (§9.4). */
  dormantReview(input: DormantReviewInput = {}): Promise<DormantReview> {
    return this.dormant.review(input);
  }

  /** An event's memory as it is now (when still eligible), marked shown; with its evidence. */
  dormantInspect(input: DormantInspectInput | string): Promise<DormantInspection> {
    return this.dormant.inspect(typeof input === 'string' ? { event_id: input } : input);
  }

  /** Feedback on a dormant event: useful, irrelevant or dismissed (one category per event). */
  dormantFeedback(input: DormantFeedbackInput): Promise<DormantFeedbackResult> {
    return this.dormant.feedback(input);
  }

  /** Raw-cosine and relevance-check score distributions, to set the dormant thresholds. */
  dormantCalibrate(input: DormantCalibrateInput = {}): Promise<CalibrationReport> {
    return this.dormant.calibrate(input);
  }

  /** Resolves when every scheduled shadow evaluation has finished (tests, benchmarks). */
  dormantIdle(): Promise<void> {
    return this.dormant.idle();
  }
  // ---- end of dormant recall ----

  /** Waits for background work (bounded), then releases the store and the embedder. */
  async close(options: { drainMs?: number } = {}): Promise<void> {
    await this.dormant.close();
    await this.vectors.close(options.drainMs ?? 0);
    await this.graphMaintainer?.close();
    await this.store.close();
  }

  /** The store, for import/export and maintenance modules in core. */
  get storeForTransfer(): Store {
    return this.store;
  }
}

function groupBySpace<T extends { space: string }>(records: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const r of records) groups.set(r.space, [...(groups.get(r.space) ?? []), r]);
  return groups;
}

/** True for a plain list of ids (the short form of observeMemoryUsage). */
function isStringList(value: unknown): value is readonly string[] {
  return Array.isArray(value);
}
