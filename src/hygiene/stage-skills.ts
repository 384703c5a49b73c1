/**
 * Skill library upkeep (§10): structural duplicates of a skill are archived with a `merged_into`
 * relation to the skill kept, then each area keeps at most `dream.skills.max_active_per_area`
 * active skills, the least used archived first. Pinned skills are never archived; both are
 * restorable.
 */
import type { Config } from '../config/schema.js';
import type { ItemRecord } from '../domain/records.js';
import { archivePlan } from '../memories/consolidation.js';
import { LIVE } from '../memories/plans.js';
import { applyChange } from './caps.js';
import { allItems } from './items.js';
import { skillCapExcess, skillDuplicates, type SkillItem } from './skills.js';
import type { Applied, Proposal, Proposals, StageContext, StageRunner } from './stage.js';

function skillItem(item: ItemRecord): SkillItem {
  const { id, area, title, body, pinned, use_count, last_used_at, updated_at, created_at } = item;
  return { id, area, title, body, pinned, use_count, last_used_at, updated_at, created_at };
}

/** The skills stage. */
export const skillsStage: StageRunner = {
  stage: 'skills',
  off: (config: Config) =>
    config.dream.skills.enabled ? null : 'skill upkeep is off (dream.skills.enabled: false)',
  async propose(sc: StageContext): Promise<Proposals> {
    const { items, complete } = await allItems(sc, { statuses: LIVE, kinds: ['skill'] });
    const skills = items.map(skillItem);
    const status = new Map(items.map((i) => [i.id, i.status]));
    const before = (id: string) => ({ [id]: { status: status.get(id) } });
    const dupes = skillDuplicates(skills);
    const gone = new Set(dupes.map((d) => d.lesser));
    const excess = skillCapExcess(
      skills.filter((s) => !gone.has(s.id)),
      sc.deps.config.dream.skills.max_active_per_area,
    );
    const proposals: Proposal[] = [
      ...dupes.map(
        (d): Proposal => ({
          action: 'skill_dedupe',
          items: [d.lesser, d.keeper],
          reason: d.reason,
          detail: { before: before(d.lesser) },
        }),
      ),
      ...excess.map(
        (e): Proposal => ({
          action: 'skill_cap',
          items: [e.id],
          reason: e.reason,
          detail: { before: before(e.id), from_area: e.area },
        }),
      ),
    ];
    return { proposals, complete };
  },
  async apply(sc: StageContext, p: Proposal): Promise<Applied> {
    const [id, keeper] = p.items as [string, string | undefined];
    const reason = p.action === 'skill_dedupe' ? 'skill-dedupe' : 'skill-cap';
    return applyChange(async () => {
      const plan = archivePlan(id, reason, sc.meta(reason), sc.space, keeper);
      const [item] = await sc.deps.mutate(sc.space, keeper ? [id, keeper] : [id], plan, 'archive');
      const detail = { ...p.detail, after: { [id]: { status: item?.status } } };
      if (!keeper) return detail;
      const relation = (await sc.deps.store.relations(sc.space, id)).find(
        (r) => r.type === 'merged_into' && r.to_id === keeper && r.invalidated_at === null,
      );
      return { ...detail, relation_id: relation?.id };
    });
  },
};
