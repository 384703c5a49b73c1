/**
 * Which item of a group of near-duplicates is kept (§10): groups merge into one keeper each, never
 * in chains, the keeper chosen as the item judged a duplicate of the most others (then by
 * keeperOrder); duplicates that cannot merge are listed with the reason.
 */
import type { Candidate, DuplicateItem, DuplicateProposal } from './duplicates.js';
import type { NeighbourPair } from './neighbours.js';

/**
 * Orders two items by which one is kept: pinned first, then higher importance, use count and
 * access count, then the older, then the smaller id. Negative when `a` is the keeper.
 */
export function keeperOrder(a: DuplicateItem, b: DuplicateItem): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  return (
    b.importance - a.importance ||
    b.use_count - a.use_count ||
    b.access_count - a.access_count ||
    a.created_at - b.created_at ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

/**
 * Proposals from the pairs judged duplicates. Groups of duplicates merge into one keeper each,
 * never in chains (a kept item is never merged later, a merged one never keeps). Within a group the keeper is picked again and again among the
 * items still open: a pinned item first, then the one judged a duplicate of the most open items
 * (so a copy between two variants that are not duplicates of each other keeps both), then
 * keeperOrder. Every open item judged its duplicate merges into it, unless both are pinned.
 * Duplicates left alone are listed with `skip` and the reason, unless both ended up in one keeper.
 */
export function resolve(
  duplicates: readonly Candidate[],
  byId: ReadonlyMap<string, DuplicateItem>,
): DuplicateProposal[] {
  const edges = new Map<string, Candidate[]>();
  for (const c of duplicates)
    for (const id of [c.a, c.b]) edges.set(id, [...(edges.get(id) ?? []), c]);
  const keeperOf = new Map<string, string>();
  const closed = new Set<string>();
  const merges: DuplicateProposal[] = [];
  for (const group of groupsOf(edges)) {
    for (;;) {
      const hub = bestHub(group, edges, closed, byId);
      if (hub === null) break;
      closed.add(hub);
      for (const c of openEdges(hub, edges, closed, byId)) {
        const lesser = other(c, hub);
        closed.add(lesser);
        keeperOf.set(lesser, hub);
        merges.push(proposal(hub, lesser, c, MERGED, false));
      }
    }
  }
  const root = (id: string) => keeperOf.get(id) ?? id;
  const skipped = duplicates
    .filter((c) => keeperOf.get(c.a) !== c.b && keeperOf.get(c.b) !== c.a)
    .filter((c) => root(c.a) !== root(c.b))
    .map((c) => {
      const [x, y] = [byId.get(c.a)!, byId.get(c.b)!];
      const [keeper, lesser] = keeperOrder(x, y) <= 0 ? [x, y] : [y, x];
      const reason = lesser.pinned ? 'both pinned' : 'already merged in this run';
      return proposal(keeper.id, lesser.id, c, reason, true);
    });
  return [...merges, ...skipped].sort(
    (p, q) =>
      q.similarity - p.similarity || compare(p.keeper, q.keeper) || compare(p.lesser, q.lesser),
  );
}

/** The connected groups of items linked by duplicate pairs. */
function groupsOf(edges: ReadonlyMap<string, readonly Candidate[]>): string[][] {
  const seen = new Set<string>();
  const groups: string[][] = [];
  for (const start of edges.keys()) {
    if (seen.has(start)) continue;
    const group = [start];
    seen.add(start);
    for (let i = 0; i < group.length; i++)
      for (const c of edges.get(group[i]!)!) {
        const next = other(c, group[i]!);
        if (seen.has(next)) continue;
        seen.add(next);
        group.push(next);
      }
    groups.push(group);
  }
  return groups;
}

/** The open item of a group that keeps the most (see resolve), or null when none can keep. */
function bestHub(
  group: readonly string[],
  edges: ReadonlyMap<string, readonly Candidate[]>,
  closed: ReadonlySet<string>,
  byId: ReadonlyMap<string, DuplicateItem>,
): string | null {
  let best: { id: string; degree: number } | null = null;
  for (const id of group) {
    if (closed.has(id)) continue;
    const degree = openEdges(id, edges, closed, byId).length;
    if (degree === 0) continue;
    if (best === null || hubOrder(id, degree, best, byId) < 0) best = { id, degree };
  }
  return best?.id ?? null;
}

function hubOrder(
  id: string,
  degree: number,
  best: { id: string; degree: number },
  byId: ReadonlyMap<string, DuplicateItem>,
): number {
  const [x, y] = [byId.get(id)!, byId.get(best.id)!];
  if (x.pinned !== y.pinned) return x.pinned ? -1 : 1;
  return best.degree - degree || keeperOrder(x, y);
}

/** The duplicate pairs of `id` whose other item is open and may merge into it (never a pinned one). */
function openEdges(
  id: string,
  edges: ReadonlyMap<string, readonly Candidate[]>,
  closed: ReadonlySet<string>,
  byId: ReadonlyMap<string, DuplicateItem>,
): Candidate[] {
  return (edges.get(id) ?? []).filter((c) => {
    const next = other(c, id);
    return !closed.has(next) && !byId.get(next)!.pinned;
  });
}

const other = (c: NeighbourPair, id: string) => (c.a === id ? c.b : c.a);

/** The reason of a merge, as judgePair gives it. */
const MERGED = 'similar vectors and overlapping text';

function proposal(
  keeper: string,
  lesser: string,
  c: Candidate,
  reason: string,
  skip: boolean,
): DuplicateProposal {
  const out = { keeper, lesser, similarity: c.similarity, overlap: c.overlap, reason };
  return skip ? { ...out, skip } : out;
}

/** The key of an unordered pair of ids. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
