/**
 * The graph operations the service offers (stats, neighbours, entities, hubs, rebuild): input
 * validation at the boundary, then the graph store, the traversal and the maintainer.
 */
import { z } from 'zod';

import { type Config, GRAPH_MAX_DEPTH } from '../config/schema.js';
import { EngramError } from '../domain/errors.js';
import {
  ENTITY_TYPES,
  type EntityInfo,
  type GraphStats,
  type NeighborInfo,
} from '../domain/graph.js';
import { spaceSchema } from '../domain/input.js';
import { toMemory } from '../domain/memory.js';
import { type Memory, STATUSES } from '../domain/types.js';
import { parseWith } from '../domain/zod.js';
import type { EntityRef, GraphStore } from '../store/graph-store.js';
import type { Store } from '../store/store.js';
import type { ExtractOptions } from './extract.js';
import { type HubReport, hubReport } from './hubs.js';
import {
  extractorSignature,
  type GraphMaintainer,
  type RebuildProgress,
  type RebuildReport,
} from './maintainer.js';
import { entityKey } from './normalize.js';
import { hubThreshold, pathTo } from './traverse.js';

const space = spaceSchema.optional();
const depthRule = `must be between 1 and ${GRAPH_MAX_DEPTH}`;

/** Input of `graph neighbors`. */
export const neighborsInput = z.strictObject({
  space,
  entity: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(500, 'must be at most 500 characters')
    .refine((s) => s.isWellFormed(), 'must be valid UTF-8 text'),
  depth: z
    .number()
    .int('must be an integer')
    .min(1, depthRule)
    .max(GRAPH_MAX_DEPTH, depthRule)
    .default(1),
  limit: z
    .number()
    .int()
    .min(1, 'must be at least 1')
    .max(1000, 'must be at most 1000')
    .default(50),
});
/** Input of `graph entities`. */
export const entitiesInput = z.strictObject({
  space,
  top: z
    .number()
    .int()
    .min(1, 'must be at least 1')
    .max(10_000, 'must be at most 10000')
    .default(20),
  by: z.enum(['mentions', 'degree'], { message: 'must be mentions or degree' }).default('mentions'),
  type: z.enum(ENTITY_TYPES, { message: `must be one of ${ENTITY_TYPES.join(', ')}` }).optional(),
});
/** Input of `graph mentions`: the memories naming an entity. */
export const mentionsInput = z.strictObject({
  space,
  entity: neighborsInput.shape.entity,
  limit: z.number().int().min(1, 'must be at least 1').max(100, 'must be at most 100').default(20),
});
/** Input of `graph hubs`. */
export const hubsInput = z.strictObject({
  space,
  limit: z.number().int().min(1, 'must be at least 1').max(50, 'must be at most 50').default(10),
});
/** Input of `graph rebuild`. */
export const rebuildInput = z.strictObject({ space, stale_only: z.boolean().default(false) });

/** Request types of the graph operations. */
export type NeighborsRequest = z.input<typeof neighborsInput>;
/** Request of `graph entities`. */
export type EntitiesRequest = z.input<typeof entitiesInput>;
/** Request of `graph mentions`. */
export type MentionsRequest = z.input<typeof mentionsInput>;
/** Request of `graph hubs`. */
export type HubsRequest = z.input<typeof hubsInput>;
/** Request of `graph rebuild`. */
export type RebuildRequest = z.input<typeof rebuildInput>;

/** The answer of `graph neighbors`. */
export interface NeighborsResult {
  entity: EntityInfo;
  neighbors: NeighborInfo[];
}

/** The answer of `graph mentions`: the entity and the memories naming it, newest first. */
export interface MentionsResult {
  entity: EntityInfo;
  memories: Memory[];
}

/** Every status but forgotten: a forgotten memory no longer counts in the graph. */
const COUNTING = STATUSES.filter((s) => s !== 'forgotten');

/** The graph operations, bound to a store and configuration. */
export class GraphApi {
  constructor(
    private readonly store: Store,
    private readonly config: Config,
    private readonly maintainer: GraphMaintainer | undefined,
  ) {}

  /** The graph store, once this process's queued upkeep is in it. */
  private async ready(): Promise<GraphStore> {
    const graph = this.graph();
    await this.maintainer?.idle();
    return graph;
  }

  private graph(): GraphStore {
    if (!this.store.graph)
      throw new EngramError(
        'STORE_UNAVAILABLE',
        `the ${this.store.capabilities.backend} store has no knowledge graph`,
        { rule: 'graph_unsupported' },
      );
    return this.store.graph;
  }

  private space(name: string | undefined): string {
    return name ?? this.config.space;
  }

  /** Counts, staleness and the top hubs of a space's graph. */
  async stats(request: { space?: string } = {}): Promise<GraphStats & { enabled: boolean }> {
    const s = this.space(parseWith(z.strictObject({ space }), request).space);
    const graph = await this.ready();
    const counts = await graph.counts(s);
    const hubLimit = hubThreshold(counts.items, this.limits());
    const top = await graph.topEntities(s, 'mentions', 5);
    const labels = await graph.labels(top.map((e) => e.id));
    return {
      space: s,
      enabled: this.config.graph.enabled,
      entities: counts.entities,
      mentions: counts.mentions,
      edges: counts.edges,
      items_extracted: counts.items,
      items_stale: await graph.countStale(s, extractorSignature(this.extraction())),
      by_type: counts.by_type,
      edges_by_type: counts.edges_by_type,
      hub_threshold: hubLimit,
      hubs: top
        .filter((e) => e.mentions > hubLimit)
        .map((e) => ({
          key: e.key,
          name: labels.get(e.id)?.name ?? e.key,
          mentions: e.mentions,
          degree: e.degree,
        })),
    };
  }

  private extraction(): ExtractOptions {
    return {
      maxChars: this.config.graph.max_chars,
      maxEntities: this.config.graph.max_entities_per_memory,
    };
  }

  private limits() {
    return {
      hubShare: this.config.graph.hub_share,
      hubMinMentions: this.config.graph.hub_min_mentions,
    };
  }

  /** The entity named, and its neighbours up to `depth` entity edges away (breadth first). */
  async neighbors(request: NeighborsRequest): Promise<NeighborsResult> {
    const req = parseWith(neighborsInput, request);
    const s = this.space(req.space);
    const graph = await this.ready();
    const start = await this.resolve(graph, s, req.entity);
    const reached = new Map<number, { ref: EntityRef; distance: number; parent: number | null }>([
      [start.id, { ref: start, distance: 0, parent: null }],
    ]);
    let frontier = [start.id];
    for (let d = 1; d <= req.depth && frontier.length > 0 && reached.size <= req.limit; d++) {
      const next: number[] = [];
      for (const n of await graph.neighborsOf(frontier, this.config.graph.max_neighbors)) {
        if (reached.has(n.to.id) || reached.size > req.limit) continue;
        reached.set(n.to.id, { ref: n.to, distance: d, parent: n.from });
        next.push(n.to.id);
      }
      frontier = next;
    }
    const others = [...reached.values()].filter((r) => r.distance > 0);
    const infos = await this.describe(graph, [start, ...others.map((o) => o.ref)]);
    const neighbors: NeighborInfo[] = [];
    for (const o of others) {
      const path = pathTo(reached, o.ref.id).map((id) => infos.get(id)?.name ?? String(id));
      const edges = await graph.edgesBetween(o.parent!, o.ref.id);
      neighbors.push({ entity: infos.get(o.ref.id)!, distance: o.distance, path, edges });
    }
    return { entity: infos.get(start.id)!, neighbors };
  }

  private async resolve(graph: GraphStore, s: string, text: string): Promise<EntityRef> {
    const keys = [
      ...new Set([entityKey(text, 'name'), entityKey(text, 'identifier'), text.toLowerCase()]),
    ];
    const found = await graph.entitiesByKey(s, keys);
    const best = keys.map((k) => found.find((f) => f.key === k)).find((f) => f !== undefined);
    if (!best)
      throw new EngramError('NOT_FOUND', `entity "${text}" not found in space ${s}`, {
        field: 'entity',
        rule: 'a known entity (see graph entities)',
      });
    return best;
  }

  private async describe(
    graph: GraphStore,
    refs: readonly EntityRef[],
  ): Promise<Map<number, EntityInfo>> {
    const labels = await graph.labels(refs.map((r) => r.id));
    const aliases = await graph.aliasesOf(refs.map((r) => r.id));
    const aliasLabels = await graph.labels(aliases.map((a) => a.to.id));
    return new Map(
      refs.map((r) => {
        const label = labels.get(r.id);
        const name = label?.name ?? r.key;
        const named = aliases
          .filter((a) => a.from === r.id)
          .map((a) => aliasLabels.get(a.to.id)?.name ?? a.to.key);
        const others = [...new Set([...(label?.surfaces ?? []), ...named])].filter(
          (x) => x !== name,
        );
        return [
          r.id,
          {
            key: r.key,
            name,
            type: label?.type ?? 'name',
            mentions: r.mentions,
            degree: r.degree,
            confirmed: r.strong > 0,
            aliases: others,
          },
        ];
      }),
    );
  }

  /** The memories that mention an entity (any status but forgotten), newest first. */
  async mentions(request: MentionsRequest): Promise<MentionsResult> {
    const req = parseWith(mentionsInput, request);
    const s = this.space(req.space);
    const graph = await this.ready();
    const ref = await this.resolve(graph, s, req.entity);
    const [ids = []] = await graph.itemsMentioning({ space: s, statuses: COUNTING }, [
      { entity: ref.id, limit: req.limit },
    ]);
    const byId = new Map((await this.store.getItems(s, ids)).map((i) => [i.id, i]));
    const memories = ids.flatMap((id) => {
      const item = byId.get(id);
      return item ? [toMemory(item)] : [];
    });
    return { entity: (await this.describe(graph, [ref])).get(ref.id)!, memories };
  }

  /** The most mentioned (or most connected) entities. */
  async entities(request: EntitiesRequest = {}): Promise<EntityInfo[]> {
    const req = parseWith(entitiesInput, request);
    const graph = await this.ready();
    const top = await graph.topEntities(this.space(req.space), req.by, req.top, req.type);
    const infos = await this.describe(graph, top);
    return top.map((e) => infos.get(e.id)!);
  }

  /** The hub report (§4): read-only. */
  async hubs(request: HubsRequest = {}): Promise<HubReport> {
    const req = parseWith(hubsInput, request);
    const s = this.space(req.space);
    const graph = await this.ready();
    const items = await graph.itemCount(s);
    return hubReport(graph, {
      space: s,
      limit: req.limit,
      items,
      hubThreshold: hubThreshold(items, this.limits()),
    });
  }

  /** Recomputes the space's graph from scratch (or only stale items). */
  async rebuild(
    request: RebuildRequest = {},
    onProgress?: (p: RebuildProgress) => void,
  ): Promise<RebuildReport> {
    const req = parseWith(rebuildInput, request);
    const s = this.space(req.space);
    this.graph();
    if (!this.maintainer)
      throw new EngramError('CONFLICT', 'the knowledge graph is disabled (graph.enabled: false)', {
        field: 'graph.enabled',
        rule: 'true to build the graph',
      });
    if (!req.stale_only) return this.maintainer.rebuild(s, onProgress);
    const started = performance.now();
    const items = await this.maintainer.catchUp(s, onProgress);
    const counts = await this.graph().counts(s);
    return {
      space: s,
      items,
      entities: counts.entities,
      edges: counts.edges,
      ms: Math.round(performance.now() - started),
    };
  }
}
