/**
 * Cross-domain links (§4, §6): a memory used in a context whose domain differs from its own is
 * related (`related`, actor `engram:cross-domain`) to the other memories used in that context, so
 * the knowledge graph joins their entities and the graph channel can later reach the memory from
 * that other domain. One live relation per pair at most, whatever its type or direction; a link
 * someone invalidated is history and is not made again by later uses.
 */
import { newId } from '../domain/ids.js';
import type { RelationRecord } from '../domain/records.js';
import type { Mutation, MutationContext, MutationPlan, Store } from '../store/store.js';

/** The actor of the relations cross-domain use creates. */
export const CROSS_DOMAIN_ACTOR = 'engram:cross-domain';

/** At most this many context memories are linked to one used memory per call, in call order. */
export const MAX_CONTEXT_LINKS = 10;

/** A used memory: its id and whether its use crossed domains. */
export interface UsedMemory {
  id: string;
  cross_domain: boolean;
}

/** A link to create: from the memory used across domains to a memory of its context. */
export interface LinkPair {
  from: string;
  to: string;
}

/** The context a use happened in, as the link's reason describes it. */
export interface LinkContext {
  tags: readonly string[];
  area?: string;
  conversation_id?: string;
}

const MAX_REASON = 500;

/** The unordered key of a pair of memories. */
function pairKey(a: string, b: string): string {
  return a < b ? `${a}\n${b}` : `${b}\n${a}`;
}

/**
 * The candidate pairs of one call: every memory used across domains with the other memories used
 * in the same call (at most MAX_CONTEXT_LINKS each), each unordered pair once.
 */
export function crossDomainPairs(used: readonly UsedMemory[]): LinkPair[] {
  const seen = new Set<string>();
  const pairs: LinkPair[] = [];
  for (const m of used) {
    if (!m.cross_domain) continue;
    let n = 0;
    for (const c of used) {
      if (n >= MAX_CONTEXT_LINKS) break;
      if (c.id === m.id) continue;
      n++;
      const key = pairKey(m.id, c.id);
      if (seen.has(key)) continue;
      seen.add(key);
      pairs.push({ from: m.id, to: c.id });
    }
  }
  return pairs;
}

/** The reason recorded on a cross-domain link: where the use happened. */
export function linkReason(context: LinkContext): string {
  const parts = [
    context.tags.length ? `tags ${context.tags.join(', ')}` : '',
    context.area ? `area ${context.area}` : '',
    context.conversation_id ? `conversation ${context.conversation_id}` : '',
  ].filter(Boolean);
  const reason = `cross-domain use${parts.length ? ` (${parts.join('; ')})` : ''}`;
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason;
}

/** Pairs that some cross-domain link, live or invalidated, already joined. */
export function linkedBefore(history: readonly RelationRecord[]): Set<string> {
  return new Set(
    history.filter((r) => r.actor === CROSS_DOMAIN_ACTOR).map((r) => pairKey(r.from_id, r.to_id)),
  );
}

/**
 * The plan that relates each pair not yet joined by a live relation (any type, either direction)
 * nor by an earlier cross-domain link (`before`). It runs in the store's write transaction, so
 * concurrent uses of the same pair create one relation.
 */
export function crossDomainLinkPlan(
  pairs: readonly LinkPair[],
  before: ReadonlySet<string>,
  meta: { space: string; reason: string; now: number },
): MutationPlan {
  return (ctx: MutationContext): Mutation => {
    const joined = new Set([...before, ...ctx.relations.map((r) => pairKey(r.from_id, r.to_id))]);
    const addRelations: RelationRecord[] = [];
    for (const { from, to } of pairs) {
      const key = pairKey(from, to);
      if (joined.has(key) || !ctx.items.has(from) || !ctx.items.has(to)) continue;
      joined.add(key);
      addRelations.push({
        id: newId(meta.now),
        space: meta.space,
        type: 'related',
        from_id: from,
        to_id: to,
        actor: CROSS_DOMAIN_ACTOR,
        reason: meta.reason,
        created_at: meta.now,
        invalidated_at: null,
        invalidated_reason: null,
      });
    }
    return { changes: [], addRelations };
  };
}

/** What creating the links of one call needs. */
export interface LinkDeps {
  store: Pick<Store, 'relations'>;
  mutate: (
    space: string,
    ids: readonly string[],
    plan: MutationPlan,
    operation: string,
  ) => Promise<unknown>;
}

/**
 * Creates the cross-domain links of one observe call through the service's one mutate path;
 * returns, per memory used across domains, the memories it was newly related to.
 */
export async function createCrossDomainLinks(
  deps: LinkDeps,
  space: string,
  used: readonly UsedMemory[],
  context: LinkContext,
  now: number,
): Promise<Map<string, string[]>> {
  const pairs = crossDomainPairs(used);
  const created = new Map<string, string[]>();
  if (pairs.length === 0) return created;
  const from = [...new Set(pairs.map((p) => p.from))];
  const history = (await Promise.all(from.map((id) => deps.store.relations(space, id)))).flat();
  const ids = [...new Set(pairs.flatMap((p) => [p.from, p.to]))];
  const plan = crossDomainLinkPlan(pairs, linkedBefore(history), {
    space,
    reason: linkReason(context),
    now,
  });
  await deps.mutate(space, ids, recorded(plan, created), 'cross_domain_link');
  return created;
}

/** Wraps a plan so the relations it adds are noted (from -> to ids) once it has run. */
function recorded(plan: MutationPlan, into: Map<string, string[]>): MutationPlan {
  return (ctx) => {
    const mutation = plan(ctx);
    into.clear();
    for (const r of mutation.addRelations ?? [])
      into.set(r.from_id, [...(into.get(r.from_id) ?? []), r.to_id]);
    return mutation;
  };
}
