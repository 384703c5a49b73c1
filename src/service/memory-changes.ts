/**
 * Facade for changes to existing memories: revise (a new version), restore a version, forget and
 * restore, purge, pin, move, tag, importance, supersede and relations. Each runs one mutation plan
 * (src/memories/plans.ts) through the one mutate path, so history is never rewritten.
 */
import { EngramError, notFound } from '../domain/errors.js';
import type { ReviseInput } from '../domain/input.js';
import { toMemory, toRelation } from '../domain/memory.js';
import { embeddingText } from '../domain/text.js';
import type { Memory, Relation, RelationType } from '../domain/types.js';
import { parseWith } from '../domain/zod.js';
import * as plans from '../memories/plans.js';
import type { MutationPlan } from '../store/store.js';
import { integerArg, optionalStringArg, optionsArg, stringArg } from './args.js';
import type { ChangeOptions, ServiceContext } from './context.js';

/** The change facade. */
export interface MemoryChanges {
  /** A new version of body, title and/or tags. */
  revise(id: string, input: ReviseInput): Promise<Memory>;
  /** Restores an old version's content as a new version (history is never rewritten). */
  restoreVersion(id: string, version: number, options?: ChangeOptions): Promise<Memory>;
  /** Hides a memory from recall; reversible with restore. */
  forget(id: string, options?: ChangeOptions): Promise<Memory>;
  /** Brings back a forgotten, archived, superseded or merged memory. */
  restore(id: string, options?: ChangeOptions): Promise<Memory>;
  /** Irreversibly deletes a memory's text, versions, vectors and index entries (audited). */
  purge(id: string, options?: ChangeOptions): Promise<{ id: string; purged: true }>;
  /** Pins (never decays, never merged away or archived automatically). */
  pin(id: string, options?: ChangeOptions): Promise<Memory>;
  /** Unpins. */
  unpin(id: string, options?: ChangeOptions): Promise<Memory>;
  /** Moves to another area. */
  move(id: string, area: string, options?: ChangeOptions): Promise<Memory>;
  /** Adds and removes tags. */
  tag(
    id: string,
    change: { add?: string[]; remove?: string[] },
    options?: ChangeOptions,
  ): Promise<Memory>;
  /** Sets importance in 0..1. */
  setImportance(id: string, importance: number, options?: ChangeOptions): Promise<Memory>;
  /** NEW supersedes OLD: OLD leaves recall as `superseded`, with a relation recording why. */
  supersede(
    oldId: string,
    newId: string,
    options?: ChangeOptions,
  ): Promise<{ old: Memory; new: Memory }>;
  /** Relates A -> B (`related` or `derived_from`). */
  relate(
    from: string,
    to: string,
    options?: ChangeOptions & { type?: RelationType },
  ): Promise<Relation[]>;
  /** Invalidates live relations A -> B (kept in history, never deleted). */
  unrelate(
    from: string,
    to: string,
    options?: ChangeOptions & { type?: RelationType },
  ): Promise<void>;
}

/** The change facade over a context. */
export function memoryChanges(ctx: ServiceContext): MemoryChanges {
  const one = async (id: string, options: ChangeOptions, plan: MutationPlan, operation: string) => {
    const [item] = await ctx.mutate(ctx.space(options.space), [id], plan, operation);
    if (!item) throw notFound('memory', id);
    return toMemory(item);
  };
  const revise = async (id: string, input: ReviseInput) =>
    reviseOne(ctx, one, stringArg(id, 'id'), input);
  return {
    revise,
    restoreVersion: async (id, version, given) => {
      const options = checked(id, given);
      integerArg(version, 'version');
      const versions = await ctx.store.versions(ctx.space(options.space), id);
      const old = versions.find((v) => v.version === version);
      if (!old)
        throw new EngramError('NOT_FOUND', `memory ${id} has no version ${version}`, {
          id,
          field: 'version',
          rule: 'existing version',
        });
      return revise(id, {
        space: options.space,
        actor: options.actor,
        reason: options.reason ?? `restore version ${version}`,
        body: old.body,
        title: old.title,
        tags: old.tags,
      });
    },
    forget: async (id, given) => {
      const options = checked(id, given);
      return one(id, options, plans.forgetPlan(id, ctx.meta(options)), 'forget');
    },
    restore: async (id, given) => {
      const options = checked(id, given);
      return one(id, options, plans.restorePlan(id, ctx.meta(options)), 'restore');
    },
    purge: async (id, given) => {
      const options = checked(id, given);
      const meta = ctx.meta(options);
      const space = ctx.space(options.space);
      await ctx.store.purge(space, id, { actor: meta.actor, reason: meta.reason, at: meta.now });
      await ctx.bus.notify({ type: 'purged', space, id });
      return { id, purged: true };
    },
    pin: async (id, given) => {
      const options = checked(id, given);
      return one(id, options, plans.pinPlan(id, true, ctx.meta(options)), 'pin');
    },
    unpin: async (id, given) => {
      const options = checked(id, given);
      return one(id, options, plans.pinPlan(id, false, ctx.meta(options)), 'unpin');
    },
    move: async (id, area, given) => {
      const options = checked(id, given);
      const parsed = parseWith(ctx.schemas.move, area, 'area');
      return one(id, options, plans.movePlan(id, parsed, ctx.meta(options)), 'move');
    },
    tag: async (id, change, given) => {
      const options = checked(id, given);
      const parsed = parseWith(ctx.schemas.tagChange, change);
      const max = ctx.config.limits.max_tags;
      const plan = plans.tagPlan(id, parsed.add, parsed.remove, max, ctx.meta(options));
      return one(id, options, plan, 'tag');
    },
    setImportance: async (id, importance, given) => {
      const options = checked(id, given);
      const parsed = parseWith(ctx.schemas.importance, importance, 'importance');
      return one(id, options, plans.importancePlan(id, parsed, ctx.meta(options)), 'importance');
    },
    supersede: async (oldId, newId, given) => {
      const options = checkedPair(oldId, newId, given, ['old_id', 'new_id']);
      const space = ctx.space(options.space);
      const plan = plans.supersedePlan(oldId, newId, ctx.meta(options), space);
      const items = await ctx.mutate(space, [oldId, newId], plan, 'supersede');
      const byId = new Map(items.map((i) => [i.id, toMemory(i)]));
      return { old: byId.get(oldId)!, new: byId.get(newId)! };
    },
    relate: async (from, to, given) => {
      const options = checkedPair(from, to, given, ['from', 'to']);
      const parsed = parseWith(ctx.schemas.relate, options);
      const space = ctx.space(parsed.space);
      const plan = plans.relatePlan(from, to, parsed.type, ctx.meta(parsed), space);
      await ctx.mutate(space, [from, to], plan, 'relate');
      return (await ctx.store.relations(space, from))
        .filter((r) => r.to_id === to && r.invalidated_at === null)
        .map(toRelation);
    },
    unrelate: async (from, to, given) => {
      const options = checkedPair(from, to, given, ['from', 'to']);
      const plan = plans.unrelatePlan(from, to, options.type, ctx.meta(options));
      await ctx.mutate(ctx.space(options.space), [from, to], plan, 'unrelate');
    },
  };
}

/** A change's id and options, their shapes checked; absent options are `{}`. */
function checked<T extends object>(id: string, options: T | undefined): T {
  stringArg(id, 'id');
  return checkedMeta(optionsArg(options));
}

/** Who and why, when given, are well-formed text (they are stored with the change). */
function checkedMeta<T extends object>(options: T): T {
  const meta = options as { actor?: string; reason?: string };
  optionalStringArg(meta.actor, 'actor');
  optionalStringArg(meta.reason, 'reason');
  return options;
}

/** Two ids (named as given) and options, their shapes checked. */
function checkedPair<T extends object>(
  a: string,
  b: string,
  options: T | undefined,
  [fieldA, fieldB]: [string, string],
): T {
  stringArg(a, fieldA);
  stringArg(b, fieldB);
  return checkedMeta(optionsArg(options));
}

type MutateOne = (
  id: string,
  options: ChangeOptions,
  plan: MutationPlan,
  operation: string,
) => Promise<Memory>;

async function reviseOne(
  ctx: ServiceContext,
  one: MutateOne,
  id: string,
  input: ReviseInput,
): Promise<Memory> {
  const rev = parseWith(ctx.schemas.revise, input);
  const [current] = await ctx.store.getItems(ctx.space(rev.space), [id]);
  if (!current) throw notFound('memory', id);
  const next = {
    title: rev.title !== undefined ? rev.title : current.title,
    body: rev.body ?? current.body,
    tags: rev.tags ? [...new Set(rev.tags)] : current.tags,
  };
  const text = embeddingText(next);
  const embedded = await ctx.vectors.embedForWrite([text], 'write');
  const vector = embedded
    ? { forText: text, write: { model: embedded.model, vector: embedded.vectors[0] ?? null } }
    : undefined;
  // Only the fields the caller changed: the plan takes the rest from the row it locked, so a
  // concurrent change to another field (a tag added meanwhile) is not overwritten.
  const changed = {
    title: rev.title,
    body: rev.body,
    tags: rev.tags ? next.tags : undefined,
    vector,
  };
  const plan = plans.revisePlan(id, changed, embeddingText, ctx.meta(rev));
  const memory = await one(id, rev, plan, 'revise');
  if (memory.vector === 'pending') ctx.vectors.schedule();
  return memory;
}
