/**
 * Skill library upkeep (§10): structural duplicates of a skill are archived with a `merged_into`
 * relation to the skill kept, then each area keeps at most `dream.skills.max_active_per_area`
 * active skills, the least used archived first. Pinned skills are never archived; both are
 * restorable.
 */
import type { ItemRecord } from '../domain/records.js';
import { archivePlan } from '../memories/consolidation.js';
import { LIVE } from '../memories/plans.js';
import { applyBatch } from './batch.js';
import { allItems } from './items.js';
import { skillCapExcess, skillDuplicates, type SkillItem } from './skills.js';
import type {
  Applied,
  DreamDeps,
  Proposal,
  Proposals,
  StageContext,
  StageRunner,
} from './stage.js';

function skillItem(item: ItemRecord): SkillItem {
  const { id, area, title, body, pinned, use_count, last_used_at, updated_at, created_at } = item;
  return { id, area, title, body, pinned, use_count, last_used_at, updated_at, created_at };
}

/** The skills stage. */
export const skillsStage: StageRunner = {
  stage: 'skills',
  off: ({ config }: DreamDeps) =>
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
  apply: (sc: StageContext, proposals: readonly Proposal[]): Promise<Applied[]> =>
    applyBatch(sc, proposals, {
      operation: 'archive',
      ids: (p) => p.items,
      plan: (p, _before, relationId) => {
        const [id, keeper] = p.items as [string, string | undefined];
        const reason = p.action === 'skill_dedupe' ? 'skill-dedupe' : 'skill-cap';
        return archivePlan(id, reason, sc.meta(reason), sc.space, keeper, relationId);
      },
      detail: (p, _before, after, relationId) => {
        const id = p.items[0]!;
        const detail = { ...p.detail, after: { [id]: { status: after.get(id)?.status } } };
        return p.items.length > 1 ? { ...detail, relation_id: relationId } : detail;
      },
    }),
};
