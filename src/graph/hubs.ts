/**
 * The hub report (§4): the entities tied to the most, told apart by cause. Structural congestion
 * is one entity tied to too much across many sources (it deserves sub-topics: cluster suggestions
 * among its neighbours); provenance is many mentions from one source (review the source, not the
 * topic). Existing anchors (areas and tags named after entities) are listed. Bounded and
 * deterministic; it reads, it never changes the graph.
 */
import type { EntityType } from '../domain/graph.js';
import type { EntityRef, GraphStore, MentionProfile, NamedCount } from '../store/graph-store.js';
import { entityKey } from './normalize.js';

/** Bounds of one report. */
export interface HubReportOptions {
  space: string;
  limit: number;
  hubThreshold: number;
  items: number;
}

/** An area or tag that already gathers items about an entity. */
export interface Anchor {
  kind: 'area' | 'tag';
  name: string;
  entity: string;
  items: number;
}

/** A group of a hub's neighbours that are tied to each other: a candidate sub-topic. */
export interface ClusterSuggestion {
  entities: string[];
  /** Items naming the hub and one of these entities. */
  items: number;
  suggested_area: string;
}

/** One hub of the report. */
export interface HubEntry {
  entity: { key: string; name: string; type: EntityType; mentions: number; degree: number };
  /** Share of the space's items that name it. */
  share: number;
  /** Above the hub threshold: recall does not traverse it. */
  congested: boolean;
  diagnosis: 'structural' | 'provenance';
  provenance: { top_source: string; share: number; baseline_share: number; sources: number };
  anchors: Anchor[];
  clusters: ClusterSuggestion[];
  suggestion: string;
}

/** The hub report. */
export interface HubReport {
  space: string;
  items: number;
  hub_threshold: number;
  hubs: HubEntry[];
  anchors: Anchor[];
}

const SAMPLE = 2_000;
const CLUSTER_NEIGHBORS = 30;
const MAX_CLUSTERS = 5;
/** Provenance: one source gives this share of an entity's items... */
const PROVENANCE_SHARE = 0.6;
/** ...and this much more than its share of the whole space. */
const PROVENANCE_EXCESS = 0.3;

/** Builds the hub report. */
export async function hubReport(graph: GraphStore, options: HubReportOptions): Promise<HubReport> {
  const [byDegree, byMentions] = await Promise.all([
    graph.topEntities(options.space, 'degree', options.limit * 2),
    graph.topEntities(options.space, 'mentions', options.limit * 2),
  ]);
  const candidates = new Map([...byDegree, ...byMentions].map((e) => [e.id, e]));
  const chosen = [...candidates.values()]
    .filter((e) => e.degree >= 3 || e.mentions >= 3)
    .sort((a, b) => b.degree - a.degree || b.mentions - a.mentions || cmp(a.key, b.key))
    .slice(0, options.limit);
  const space = await graph.spaceProfile(options.space, SAMPLE);
  const hubs: HubEntry[] = [];
  for (const e of chosen) hubs.push(await hubEntry(graph, e, space, options));
  return {
    space: options.space,
    items: options.items,
    hub_threshold: options.hubThreshold,
    hubs,
    anchors: await spaceAnchors(graph, options.space, space),
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function hubEntry(
  graph: GraphStore,
  e: EntityRef,
  space: MentionProfile,
  options: HubReportOptions,
): Promise<HubEntry> {
  const label = (await graph.labels([e.id])).get(e.id);
  const name = label?.name ?? e.key;
  const profile = await graph.mentionProfile(e.id, SAMPLE);
  const provenance = provenanceOf(profile, space);
  const diagnosis =
    provenance.top_source !== '' &&
    provenance.share >= PROVENANCE_SHARE &&
    provenance.share - provenance.baseline_share >= PROVENANCE_EXCESS
      ? 'provenance'
      : 'structural';
  const clusters = diagnosis === 'structural' ? await clustersOf(graph, e, name) : [];
  const anchors = anchorsFor(e.key, profile);
  const entry: HubEntry = {
    entity: {
      key: e.key,
      name,
      type: label?.type ?? 'name',
      mentions: e.mentions,
      degree: e.degree,
    },
    share: round(e.mentions / Math.max(1, options.items)),
    congested: e.mentions > options.hubThreshold,
    diagnosis,
    provenance,
    anchors,
    clusters,
    suggestion: '',
  };
  entry.suggestion = suggest(entry);
  return entry;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function provenanceOf(profile: MentionProfile, space: MentionProfile): HubEntry['provenance'] {
  const top = profile.sources[0];
  const share = top && profile.sampled > 0 ? top.count / profile.sampled : 0;
  const base = top ? space.sources.find((s) => s.name === top.name) : undefined;
  return {
    top_source: top?.name ?? '',
    share: round(share),
    baseline_share: round(base && space.sampled > 0 ? base.count / space.sampled : 0),
    sources: profile.sources.length,
  };
}

/** Normalised name of an area (its last segment) or tag, comparable with entity keys. */
function anchorKey(name: string): string {
  const last = name.split('/').pop() ?? name;
  return entityKey(last.replace(/[-_]+/gu, ' '), 'name');
}

function anchorsFor(key: string, profile: MentionProfile): Anchor[] {
  const match = (list: readonly NamedCount[], kind: Anchor['kind']): Anchor[] =>
    list
      .filter((a) => anchorKey(a.name) === key || a.name.toLowerCase() === key)
      .map((a) => ({ kind, name: a.name, entity: key, items: a.count }));
  return [...match(profile.areas, 'area'), ...match(profile.tags, 'tag')];
}

async function spaceAnchors(
  graph: GraphStore,
  spaceName: string,
  space: MentionProfile,
): Promise<Anchor[]> {
  const named = [
    ...space.areas.map((a) => ({ kind: 'area' as const, ...a })),
    ...space.tags.map((t) => ({ kind: 'tag' as const, ...t })),
  ];
  const entities = await graph.entitiesByKey(spaceName, [
    ...new Set(named.map((n) => anchorKey(n.name))),
  ]);
  const known = new Set(entities.map((e) => e.key));
  return named
    .filter((n) => known.has(anchorKey(n.name)))
    .map((n) => ({ kind: n.kind, name: n.name, entity: anchorKey(n.name), items: n.count }))
    .slice(0, 20);
}

/** Groups of the hub's neighbours tied to each other, by deterministic label propagation. */
async function clustersOf(
  graph: GraphStore,
  hub: EntityRef,
  hubName: string,
): Promise<ClusterSuggestion[]> {
  const neighbors = await graph.neighborsOf([hub.id], CLUSTER_NEIGHBORS);
  const ids = neighbors.map((n) => n.to.id);
  const pairs = await graph.pairsAmong(ids);
  const groups = propagate(ids, pairs);
  const toHub = new Map(neighbors.map((n) => [n.to.id, n.weight]));
  const ranked = groups
    .filter((g) => g.length >= 2)
    .map((g) => ({ g, weight: g.reduce((s, id) => s + (toHub.get(id) ?? 0), 0) }))
    .sort((a, b) => b.weight - a.weight || a.g[0]! - b.g[0]!)
    .slice(0, MAX_CLUSTERS);
  const labels = await graph.labels(ranked.flatMap((r) => r.g));
  const out: ClusterSuggestion[] = [];
  for (const { g } of ranked) {
    const members = [...g].sort((a, b) => (toHub.get(b) ?? 0) - (toHub.get(a) ?? 0) || a - b);
    const names = members.map((id) => labels.get(id)?.name ?? String(id));
    out.push({
      entities: names,
      items: await graph.coMentioned(hub.id, members),
      suggested_area: `${slug(hubName)}/${slug(names[0]!)}`,
    });
  }
  return out;
}

/** Label propagation over weighted pairs; nodes in fixed order, ties to the smallest label. */
export function propagate(
  ids: readonly number[],
  pairs: readonly { a: number; b: number; weight: number }[],
): number[][] {
  const adjacency = new Map<number, Map<number, number>>(ids.map((id) => [id, new Map()]));
  for (const p of pairs) {
    adjacency.get(p.a)?.set(p.b, p.weight);
    adjacency.get(p.b)?.set(p.a, p.weight);
  }
  const label = new Map(ids.map((id) => [id, id]));
  for (let round = 0; round < 10; round++) {
    let changed = false;
    for (const id of ids) {
      const votes = new Map<number, number>();
      for (const [other, w] of adjacency.get(id)!)
        votes.set(label.get(other)!, (votes.get(label.get(other)!) ?? 0) + w);
      if (votes.size === 0) continue;
      const best = [...votes].sort((x, y) => y[1] - x[1] || x[0] - y[0])[0]![0];
      if (best !== label.get(id)) {
        label.set(id, best);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const groups = new Map<number, number[]>();
  for (const id of ids) groups.set(label.get(id)!, [...(groups.get(label.get(id)!) ?? []), id]);
  return [...groups.values()];
}

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/gu, '')
      .slice(0, 40) || 'topic'
  );
}

function suggest(h: HubEntry): string {
  const name = h.entity.name;
  if (h.diagnosis === 'provenance')
    return `${Math.round(h.provenance.share * 100)}% of the items naming ${name} come from ${h.provenance.top_source}: review that source (repeated boilerplate, one chatty session) rather than the topic`;
  const anchor = h.anchors[0];
  const first = h.clusters[0];
  if (h.congested && first)
    return `${name} is named by ${h.entity.mentions} items (${Math.round(h.share * 100)}%); split it into sub-topics, e.g. area ${first.suggested_area} for ${first.entities.slice(0, 3).join(', ')}`;
  if (h.congested)
    return `${name} is named by ${h.entity.mentions} items; it is too broad to link memories in recall`;
  if (anchor)
    return `${name} is a central topic, already anchored by ${anchor.kind} ${anchor.name}`;
  return `${name} is a central topic without an anchor; an area or tag "${slug(name)}" would gather its items`;
}
