/**
 * Graph traversal for recall (§3.1): the query's entities, breadth-first over entity edges, and
 * the items that name what was reached. An item naming a query entity is 1 hop away; one entity
 * edge further is 2 hops; the channel's score is 1/hops. Hubs (entities named by a large share of
 * the space) are neither expanded nor read for items, and every step is capped, so a query costs
 * a bounded number of index seeks whatever the store's size.
 */
import type { ItemFilter } from '../domain/filter.js';
import type { EntityRef, GraphStore, Neighbor } from '../store/graph-store.js';
import { type ExtractOptions, singular, technicalKeys } from './extract.js';
import { cleanSurface, isCommonWord } from './normalize.js';

/** Caps of one traversal. */
export interface TraversalLimits {
  depth: number;
  maxNeighbors: number;
  maxReached: number;
  maxItemsPerEntity: number;
  hubShare: number;
  hubMinMentions: number;
}

/** One item the graph reached, with why. */
export interface GraphHit {
  id: string;
  hops: number;
  score: number;
  /** Entity names from the query entity to the entity the item names. */
  path: string[];
  /** Specificity of the reached entities the item names (the order within one hop). */
  evidence: number;
  /** Items naming the entity it was reached through. */
  via_mentions: number;
}

/** A reached entity: how far from the query, and through which entity. */
interface Reached {
  ref: EntityRef;
  distance: number;
  parent: number | null;
}

const MAX_QUERY_KEYS = 200;
/** Longest name (in words) a query n-gram can match, as extraction keeps at most six. */
const MAX_NGRAM = 6;
/** Multi-word entities a single query word may stand for ("Alice" for "Alice Johnson"). */
const MAX_PARTIAL = 8;
/** Entities whose items one store call reads. */
const COLLECT_BATCH = 4;

/**
 * Entity keys a query may name: its technical tokens and its word n-grams in any case (so "alice
 * johnson's" finds Alice Johnson), without the language model.
 */
export function queryKeys(query: string, options: ExtractOptions): string[] {
  const keys = new Set(technicalKeys(query, options.maxChars));
  const words = query
    .slice(0, options.maxChars)
    .normalize('NFKC')
    .split(/\s+/u)
    .map((w) => cleanSurface(w, 'name').toLowerCase())
    .filter((w) => w !== '');
  for (let n = 1; n <= MAX_NGRAM; n++) {
    for (let i = 0; i + n <= words.length; i++) {
      const gram = words.slice(i, i + n);
      if (gram.every((w) => isCommonWord(w) || !/\p{L}/u.test(w))) continue;
      keys.add(gram.join(' '));
      // Names are keyed in the singular; the query may say the plural.
      const one = n > 1 ? singular(gram[n - 1]!) : null;
      if (one) keys.add([...gram.slice(0, -1), one].join(' '));
    }
  }
  return [...keys].filter((k) => k.length >= 2).slice(0, MAX_QUERY_KEYS);
}

/** The mention count above which an entity is a hub in a space of `items` items. */
export function hubThreshold(
  items: number,
  limits: Pick<TraversalLimits, 'hubShare' | 'hubMinMentions'>,
): number {
  return Math.max(limits.hubMinMentions, Math.floor(limits.hubShare * items));
}

/** Items reachable from the query's entities, best first, at most `limit`. */
export async function graphRecall(
  graph: GraphStore,
  query: string,
  filter: ItemFilter,
  limit: number,
  limits: TraversalLimits,
  extraction: ExtractOptions,
): Promise<GraphHit[]> {
  const keys = queryKeys(query, extraction);
  const words = keys.filter((k) => !k.includes(' ') && /^\p{L}/u.test(k));
  // Asked together (on a server, one wait instead of three in a row).
  const [exact, longer, items] = await Promise.all([
    graph.entitiesByKey(filter.space, keys),
    graph.entitiesByFirstWord(filter.space, words, MAX_PARTIAL),
    graph.itemCount(filter.space),
  ]);
  // A word already inside a full name the query gives ("Grace" of "Grace Marshall") stands for
  // nothing else; a lone word may stand for a longer name ("Alice" for "Alice Johnson").
  const covered = new Set(exact.flatMap((e) => (e.key.includes(' ') ? e.key.split(' ') : [])));
  const partial = longer.filter((e) => !covered.has(e.key.slice(0, e.key.indexOf(' '))));
  // Unconfirmed entities (only ever a capitalised sentence start) may be common words.
  const starts = [...new Map([...exact, ...partial].map((e) => [e.id, e])).values()].filter(
    (e) => e.strong > 0,
  );
  if (starts.length === 0 || limit <= 0) return [];
  const hub = hubThreshold(items, limits);
  const reached = new Map<number, Reached>();
  for (const ref of starts) reached.set(ref.id, { ref, distance: 0, parent: null });
  await addAliases(graph, reached, starts, 0);
  const found = new Map<string, Candidate>();
  for (let distance = 0; distance < limits.depth; distance++) {
    const level = [...reached.values()]
      .filter((r) => r.distance === distance && r.ref.mentions <= hub)
      .sort((a, b) => a.ref.mentions - b.ref.mentions || (a.ref.key < b.ref.key ? -1 : 1));
    await collect(graph, filter, level, limits.maxItemsPerEntity, found, limit);
    if (found.size >= limit || distance + 1 >= limits.depth) break;
    if (reached.size >= limits.maxReached) break;
    await expand(graph, reached, level, distance + 1, limits);
  }
  return rank(graph, filter.space, found, reached, { limit, items });
}

interface Candidate {
  id: string;
  hops: number;
  /** Order of discovery: newest items of the rarest entities first. */
  order: number;
  /** The entity through which it was reached. */
  via: number;
}

/** Inverse document frequency of an entity: rare entities are strong evidence. */
function specificity(mentions: number, items: number): number {
  return Math.log(1 + Math.max(items, 1) / Math.max(mentions, 1));
}

/**
 * Reads the items naming the level's entities, rarest entity first, until `limit` candidates are
 * found: a further item of this level could only outrank them on evidence, never on hops.
 */
async function collect(
  graph: GraphStore,
  filter: ItemFilter,
  level: readonly Reached[],
  perEntity: number,
  found: Map<string, Candidate>,
  limit: number,
): Promise<void> {
  for (let i = 0; i < level.length && found.size < limit; i += COLLECT_BATCH) {
    const chunk = level.slice(i, i + COLLECT_BATCH);
    const need = Math.min(perEntity, limit - found.size);
    const lists = await graph.itemsMentioning(
      filter,
      chunk.map((r) => ({ entity: r.ref.id, limit: need })),
    );
    lists.forEach((ids, j) => {
      const r = chunk[j]!;
      for (const id of ids)
        if (!found.has(id))
          found.set(id, { id, hops: r.distance + 1, order: found.size, via: r.ref.id });
    });
  }
}

async function addAliases(
  graph: GraphStore,
  reached: Map<number, Reached>,
  from: readonly EntityRef[],
  distance: number,
): Promise<void> {
  if (from.length === 0) return;
  for (const n of await graph.aliasesOf(from.map((r) => r.id))) add(reached, n, distance);
}

function add(reached: Map<number, Reached>, n: Neighbor, distance: number): boolean {
  if (reached.has(n.to.id) || n.to.strong === 0) return false;
  reached.set(n.to.id, { ref: n.to, distance, parent: n.from });
  return true;
}

async function expand(
  graph: GraphStore,
  reached: Map<number, Reached>,
  level: readonly Reached[],
  distance: number,
  limits: TraversalLimits,
): Promise<void> {
  const neighbors = await graph.neighborsOf(
    level.map((r) => r.ref.id),
    limits.maxNeighbors,
  );
  const added: EntityRef[] = [];
  for (const n of neighbors) {
    if (reached.size >= limits.maxReached) break;
    if (add(reached, n, distance)) added.push(n.to);
  }
  await addAliases(graph, reached, added, distance);
}

/**
 * Orders the candidates: fewer hops first (the score is 1/hops); within one hop, stronger
 * evidence first: the specificity of every reached entity the item names, hubs included (an item
 * naming both a query's hub and its rare entity beats one naming the rare entity alone), each
 * discounted by its distance from the query.
 */
async function rank(
  graph: GraphStore,
  space: string,
  found: ReadonlyMap<string, Candidate>,
  reached: ReadonlyMap<number, Reached>,
  size: { limit: number; items: number },
): Promise<GraphHit[]> {
  const candidates = [...found.values()];
  const named = await graph.mentionsOf(
    space,
    candidates.map((c) => c.id),
    [...reached.keys()],
  );
  const evidence = new Map(
    candidates.map((c) => [
      c.id,
      (named.get(c.id) ?? []).reduce((sum, e) => {
        const r = reached.get(e)!;
        return sum + specificity(r.ref.mentions, size.items) / (1 + r.distance);
      }, 0),
    ]),
  );
  const best = candidates
    .sort(
      (a, b) => a.hops - b.hops || evidence.get(b.id)! - evidence.get(a.id)! || a.order - b.order,
    )
    .slice(0, size.limit);
  const paths = best.map((c) => pathTo(reached, c.via));
  const labels = await graph.labels([...new Set(paths.flat())]);
  return best.map((c, i) => ({
    id: c.id,
    hops: c.hops,
    score: 1 / c.hops,
    path: paths[i]!.map((id) => labels.get(id)?.name ?? reached.get(id)!.ref.key),
    evidence: evidence.get(c.id)!,
    via_mentions: reached.get(c.via)!.ref.mentions,
  }));
}

/** Entity ids from the query entity down to `id`. */
export function pathTo(
  reached: ReadonlyMap<number, { parent: number | null }>,
  id: number,
): number[] {
  const path: number[] = [];
  for (
    let at: number | null = id;
    at !== null && path.length < 16;
    at = reached.get(at)?.parent ?? null
  )
    path.unshift(at);
  return path;
}
