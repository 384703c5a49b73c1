/**
 * The MemoryService: the one API every interface (library, CLI, MCP, HTTP) calls. It validates
 * input, applies the domain rules (plans), embeds within budget and runs recall; persistence is the
 * Store's, embedding the queue's.
 */
import type { Config } from '../config/schema.js';
import type { EmbedderState, PrepareOptions } from '../embed/embedder.js';
import { EngramError, notFound } from '../errors/errors.js';
import { parseWith } from '../errors/zod.js';
import { KeywordChannel } from '../retrieval/channels/keyword.js';
import { VectorChannel } from '../retrieval/channels/vector.js';
import { runRecall } from '../retrieval/pipeline.js';
import type {
  ImportOutcome,
  ItemDraft,
  ItemExport,
  ItemFilter,
  ItemRecord,
  ModelRecord,
  MutationPlan,
  RelationRecord,
  Store,
  StoreStats,
} from '../store/store.js';
import { newId } from './ids.js';
import {
  type InputSchemas,
  inputSchemas,
  type ListRequest,
  type RecallRequest,
  type RememberInput,
  type ReviseInput,
  spaceSchema,
} from './input.js';
import type { Logger } from './log.js';
import { toMemory, toRelation, toStatusEvent, toVersion } from './memory.js';
import type { WriteEvent, WriteObserver } from './observers.js';
import * as plans from './plans.js';
import { bodyHash, embeddingText } from './text.js';
import type { History, Memory, RecallResponse, Relation, RelationType } from './types.js';
import type { VectorSupply } from './vectors.js';

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

/** What the service is built from (wired by createEngram). */
export interface ServiceDeps {
  config: Config;
  store: Store;
  vectors: VectorSupply;
  log: Logger;
  now?: () => number;
}

/** The memory service. */
export class MemoryService {
  readonly config: Config;
  private readonly store: Store;
  private readonly vectors: VectorSupply;
  private readonly log: Logger;
  private readonly now: () => number;
  private readonly schemas: InputSchemas;
  private readonly channels: [KeywordChannel, VectorChannel];
  private readonly observers: WriteObserver[] = [];

  constructor(deps: ServiceDeps) {
    this.config = deps.config;
    this.store = deps.store;
    this.vectors = deps.vectors;
    this.log = deps.log;
    this.now = deps.now ?? Date.now;
    this.schemas = inputSchemas(deps.config);
    this.channels = [new KeywordChannel(this.store), new VectorChannel(this.store, this.vectors)];
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
      plans.revisePlan(id, { ...next, vector }, embeddingText, this.meta(rev)),
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
  forget(id: string, options: ChangeOptions = {}): Promise<Memory> {
    return this.mutateOne(id, options, plans.forgetPlan(id, this.meta(options)), 'forget');
  }

  /** Brings back a forgotten, archived, superseded or merged memory. */
  restore(id: string, options: ChangeOptions = {}): Promise<Memory> {
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
  pin(id: string, options: ChangeOptions = {}): Promise<Memory> {
    return this.mutateOne(id, options, plans.pinPlan(id, true, this.meta(options)), 'pin');
  }

  /** Unpins. */
  unpin(id: string, options: ChangeOptions = {}): Promise<Memory> {
    return this.mutateOne(id, options, plans.pinPlan(id, false, this.meta(options)), 'unpin');
  }

  /** Moves to another area. */
  move(id: string, area: string, options: ChangeOptions = {}): Promise<Memory> {
    return this.mutateOne(
      id,
      options,
      plans.movePlan(id, parseWith(this.schemas.move, area, 'area'), this.meta(options)),
      'move',
    );
  }

  /** Adds and removes tags. */
  tag(
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
  setImportance(id: string, importance: number, options: ChangeOptions = {}): Promise<Memory> {
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

  /** Hybrid recall (§3); returns the §3.5 envelope. */
  async recall(request: RecallRequest): Promise<RecallResponse> {
    const req = parseWith(this.schemas.recall, request);
    const { query, k, weights, ...filters } = req;
    const config = this.config.recall;
    return runRecall(
      {
        store: this.store,
        config: this.config,
        channels: this.channels,
        now: this.now,
        onAccessError: (err) => this.log.warn('access accounting skipped', { error: String(err) }),
      },
      {
        query,
        k: k ?? config.k,
        filter: this.filter({ ...filters, limit: 1, order: 'updated' }, false),
        weights: {
          keyword: weights?.keyword ?? config.weights.keyword,
          vector: weights?.vector ?? config.weights.vector,
        },
      },
    );
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

  /** Builds or loads the embedder's model cache (`engram models prepare`). */
  prepareModels(options: PrepareOptions = {}): Promise<void> {
    return this.vectors.prepare(options);
  }

  /** Embeds items waiting for a vector; returns how many were filled. */
  backfill(options: { limit?: number; onProgress?: (done: number) => void } = {}): Promise<number> {
    return this.vectors.backfill(options);
  }

  /** Waits for background work (bounded), then releases the store and the embedder. */
  async close(options: { drainMs?: number } = {}): Promise<void> {
    await this.vectors.close(options.drainMs ?? 0);
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
