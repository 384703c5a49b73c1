/**
 * Applying one change of a stage: under a daily cap when it has one (§10: merges and stale
 * archives, counted per space and UTC day across runs and processes), and turning a change that
 * the store refused because the item changed meanwhile into a skip with its reason.
 */
import type { DiaryDetail, DreamCap } from '../domain/dreams.js';
import { EngramError } from '../domain/errors.js';
import { type Applied, capDay, type StageContext } from './stage.js';

/** What a change did: its details, and the items it touched when they differ from the proposal's. */
type Change = DiaryDetail | { detail: DiaryDetail; items: string[] };

const CAP_NAMES: Record<DreamCap, string> = { merge: 'merges', stale: 'stale archives' };

/** Runs a change; a CONFLICT or NOT_FOUND from its plan becomes a skip that says why. */
export async function applyChange(change: () => Promise<Change>): Promise<Applied> {
  try {
    const done = await change();
    return 'detail' in done && 'items' in done
      ? { outcome: 'applied', detail: done.detail, items: done.items }
      : { outcome: 'applied', detail: done as DiaryDetail };
  } catch (err) {
    if (err instanceof EngramError && (err.code === 'CONFLICT' || err.code === 'NOT_FOUND'))
      return { outcome: 'skipped', reason: `changed meanwhile: ${err.message}` };
    throw err;
  }
}

/** Runs a change under one unit of a daily cap; the unit is given back when the change did not apply. */
export async function applyCapped(
  sc: StageContext,
  cap: DreamCap,
  limit: number,
  change: () => Promise<Change>,
): Promise<Applied> {
  const day = capDay(sc.deps.now());
  if (!(await sc.deps.dreams.claimCap(sc.space, cap, day, limit)))
    return { outcome: 'skipped', reason: `daily cap reached: ${limit} ${CAP_NAMES[cap]} a day` };
  let applied: Applied | undefined;
  try {
    applied = await applyChange(change);
    return applied;
  } finally {
    if (applied?.outcome !== 'applied') await sc.deps.dreams.releaseCap(sc.space, cap, day);
  }
}
