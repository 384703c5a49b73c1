/**
 * Conflicts (§10): a close pair of the same kind whose texts state different facts (another
 * number, name or a negation) may be one memory overtaken by a later one. Only a decision adapter
 * that judges conflicts decides it (`recall.decision.adapter: openai-compatible`); without one this
 * stage does nothing and only an explicit `supersede` records a conflict. A pair the adapter finds
 * contradicting is recorded as the later memory superseding the earlier (`supersedes` relation,
 * earlier `superseded`), restorable and undone with its run.
 */
import type { ItemRecord } from '../domain/records.js';
import { supersedePlan } from '../memories/plans.js';
import { applyBatch } from './batch.js';
import { findDuplicates } from './duplicates.js';
import { byBest } from './neighbours.js';
import type {
  Applied,
  DreamDeps,
  Proposal,
  Proposals,
  StageContext,
  StageRunner,
} from './stage.js';
import { duplicateItems } from './stage-duplicates.js';

/** Guard reasons that say the two texts state different facts (candidates for a conflict). */
const FACT_GUARDS = new Set([
  'numbers differ',
  'names differ',
  'negation differs',
  'alternative words differ',
]);

const round = (x: number) => Math.round(x * 1000) / 1000;

async function judge(sc: StageContext, earlier: string, later: string): Promise<number | null> {
  const settings = sc.deps.config.dream.conflicts;
  try {
    return await sc.deps.conflicts!(earlier, later, AbortSignal.timeout(settings.timeout_ms));
  } catch (err) {
    sc.deps.log.warn('conflict judgement failed; the pair is left alone', { error: String(err) });
    return null;
  }
}

/** The conflicts stage. */
export const conflictsStage: StageRunner = {
  stage: 'conflicts',
  off: (deps: DreamDeps) =>
    !deps.config.dream.conflicts.enabled
      ? 'conflict judgement is off (dream.conflicts.enabled: false)'
      : deps.conflicts
        ? null
        : 'no decision adapter that judges conflicts (recall.decision.adapter: openai-compatible); only an explicit supersede records one',
  async propose(sc: StageContext): Promise<Proposals> {
    const { deps } = sc;
    const settings = deps.config.dream.conflicts;
    if (!deps.conflicts) return { proposals: [], complete: true, note: 'no conflict judge' };
    const read = await duplicateItems(sc);
    const dup = deps.config.dream.duplicates;
    const found = await findDuplicates(read.items, {
      similarity: dup.similarity,
      overlap: dup.overlap,
      neighbours: dup.neighbours,
      words: await deps.words(),
      shouldStop: sc.shouldStop,
    });
    const texts = new Map(read.items.map((i) => [i.id, i]));
    // The closest pairs first: the likeliest to state one fact two ways.
    const candidates = found.rejected
      .filter((r) => FACT_GUARDS.has(r.reason))
      .sort(byBest)
      .slice(0, settings.max_per_run);
    const proposals: Proposal[] = [];
    for (const c of candidates) {
      if (sc.shouldStop()) return { proposals, complete: false };
      const [a, b] = [texts.get(c.a)!, texts.get(c.b)!];
      const [earlier, later] = a.created_at <= b.created_at ? [a, b] : [b, a];
      const p = await judge(sc, earlier.text, later.text);
      if (p === null || p < settings.min_probability) continue;
      proposals.push({
        action: 'supersede',
        items: [earlier.id, later.id],
        reason: `the later memory contradicts the earlier (${c.reason})`,
        detail: { similarity: round(c.similarity), probability: round(p) },
      });
    }
    const left = found.rejected.filter((r) => FACT_GUARDS.has(r.reason)).length - candidates.length;
    const note = left > 0 ? `${left} more close pairs left for a later run` : undefined;
    return { proposals, complete: read.complete && found.complete, note };
  },
  apply: (sc: StageContext, proposals: readonly Proposal[]): Promise<Applied[]> =>
    applyBatch(sc, proposals, {
      operation: 'supersede',
      ids: (p) => p.items,
      plan: (p, _before, relationId) =>
        supersedePlan(p.items[0]!, p.items[1]!, sc.meta('conflict'), sc.space, relationId),
      detail: (p, before: ReadonlyMap<string, ItemRecord>, after, relationId) => {
        const old = p.items[0]!;
        return {
          ...p.detail,
          relation_id: relationId,
          before: { [old]: { status: before.get(old)?.status } },
          after: { [old]: { status: after.get(old)?.status } },
        };
      },
    }),
};
