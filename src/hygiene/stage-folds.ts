/**
 * Area folding (§10): structurally similar area names (case, plural, punctuation, edit distance)
 * are judged by a sample of their contents; a pair whose contents agree is folded (every item of
 * the source moves to the target, its content unchanged, its prior area audited so it can be
 * restored alone), an uncertain pair is left alone, and at most `dream.folds.max_per_run` fold per
 * run.
 */
import { EngramError } from '../domain/errors.js';
import { type Status, STATUSES } from '../domain/types.js';
import { LIVE, movePlan } from '../memories/plans.js';
import type { MutationPlan } from '../store/store.js';
import { type FoldCandidate, judgeFold, proposeFolds } from './areas.js';
import { allItems, vectorsOf } from './items.js';
import type {
  Applied,
  DreamDeps,
  Proposal,
  Proposals,
  StageContext,
  StageRunner,
} from './stage.js';

const BATCH = 200;

/** The items whose area is exactly `area` (the filter matches by prefix, and maybe case). */
export async function itemsIn(
  sc: StageContext,
  area: string,
  statuses: readonly Status[] = STATUSES,
) {
  const { items } = await allItems(sc, { statuses, areas: [area] });
  return items.filter((i) => i.area === area);
}

async function sample(sc: StageContext, area: string): Promise<Float32Array[]> {
  const live = (await itemsIn(sc, area, LIVE)).slice(0, sc.deps.config.dream.folds.sample);
  return [
    ...(
      await vectorsOf(
        sc,
        live.map((i) => i.id),
      )
    ).values(),
  ];
}

async function judge(sc: StageContext, c: FoldCandidate): Promise<Proposal> {
  const base = sc.deps.config.dream.folds.min_content_similarity;
  const verdict = judgeFold(await sample(sc, c.from), await sample(sc, c.to), base, c.why);
  const similarity = Math.round(verdict.similarity * 1000) / 1000;
  const detail = { from_area: c.from, to_area: c.to, similarity };
  return verdict.verdict === 'fold'
    ? { action: 'fold', items: [], reason: `similar names (${c.why}) and contents`, detail }
    : {
        action: 'fold',
        items: [],
        reason: `left alone: similar names (${c.why}) but contents not clearly the same`,
        detail,
        skip: true,
      };
}

/**
 * Moves every item of area `from` (any status) to `to`, its content unchanged and its prior area
 * audited, in batches; returns the ids moved.
 */
export async function moveArea(sc: StageContext, from: string, to: string): Promise<string[]> {
  const moved: string[] = [];
  const ids = (await itemsIn(sc, from)).map((i) => i.id);
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH);
    const items = await sc.deps.mutate(sc.space, batch, moveAll(batch, from, to, sc), 'fold');
    moved.push(...items.filter((item) => item.area === to).map((item) => item.id));
  }
  return moved;
}

/** Moves the items of a batch still in `from` to `to`, each keeping its prior area. */
function moveAll(ids: readonly string[], from: string, to: string, sc: StageContext): MutationPlan {
  const meta = sc.meta('fold');
  return (ctx) => ({
    changes: ids
      .filter((id) => ctx.items.get(id)?.area === from)
      .flatMap((id) => movePlan(id, to, meta)(ctx).changes),
  });
}

/** One fold; a CONFLICT or NOT_FOUND (an item changed meanwhile) becomes a skip that says why. */
async function foldOne(sc: StageContext, p: Proposal): Promise<Applied> {
  try {
    const items = await moveArea(sc, p.detail.from_area!, p.detail.to_area!);
    return { outcome: 'applied', detail: p.detail, items };
  } catch (err) {
    if (err instanceof EngramError && (err.code === 'CONFLICT' || err.code === 'NOT_FOUND'))
      return { outcome: 'skipped', reason: `changed meanwhile: ${err.message}` };
    throw err;
  }
}

/** The folds stage. */
export const foldsStage: StageRunner = {
  stage: 'folds',
  off: ({ config }: DreamDeps) =>
    config.dream.folds.enabled && config.dream.folds.max_per_run > 0
      ? null
      : 'area folding is off (dream.folds)',
  async propose(sc: StageContext): Promise<Proposals> {
    const max = sc.deps.config.dream.folds.max_per_run;
    const proposals: Proposal[] = [];
    let folds = 0;
    let left = 0;
    for (const candidate of proposeFolds(await sc.deps.dreams.areas(sc.space))) {
      if (sc.shouldStop()) return { proposals, complete: false };
      if (folds >= max) {
        left++;
        continue;
      }
      const p = await judge(sc, candidate);
      if (!p.skip) folds++;
      proposals.push(p);
    }
    const note = left > 0 ? `${left} more candidate pairs left for a later run` : undefined;
    return { proposals, complete: true, note };
  },
  async apply(sc: StageContext, proposals: readonly Proposal[]): Promise<Applied[]> {
    const out: Applied[] = [];
    for (const p of proposals) out.push(await foldOne(sc, p));
    return out;
  },
};
