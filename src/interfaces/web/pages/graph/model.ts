/**
 * The graph page's data model: its URL (`/graph?entity=KEY&depth=N`), the shapes it reads from the
 * API, the edge types with their names and line styles (the drawing and its legend agree), and an
 * entity's neighbourhood turned into nodes and edges for the drawing and its text alternative.
 */
import type { Schemas } from '../../lib/api';

/** An entity as the graph reports it. */
export type Entity = Schemas['GraphEntity'];
/** An entity's neighbourhood. */
export type Neighborhood = Schemas['GraphNeighbors'];
/** One neighbour of the neighbourhood. */
export type Neighbor = Neighborhood['neighbors'][number];
/** An edge type. */
export type EdgeType = Schemas['GraphEdge']['type'];

/** The depths the page offers: direct neighbours, or their neighbours too. */
export const DEPTHS = [1, 2] as const;

/** The page's address for an entity (by key) at a depth. */
export function graphHref(entity: string, depth = 1): string {
  const params = new URLSearchParams({ entity });
  if (depth !== 1) params.set('depth', String(depth));
  return `/graph?${params.toString()}`;
}

/** The depth a URL asks for (1 unless it names another offered depth). */
export function depthOf(text: string | undefined): number {
  const n = Number(text);
  return (DEPTHS as readonly number[]).includes(n) ? n : 1;
}

/** How an edge type is named and drawn (line style, and colour as a CSS variable). */
export interface EdgeLook {
  label: string;
  line: 'solid' | 'dashed' | 'dotted';
  colour: string;
}

/** Every edge type's look: style and colour both differ, so colour is never the only cue. */
export const EDGE_LOOKS: Record<EdgeType, EdgeLook> = {
  co_mention: { label: 'named together', line: 'solid', colour: '--muted' },
  arrow: { label: 'arrow (A -> B)', line: 'solid', colour: '--accent' },
  alias: { label: 'alias', line: 'dashed', colour: '--warn' },
  related: { label: 'related memories', line: 'dotted', colour: '--ok' },
  derived_from: { label: 'derived from', line: 'dotted', colour: '--accent' },
  supersedes: { label: 'supersedes', line: 'dashed', colour: '--danger' },
  merged_into: { label: 'merged into', line: 'dashed', colour: '--off' },
};

/** The strongest edge type of a neighbour's edges (it decides the line's look). */
export function mainEdge(edges: Neighbor['edges']): EdgeType {
  let best = edges[0];
  for (const e of edges) if (best === undefined || e.weight > best.weight) best = e;
  return best?.type ?? 'co_mention';
}

/** "named together ×3, alias ×1". */
export function edgeText(edges: Neighbor['edges']): string {
  return edges.map((e) => `${EDGE_LOOKS[e.type].label} ×${e.weight}`).join(', ');
}

/** A node of the drawing. */
export interface GraphNode {
  key: string;
  name: string;
  type: string;
  mentions: number;
  distance: number;
}

/** An edge of the drawing: from the previous entity on the path to the neighbour. */
export interface GraphLink {
  id: string;
  from: string;
  to: string;
  type: EdgeType;
  weight: number;
  label: string;
}

/** Nodes and edges of a neighbourhood (the start entity first, at distance 0). */
export function toGraph(n: Neighborhood): { nodes: GraphNode[]; links: GraphLink[] } {
  const nodes: GraphNode[] = [
    { ...pick(n.entity), distance: 0 },
    ...n.neighbors.map((x) => ({ ...pick(x.entity), distance: x.distance })),
  ];
  const links: GraphLink[] = [];
  for (const x of n.neighbors) {
    const from = parentKey(nodes, x);
    if (from === undefined) continue;
    const weight = x.edges.reduce((sum, e) => sum + e.weight, 0);
    links.push({
      id: `${from} -> ${x.entity.key}`,
      from,
      to: x.entity.key,
      type: mainEdge(x.edges),
      weight,
      label: edgeText(x.edges),
    });
  }
  return { nodes, links };
}

function pick(e: Entity): Omit<GraphNode, 'distance'> {
  return { key: e.key, name: e.name, type: e.type, mentions: e.mentions };
}

/** The key of the entity before `x` on its path: the one of that name one step closer. */
function parentKey(nodes: readonly GraphNode[], x: Neighbor): string | undefined {
  const name = x.path[x.path.length - 2];
  return nodes.find((n) => n.name === name && n.distance === x.distance - 1)?.key;
}

/** A short sentence summarising the drawing, for its accessible name. */
export function summary(n: Neighborhood, depth: number): string {
  const count = n.neighbors.length;
  const near = n.neighbors
    .filter((x) => x.distance === 1)
    .slice(0, 5)
    .map((x) => x.entity.name);
  const within = depth === 1 ? 'directly connected' : `within ${depth} edges`;
  const names = near.length ? `, among them ${near.join(', ')}` : '';
  return `Graph of ${n.entity.name}: ${count} ${count === 1 ? 'entity' : 'entities'} ${within}${names}. The table of neighbours lists them all.`;
}

/** A point of the drawing. */
export interface Point {
  x: number;
  y: number;
}

/**
 * A radial tree: the start entity in the middle, each further step a ring, and every entity's
 * neighbours in the arc around it (an arc as wide as the entities it leads to), so no edge crosses
 * the middle. Rings are far enough apart for the outermost one to hold its labels.
 */
export function radialLayout(nodes: readonly GraphNode[], links: readonly GraphLink[]) {
  const children = new Map<string, string[]>();
  for (const l of links) children.set(l.from, [...(children.get(l.from) ?? []), l.to]);
  const leaves = new Map<string, number>();
  const count = (key: string, seen: Set<string>): number => {
    if (seen.has(key)) return 0;
    seen.add(key);
    const n = (children.get(key) ?? []).reduce((s, c) => s + count(c, seen), 0);
    leaves.set(key, Math.max(1, n));
    return Math.max(1, n);
  };
  const root = nodes[0]?.key;
  const out = new Map<string, Point>();
  if (root === undefined) return out;
  const total = count(root, new Set());
  const deepest = Math.max(1, ...nodes.map((n) => n.distance));
  const gap = Math.max(95, (total * 64) / (2 * Math.PI * deepest));
  const place = (key: string, from: number, to: number, depth: number) => {
    const angle = (from + to) / 2;
    out.set(key, { x: depth * gap * Math.cos(angle), y: depth * gap * Math.sin(angle) });
    let at = from;
    for (const c of children.get(key) ?? []) {
      if (out.has(c)) continue;
      const width = ((to - from) * (leaves.get(c) ?? 1)) / (leaves.get(key) ?? 1);
      place(c, at, at + width, depth + 1);
      at += width;
    }
  };
  place(root, -Math.PI / 2, (3 * Math.PI) / 2, 0);
  return out;
}
