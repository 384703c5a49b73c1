/**
 * Mutation plans: the domain rules of every change to existing memories, as pure functions of the
 * current state. The store runs a plan inside its write transaction, so rules and writes are atomic.
 */
import { EngramError, notFound } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { ItemRecord, RelationRecord } from '../domain/records.js';
import { bodyHash } from '../domain/text.js';
import type { RelationType, Status } from '../domain/types.js';
import type {
  ItemChange,
  Mutation,
  MutationContext,
  MutationPlan,
  VectorWrite,
} from '../store/store.js';

/** Who does a change, when and why. */
export interface ChangeMeta {
  actor: string | null;
  reason: string | null;
  now: number;
}

/** Statuses in which an item takes part in recall and can be changed. */
export const LIVE: readonly Status[] = ['active', 'candidate', 'challenged'];
const RESTORABLE: readonly Status[] = ['forgotten', 'archived', 'superseded', 'merged'];

/** The item of the plan's context, or NOT_FOUND. */
export function must(ctx: MutationContext, id: string): ItemRecord {
  const item = ctx.items.get(id);
  if (!item) throw notFound('memory', id);
  return item;
}

function mustBeLive(item: ItemRecord, action: string): void {
  if (item.status === 'forgotten')
    throw new EngramError(
      'CONFLICT',
      `memory ${item.id} is forgotten; restore it before you ${action} it`,
      { id: item.id, rule: 'not forgotten' },
    );
}

/** A status change of one item, its prior status and kind kept for restore, as an event. */
export function statusChange(
  item: ItemRecord,
  to: Status,
  meta: ChangeMeta,
  reason: string,
): ItemChange {
  return {
    id: item.id,
    patch: {
      status: to,
      updated_at: meta.now,
      prior: {
        status: item.status,
        at: new Date(meta.now).toISOString(),
        reason,
      },
    },
    statusEvent: {
      id: newId(meta.now),
      from_status: item.status,
      to_status: to,
      reason: meta.reason ?? reason,
      actor: meta.actor,
      at: meta.now,
    },
  };
}

/** Applies `change` to one existing item; a no-op when `change` returns null. */
export function single(
  id: string,
  change: (item: ItemRecord, ctx: MutationContext) => ItemChange | null,
): MutationPlan {
  return (ctx) => {
    const next = change(must(ctx, id), ctx);
    return { changes: next ? [next] : [] };
  };
}

/** Forget: hidden from recall, reversible (§1.5). Forgetting a forgotten item changes nothing. */
export function forgetPlan(id: string, meta: ChangeMeta): MutationPlan {
  return single(id, (item) =>
    item.status === 'forgotten' ? null : statusChange(item, 'forgotten', meta, 'forget'),
  );
}

/**
 * Restore: a forgotten, archived, superseded or merged item returns to its prior live status
 * (active when none is recorded) and prior kind; relations its removal created are invalidated.
 */
export function restorePlan(id: string, meta: ChangeMeta): MutationPlan {
  return (ctx) => {
    const item = must(ctx, id);
    if (!RESTORABLE.includes(item.status)) return { changes: restoreArea(item, meta) };
    const target =
      item.prior?.status && LIVE.includes(item.prior.status) ? item.prior.status : 'active';
    const change = statusChange(item, target, meta, 'restore');
    if (item.prior?.kind) change.patch = { ...change.patch, kind: item.prior.kind };
    const undone = ctx.relations.filter(
      (r) =>
        (item.status === 'superseded' && r.type === 'supersedes' && r.to_id === id) ||
        ((item.status === 'merged' || item.status === 'archived') &&
          r.type === 'merged_into' &&
          r.from_id === id),
    );
    return {
      changes: [change],
      invalidateRelations: undone.map((r) => ({ id: r.id, at: meta.now, reason: 'restore' })),
    };
  };
}

/**
 * Restore of a live item: a move (or an area fold) recorded its prior area, so the item goes back
 * there; the audit then records the restore, so a second restore changes nothing.
 */
function restoreArea(item: ItemRecord, meta: ChangeMeta): ItemChange[] {
  const area = item.prior?.area;
  if (area === undefined || area === item.area) return [];
  const at = new Date(meta.now).toISOString();
  return [{ id: item.id, patch: { area, updated_at: meta.now, prior: { at, reason: 'restore' } } }];
}

/** Pin or unpin. */
export function pinPlan(id: string, pinned: boolean, meta: ChangeMeta): MutationPlan {
  return single(id, (item) =>
    item.pinned === pinned ? null : { id, patch: { pinned, updated_at: meta.now } },
  );
}

/** Move to another area, keeping the prior area for an audited undo. */
export function movePlan(id: string, area: string, meta: ChangeMeta): MutationPlan {
  return single(id, (item) =>
    item.area === area
      ? null
      : {
          id,
          patch: {
            area,
            updated_at: meta.now,
            prior: {
              // A hidden item keeps what its restore needs (its prior status and kind).
              ...(RESTORABLE.includes(item.status) && {
                status: item.prior?.status,
                kind: item.prior?.kind,
              }),
              area: item.area,
              at: new Date(meta.now).toISOString(),
              reason: meta.reason ?? 'move',
            },
          },
        },
  );
}

/** Add and remove tags. */
export function tagPlan(
  id: string,
  add: readonly string[],
  remove: readonly string[],
  maxTags: number,
  meta: ChangeMeta,
): MutationPlan {
  return single(id, (item) => {
    const drop = new Set(remove);
    const tags = [...new Set([...item.tags.filter((t) => !drop.has(t)), ...add])];
    if (tags.length > maxTags)
      throw new EngramError('INVALID_INPUT', `tags: must have at most ${maxTags} tags`, {
        field: 'tags',
        rule: `at most ${maxTags}`,
      });
    if (tags.join('\u0000') === item.tags.join('\u0000')) return null;
    return { id, patch: { tags, updated_at: meta.now } };
  });
}

/** Set importance (0..1). */
export function importancePlan(id: string, importance: number, meta: ChangeMeta): MutationPlan {
  return single(id, (item) =>
    item.importance === importance ? null : { id, patch: { importance, updated_at: meta.now } },
  );
}

/** The new content of a revision. */
export interface Revision {
  title?: string | null;
  body?: string;
  tags?: string[];
  /** The vector of the new content, when it was embedded in time (stamped with the embedder model). */
  vector?: { forText: string; write: VectorWrite };
}

/** Revise: a new numbered version of title/body/tags (§1.2). */
export function revisePlan(
  id: string,
  revision: Revision,
  textOf: (c: { title: string | null; body: string; tags: string[] }) => string,
  meta: ChangeMeta,
): MutationPlan {
  return single(id, (item) => {
    mustBeLive(item, 'revise');
    const next = {
      title: revision.title !== undefined ? revision.title : item.title,
      body: revision.body ?? item.body,
      tags: revision.tags ?? item.tags,
    };
    if (
      next.title === item.title &&
      next.body === item.body &&
      next.tags.join('\u0000') === item.tags.join('\u0000')
    )
      return null;
    const vector =
      revision.vector && revision.vector.forText === textOf(next)
        ? revision.vector.write
        : 'pending';
    return {
      id,
      patch: { body_hash: bodyHash(next.body), updated_at: meta.now },
      version: { ...next, actor: meta.actor, reason: meta.reason, at: meta.now },
      vector,
    };
  });
}

/** Supersede: NEW replaces OLD; OLD becomes `superseded` with a `supersedes` relation NEW -> OLD. */
export function supersedePlan(
  oldId: string,
  newId_: string,
  meta: ChangeMeta,
  space: string,
  relationId?: string,
): MutationPlan {
  return (ctx): Mutation => {
    if (oldId === newId_)
      throw new EngramError('INVALID_INPUT', 'new: a memory cannot supersede itself', {
        field: 'new',
        rule: 'different from old',
      });
    const old = must(ctx, oldId);
    const replacement = must(ctx, newId_);
    mustBeLive(replacement, 'use');
    if (
      old.status === 'superseded' &&
      ctx.relations.some(
        (r) => r.type === 'supersedes' && r.from_id === newId_ && r.to_id === oldId,
      )
    )
      return { changes: [] };
    mustBeLive(old, 'supersede');
    return {
      changes: [statusChange(old, 'superseded', meta, 'supersede')],
      addRelations: [relation(space, 'supersedes', newId_, oldId, meta, relationId)],
    };
  };
}

/** A new live relation record. */
export function relation(
  space: string,
  type: RelationType,
  from: string,
  to: string,
  meta: ChangeMeta,
  id: string = newId(meta.now),
): RelationRecord {
  return {
    id,
    space,
    type,
    from_id: from,
    to_id: to,
    actor: meta.actor,
    reason: meta.reason,
    created_at: meta.now,
    invalidated_at: null,
    invalidated_reason: null,
  };
}

/** Relate A -> B with a type; an identical live relation is kept rather than doubled. */
export function relatePlan(
  from: string,
  to: string,
  type: RelationType,
  meta: ChangeMeta,
  space: string,
): MutationPlan {
  return (ctx) => {
    if (from === to)
      throw new EngramError('INVALID_INPUT', 'to: a memory cannot relate to itself', {
        field: 'to',
        rule: 'different from from',
      });
    must(ctx, from);
    must(ctx, to);
    if (ctx.relations.some((r) => r.type === type && r.from_id === from && r.to_id === to))
      return { changes: [] };
    return { changes: [], addRelations: [relation(space, type, from, to, meta)] };
  };
}

/** Invalidate live relations A -> B (of one type, or all); relations are never deleted (§1.2). */
export function unrelatePlan(
  from: string,
  to: string,
  type: RelationType | undefined,
  meta: ChangeMeta,
): MutationPlan {
  return (ctx) => {
    must(ctx, from);
    must(ctx, to);
    const live = ctx.relations.filter(
      (r) => r.from_id === from && r.to_id === to && (type === undefined || r.type === type),
    );
    if (live.length === 0)
      throw new EngramError(
        'NOT_FOUND',
        `no live relation from ${from} to ${to}${type ? ` of type ${type}` : ''}`,
        { rule: 'existing relation' },
      );
    return {
      changes: [],
      invalidateRelations: live.map((r) => ({
        id: r.id,
        at: meta.now,
        reason: meta.reason ?? 'unrelate',
      })),
    };
  };
}
