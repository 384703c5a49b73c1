/**
 * Mutation plans of consolidation (§10): merge a near-duplicate into its keeper, archive an item
 * (stale, or an excess or duplicate skill), and the reverts a dream undo runs. Each is a pure
 * function of the rows the store locked, so a rule and its writes are atomic, and a revert that
 * finds the item changed since changes nothing and says why.
 */
import { EngramError } from '../domain/errors.js';
import type { ItemRecord } from '../domain/records.js';
import { bodyHash } from '../domain/text.js';
import type { Kind, Status } from '../domain/types.js';
import type { ItemChange, Mutation, MutationContext, MutationPlan } from '../store/store.js';
import { type ChangeMeta, LIVE, must, relation, statusChange } from './plans.js';

/** Kinds that are never merged away (§10). */
export const NEVER_MERGED: readonly Kind[] = ['skill', 'rule', 'preference'];

/** The keeper's new content when a merge revises it (the union of the two bodies). */
export interface KeeperRevision {
  body: string;
  /** The keeper's version the revision was made from: a keeper changed meanwhile is not revised. */
  fromVersion: number;
}

function conflict(message: string, id: string, rule: string): EngramError {
  return new EngramError('CONFLICT', message, { id, rule });
}

function mustMerge(lesser: ItemRecord, keeper: ItemRecord): void {
  if (lesser.id === keeper.id)
    throw new EngramError('INVALID_INPUT', 'keeper: a memory cannot be merged into itself', {
      field: 'keeper',
      rule: 'different from the merged memory',
    });
  for (const item of [lesser, keeper])
    if (!LIVE.includes(item.status))
      throw conflict(`memory ${item.id} is ${item.status}`, item.id, 'live memories');
  if (lesser.kind !== keeper.kind)
    throw conflict(`memories ${lesser.id} and ${keeper.id} differ in kind`, lesser.id, 'same kind');
  if (lesser.pinned)
    throw conflict(
      `memory ${lesser.id} is pinned`,
      lesser.id,
      'pinned items are never merged away',
    );
  if (NEVER_MERGED.includes(lesser.kind))
    throw conflict(
      `memory ${lesser.id} is a ${lesser.kind}`,
      lesser.id,
      'skills, rules and preferences are never merged away',
    );
}

/**
 * Merge: the lesser item becomes `merged` (its prior status kept for restore) with a `merged_into`
 * relation to the keeper; the keeper may get a revised body as a new version in the same change.
 */
export function mergePlan(
  lesserId: string,
  keeperId: string,
  meta: ChangeMeta,
  space: string,
  revision?: KeeperRevision,
  relationId?: string,
): MutationPlan {
  return (ctx): Mutation => {
    const lesser = must(ctx, lesserId);
    const keeper = must(ctx, keeperId);
    mustMerge(lesser, keeper);
    const changes: ItemChange[] = [statusChange(lesser, 'merged', meta, 'merge')];
    if (revision && revision.fromVersion === keeper.version && revision.body !== keeper.body)
      changes.push({
        id: keeper.id,
        patch: { body_hash: bodyHash(revision.body), updated_at: meta.now },
        version: {
          title: keeper.title,
          body: revision.body,
          tags: keeper.tags,
          actor: meta.actor,
          reason: meta.reason ?? 'merge',
          at: meta.now,
        },
        vector: 'pending',
      });
    return {
      changes,
      addRelations: [relation(space, 'merged_into', lesserId, keeperId, meta, relationId)],
    };
  };
}

/**
 * Several plans over distinct items as one mutation (one transaction): a plan that refuses (an
 * EngramError: the item changed meanwhile) fails alone and is reported; any other error aborts.
 */
export function combinedPlan(
  plans: readonly MutationPlan[],
  failed: (index: number, error: EngramError) => void,
): MutationPlan {
  return (ctx): Mutation => {
    const out: Required<Mutation> = { changes: [], addRelations: [], invalidateRelations: [] };
    plans.forEach((plan, index) => {
      try {
        const m = plan(ctx);
        out.changes.push(...m.changes);
        out.addRelations.push(...(m.addRelations ?? []));
        out.invalidateRelations.push(...(m.invalidateRelations ?? []));
      } catch (err) {
        if (!(err instanceof EngramError)) throw err;
        failed(index, err);
      }
    });
    return out;
  };
}

/**
 * Archive by consolidation (stale, skill cap, skill dedupe): a live, unpinned item becomes
 * `archived` with the reason; a dedupe also records where it went (`merged_into` the keeper).
 */
export function archivePlan(
  id: string,
  reason: string,
  meta: ChangeMeta,
  space: string,
  keeperId?: string,
  relationId?: string,
): MutationPlan {
  return (ctx): Mutation => {
    const item = must(ctx, id);
    if (!LIVE.includes(item.status))
      throw conflict(`memory ${id} is ${item.status}`, id, 'live memories');
    if (item.pinned)
      throw conflict(`memory ${id} is pinned`, id, 'pinned items are never archived automatically');
    if (keeperId !== undefined) must(ctx, keeperId);
    return {
      changes: [statusChange(item, 'archived', meta, reason)],
      addRelations:
        keeperId === undefined
          ? []
          : [relation(space, 'merged_into', id, keeperId, meta, relationId)],
    };
  };
}

/** The state a revert returns an item to, and the state it must still be in. */
export interface StatusRevert {
  expect: Status;
  status: Status;
  kind?: Kind;
  /** Relations the change created, invalidated by the revert when still live. */
  relations: readonly string[];
}

/** Why a revert changed nothing (the item changed since), reported to the caller. */
export type SkipReport = (reason: string) => void;

function relationsLive(ctx: MutationContext, ids: readonly string[]): boolean {
  return ids.every((id) => ctx.relations.some((r) => r.id === id));
}

/**
 * Undo of a status change a dream run made: only while the item is still in the status the run
 * left it in (and the relation the run created is still live); else nothing changes.
 */
export function revertStatusPlan(
  id: string,
  revert: StatusRevert,
  meta: ChangeMeta,
  skip: SkipReport,
): MutationPlan {
  return reverting(id, skip, (item, ctx) => {
    if (item.status !== revert.expect) return `changed since: the memory is now ${item.status}`;
    if (!relationsLive(ctx, revert.relations)) return 'changed since: its relation was invalidated';
    const change = statusChange(item, revert.status, meta, 'undo');
    if (revert.kind && revert.kind !== item.kind)
      change.patch = { ...change.patch, kind: revert.kind };
    return {
      changes: [change],
      invalidateRelations: revert.relations.map((r) => ({ id: r, at: meta.now, reason: 'undo' })),
    };
  });
}

/** Undo of a move a dream run made (an area fold): only while the item is still in that area. */
export function revertAreaPlan(
  id: string,
  area: { expect: string; to: string },
  meta: ChangeMeta,
  skip: SkipReport,
): MutationPlan {
  return reverting(id, skip, (item) => {
    if (item.area !== area.expect) return 'changed since: the memory was moved again';
    const prior = { at: new Date(meta.now).toISOString(), reason: 'undo' };
    return { changes: [{ id, patch: { area: area.to, updated_at: meta.now, prior } }] };
  });
}

/**
 * A revert of one item: `revert` returns the mutation, or why the item changed since (then nothing
 * changes and the reason is reported); a purged item is reported too.
 */
function reverting(
  id: string,
  skip: SkipReport,
  revert: (item: ItemRecord, ctx: MutationContext) => Mutation | string,
): MutationPlan {
  return (ctx): Mutation => {
    const item = ctx.items.get(id);
    const out = item ? revert(item, ctx) : 'the memory no longer exists (purged)';
    if (typeof out !== 'string') return out;
    skip(out);
    return { changes: [] };
  };
}

/** The content of a version to return to. */
export interface VersionContent {
  title: string | null;
  body: string;
  tags: string[];
}

/**
 * Undo of a keeper's revision by a merge: a new version with the content from before, only while
 * the keeper is still at the version the merge made (history is never rewritten).
 */
export function revertVersionPlan(
  id: string,
  expectVersion: number,
  content: VersionContent,
  meta: ChangeMeta,
  skip: SkipReport,
): MutationPlan {
  return reverting(id, skip, (item) => {
    if (item.version !== expectVersion)
      return `changed since: the memory is at version ${item.version}`;
    if (!LIVE.includes(item.status)) return `changed since: the memory is now ${item.status}`;
    return {
      changes: [
        {
          id,
          patch: { body_hash: bodyHash(content.body), updated_at: meta.now },
          version: { ...content, actor: meta.actor, reason: meta.reason ?? 'undo', at: meta.now },
          vector: 'pending',
        },
      ],
    };
  });
}
