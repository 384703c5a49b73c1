/**
 * Merging near-duplicates (§10): items of one space and kind whose vectors are close AND whose
 * texts overlap (a synonym counts, a differing number, name or negation never does). The lesser
 * item becomes `merged` with a `merged_into` relation to the keeper; the keeper may take the
 * lesser's sentences it lacks as a new version (never new text). Skills, rules, preferences and
 * pinned items are never merged away. Each merge takes one unit of the daily cap.
 */
import type { Config } from '../config/schema.js';
import { embeddingText } from '../domain/text.js';
import { KINDS } from '../domain/types.js';
import { mergePlan, NEVER_MERGED } from '../memories/consolidation.js';
import { LIVE } from '../memories/plans.js';
import { applyCapped } from './caps.js';
import { type DuplicateItem, findDuplicates, unionBody } from './duplicates.js';
import { allItems, vectorsOf } from './items.js';
import type { Applied, Proposal, Proposals, StageContext, StageRunner } from './stage.js';

const MERGEABLE = KINDS.filter((k) => !NEVER_MERGED.includes(k));

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The live mergeable items of the space with their vectors (items without one are left out). */
export async function duplicateItems(
  sc: StageContext,
): Promise<{ items: DuplicateItem[]; complete: boolean; missing: number }> {
  const read = await allItems(sc, { statuses: LIVE, kinds: MERGEABLE });
  const vectors = await vectorsOf(
    sc,
    read.items.map((i) => i.id),
  );
  const items = read.items.map((i) => ({
    id: i.id,
    kind: i.kind,
    text: embeddingText(i),
    vector: vectors.get(i.id) ?? null,
    pinned: i.pinned,
    importance: i.importance,
    use_count: i.use_count,
    access_count: i.access_count,
    created_at: i.created_at,
  }));
  return { items, complete: read.complete, missing: items.filter((i) => !i.vector).length };
}

/** The duplicates stage. */
export const duplicatesStage: StageRunner = {
  stage: 'duplicates',
  off: (config: Config) =>
    config.dream.duplicates.enabled ? null : 'merging is off (dream.duplicates.enabled: false)',
  async propose(sc: StageContext): Promise<Proposals> {
    const settings = sc.deps.config.dream.duplicates;
    const read = await duplicateItems(sc);
    const found = await findDuplicates(read.items, {
      similarity: settings.similarity,
      overlap: settings.overlap,
      neighbours: settings.neighbours,
      words: await sc.deps.words(),
      shouldStop: sc.shouldStop,
    });
    const proposals = found.pairs.map(
      (p): Proposal => ({
        action: 'merge',
        items: [p.lesser, p.keeper],
        reason: p.reason,
        detail: { similarity: round(p.similarity), overlap: round(p.overlap) },
        ...(p.skip && { skip: true }),
      }),
    );
    const notes = [
      `${read.items.length} items examined`,
      read.missing > 0 ? `${read.missing} without a vector left out` : '',
      found.rejected.length > 0 ? `${found.rejected.length} close pairs judged distinct` : '',
    ];
    return {
      proposals,
      complete: read.complete && found.complete,
      note: notes.filter(Boolean).join('; '),
    };
  },
  async apply(sc: StageContext, p: Proposal): Promise<Applied> {
    const [lesserId, keeperId] = p.items as [string, string];
    const { deps, space } = sc;
    return applyCapped(sc, 'merge', deps.config.dream.duplicates.daily_cap, async () => {
      const [lesser, keeper] = await Promise.all(
        [lesserId, keeperId].map(async (id) => (await deps.store.getItems(space, [id]))[0]),
      );
      const revision =
        deps.config.dream.duplicates.union_bodies && lesser && keeper
          ? {
              body: unionBody(keeper.body, lesser.body, await deps.words()),
              fromVersion: keeper.version,
            }
          : undefined;
      const plan = mergePlan(lesserId, keeperId, sc.meta('merge'), space, revision);
      const after = await deps.mutate(space, [lesserId, keeperId], plan, 'merge');
      const now = new Map(after.map((i) => [i.id, i]));
      if (now.get(keeperId)?.version !== keeper?.version) deps.vectorsPending();
      const relation = (await deps.store.relations(space, lesserId)).find(
        (r) => r.type === 'merged_into' && r.to_id === keeperId && r.invalidated_at === null,
      );
      return {
        ...p.detail,
        relation_id: relation?.id,
        before: {
          [lesserId]: { status: lesser?.status, kind: lesser?.kind },
          [keeperId]: { version: keeper?.version },
        },
        after: {
          [lesserId]: { status: now.get(lesserId)?.status },
          [keeperId]: { version: now.get(keeperId)?.version },
        },
      };
    });
  },
};
