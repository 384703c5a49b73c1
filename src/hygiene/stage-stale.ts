/**
 * Stale archival (§10, off by default): an item qualifies only when it is older than
 * `dream.stale.age_days` (a year) with no access, update, use, history change, relation change or
 * touch through an active neighbour in that time. Pinned items, skills, rules, preferences, items
 * not live and items of high importance (`lifecycle.important_threshold`) never qualify. Each
 * archive takes one unit of the daily cap and is restorable.
 */
import { DAY_MS } from '../lifecycle/decay.js';
import { archivePlan, NEVER_MERGED } from '../memories/consolidation.js';
import type { StaleCandidate } from '../store/dream-store.js';
import { applyBatch } from './batch.js';
import type {
  Applied,
  DreamDeps,
  Proposal,
  Proposals,
  StageContext,
  StageRunner,
} from './stage.js';

const PAGE = 1_000;

function days(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

function proposal(c: StaleCandidate, now: number): Proposal {
  const idle = days(now - Math.max(c.last_touched_at, c.neighbour_touched_at ?? 0));
  return {
    action: 'archive',
    items: [c.item.id],
    reason: `stale: untouched for ${idle} days, and nothing related to it either`,
    detail: { before: { [c.item.id]: { status: c.item.status } } },
  };
}

/** The stale stage. */
export const staleStage: StageRunner = {
  stage: 'stale',
  off: ({ config }: DreamDeps) =>
    config.dream.stale.enabled ? null : 'stale archival is off (dream.stale.enabled: false)',
  async propose(sc: StageContext): Promise<Proposals> {
    const { deps, space } = sc;
    const now = deps.now();
    const cutoff = now - deps.config.dream.stale.age_days * DAY_MS;
    const proposals: Proposal[] = [];
    let afterId: string | undefined;
    for (;;) {
      if (sc.shouldStop()) return { proposals, complete: false };
      const page = await deps.dreams.staleCandidates(space, {
        createdBefore: cutoff,
        maxImportance: deps.config.lifecycle.important_threshold,
        excludeKinds: NEVER_MERGED,
        limit: PAGE,
        afterId,
      });
      for (const c of page)
        if (c.last_touched_at < cutoff && (c.neighbour_touched_at ?? 0) < cutoff)
          proposals.push(proposal(c, now));
      if (page.length < PAGE) return { proposals, complete: true };
      afterId = page[page.length - 1]!.item.id;
    }
  },
  apply: (sc: StageContext, proposals: readonly Proposal[]): Promise<Applied[]> =>
    applyBatch(sc, proposals, {
      cap: { name: 'stale', limit: sc.deps.config.dream.stale.daily_cap },
      operation: 'archive',
      ids: (p) => [p.items[0]!],
      plan: (p) => archivePlan(p.items[0]!, 'stale', sc.meta('stale'), sc.space),
      detail: (p, _before, after) => {
        const id = p.items[0]!;
        return { before: p.detail.before, after: { [id]: { status: after.get(id)?.status } } };
      },
    }),
};
