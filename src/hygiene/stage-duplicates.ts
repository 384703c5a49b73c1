/**
 * Merging near-duplicates (§10): items of one space and kind whose vectors are close AND whose
 * texts overlap (a synonym counts, a differing number, name or negation never does). The lesser
 * item becomes `merged` with a `merged_into` relation to the keeper; the keeper may take the
 * lesser's sentences it lacks as a new version (never new text). Skills, rules, preferences and
 * pinned items are never merged away. Each merge takes one unit of the daily cap.
 */
import type { DiaryDetail } from '../domain/dreams.js';
import type { ItemRecord } from '../domain/records.js';
import { embeddingText } from '../domain/text.js';
import { KINDS } from '../domain/types.js';
import { mergePlan, NEVER_MERGED } from '../memories/consolidation.js';
import { LIVE } from '../memories/plans.js';
import { applyBatch } from './batch.js';
import { type DuplicateItem, findDuplicates, unionBody } from './duplicates.js';
import { allItems, vectorsOf } from './items.js';
import type {
  Applied,
  DreamDeps,
  Proposal,
  Proposals,
  StageContext,
  StageRunner,
} from './stage.js';

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

/** What a merge changed, before and after, for the diary and for undo. */
function mergeDetail(
  p: Proposal,
  before: ReadonlyMap<string, ItemRecord>,
  after: ReadonlyMap<string, ItemRecord>,
  relationId: string,
): DiaryDetail {
  const [lesser, keeper] = p.items as [string, string];
  return {
    ...p.detail,
    relation_id: relationId,
    before: {
      [lesser]: { status: before.get(lesser)?.status, kind: before.get(lesser)?.kind },
      [keeper]: { version: before.get(keeper)?.version },
    },
    after: {
      [lesser]: { status: after.get(lesser)?.status },
      [keeper]: { version: after.get(keeper)?.version },
    },
  };
}

/** The duplicates stage. */
export const duplicatesStage: StageRunner = {
  stage: 'duplicates',
  off: ({ config }: DreamDeps) =>
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
  async apply(sc: StageContext, proposals: readonly Proposal[]): Promise<Applied[]> {
    const { deps, space } = sc;
    const settings = deps.config.dream.duplicates;
    const words = settings.union_bodies ? await deps.words() : undefined;
    const applied = await applyBatch(sc, proposals, {
      cap: { name: 'merge', limit: settings.daily_cap },
      operation: 'merge',
      ids: (p) => p.items,
      plan: (p, before, relationId) => {
        const [lesserId, keeperId] = p.items as [string, string];
        const [lesser, keeper] = [before.get(lesserId), before.get(keeperId)];
        const revision =
          settings.union_bodies && lesser && keeper
            ? { body: unionBody(keeper.body, lesser.body, words), fromVersion: keeper.version }
            : undefined;
        return mergePlan(lesserId, keeperId, sc.meta('merge'), space, revision, relationId);
      },
      detail: (p, before, after, relationId) => mergeDetail(p, before, after, relationId),
    });
    // A keeper that took the lesser's sentences waits for its new vector.
    const revised = (a: Applied) =>
      a.outcome === 'applied' &&
      Object.entries(a.detail.before ?? {}).some(
        ([id, b]) => b.version !== undefined && a.detail.after?.[id]?.version !== b.version,
      );
    if (applied.some(revised)) deps.vectorsPending();
    return applied;
  },
};
