/**
 * Applying a stage's proposals in batches: each batch of proposals over distinct items is one
 * mutation (one transaction), under one claim of the daily cap when the stage has one. A proposal
 * whose plan refuses (the item changed meanwhile) is skipped alone, and its cap unit given back;
 * proposals past the cap are skipped with the cap as the reason.
 */
import type { DiaryDetail, DreamCap } from '../domain/dreams.js';
import { newId } from '../domain/ids.js';
import type { ItemRecord } from '../domain/records.js';
import { combinedPlan } from '../memories/consolidation.js';
import type { MutationPlan } from '../store/store.js';
import { type Applied, capDay, type Proposal, type StageContext } from './stage.js';

/** How a stage applies its proposals. */
export interface BatchSpec {
  /** The daily cap the changes count against, when they do. */
  cap?: { name: DreamCap; limit: number };
  /** The change's operation name for write observers (`merge`, `archive`). */
  operation: string;
  /** The items a proposal changes (never twice in one transaction). */
  ids(p: Proposal): string[];
  /** The plan of one proposal, from the items as they are before the batch. */
  plan(p: Proposal, before: ReadonlyMap<string, ItemRecord>, relationId: string): MutationPlan;
  /** The diary details of an applied proposal. */
  detail(
    p: Proposal,
    before: ReadonlyMap<string, ItemRecord>,
    after: ReadonlyMap<string, ItemRecord>,
    relationId: string,
  ): DiaryDetail;
}

const CAP_NAMES: Record<DreamCap, string> = { merge: 'merges', stale: 'stale archives' };

/** Consecutive runs of proposals in which no item repeats, in order. */
function disjointGroups(proposals: readonly Proposal[], ids: BatchSpec['ids']): Proposal[][] {
  const groups: Proposal[][] = [];
  let seen = new Set<string>();
  let group: Proposal[] = [];
  for (const p of proposals) {
    const mine = ids(p);
    if (mine.some((id) => seen.has(id))) {
      groups.push(group);
      group = [];
      seen = new Set();
    }
    mine.forEach((id) => seen.add(id));
    group.push(p);
  }
  if (group.length > 0) groups.push(group);
  return groups;
}

const byId = (items: readonly ItemRecord[]) => new Map(items.map((i) => [i.id, i]));

async function applyGroup(
  sc: StageContext,
  group: Proposal[],
  spec: BatchSpec,
): Promise<Applied[]> {
  const { deps, space } = sc;
  const day = capDay(deps.now());
  const granted = spec.cap
    ? await deps.dreams.claimCap(space, spec.cap.name, day, spec.cap.limit, group.length)
    : group.length;
  const capped: Applied[] = group.slice(granted).map(() => ({
    outcome: 'skipped',
    reason: `daily cap reached: ${spec.cap!.limit} ${CAP_NAMES[spec.cap!.name]} a day`,
  }));
  const take = group.slice(0, granted);
  if (take.length === 0) return capped;
  const ids = [...new Set(take.flatMap((p) => spec.ids(p)))];
  const before = byId(await deps.store.getItems(space, ids));
  const relations = take.map(() => newId(deps.now()));
  const failures = new Map<number, string>();
  const plan = combinedPlan(
    take.map((p, i) => spec.plan(p, before, relations[i]!)),
    (i, err) => failures.set(i, `changed meanwhile: ${err.message}`),
  );
  const after = byId(await deps.mutate(space, ids, plan, spec.operation));
  if (spec.cap && failures.size > 0)
    await deps.dreams.releaseCap(space, spec.cap.name, day, failures.size);
  const applied = take.map((p, i): Applied => {
    const why = failures.get(i);
    return why !== undefined
      ? { outcome: 'skipped', reason: why }
      : { outcome: 'applied', detail: spec.detail(p, before, after, relations[i]!) };
  });
  return [...applied, ...capped];
}

/** Applies proposals in order, a transaction per run of proposals over distinct items. */
export async function applyBatch(
  sc: StageContext,
  proposals: readonly Proposal[],
  spec: BatchSpec,
): Promise<Applied[]> {
  const out: Applied[] = [];
  for (const group of disjointGroups(proposals, spec.ids))
    out.push(...(await applyGroup(sc, group, spec)));
  return out;
}
