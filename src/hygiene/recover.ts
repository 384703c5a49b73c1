/**
 * Recovering a run's write-ahead intent (§10, §1.5): a run stopped between a batch's changes and
 * its diary entries (its process killed, or a transaction of the batch failing after earlier ones
 * committed) leaves the batch's intent behind. Whoever finalises the run (the run itself when a
 * stage fails, or the next run closing an orphan) turns each proposal of the intent into the entry
 * the run would have written, from what the store shows the run's actor (`dream:<run id>`) did:
 * its status events, the relations it created, the versions it wrote and the moves it made. A
 * proposal the store shows no change for is logged as skipped, so the diary lists every change the
 * run made and its undo can restore them all.
 */
import type { DiaryDetail, ItemState } from '../domain/dreams.js';
import type { StatusEventRecord } from '../domain/records.js';
import type { DreamIntent, NewDiaryEntry } from '../store/dream-store.js';
import type { DreamDeps, StageContext } from './stage.js';
import { itemsIn } from './stage-folds.js';

/** The status each action leaves its first item in. */
const LEAVES: Record<string, string> = {
  merge: 'merged',
  supersede: 'superseded',
  skill_dedupe: 'archived',
  skill_cap: 'archived',
  archive: 'archived',
};

/** The reason of a proposal the run never applied. */
export const NOT_APPLIED = 'not applied: the run stopped before this change was made';

type Proposal = DreamIntent['proposals'][number];

/** The last status event the run made on an item to the status its action leaves. */
function lastEvent(
  events: readonly StatusEventRecord[],
  actor: string,
  to: string,
): StatusEventRecord | undefined {
  return events.filter((e) => e.actor === actor && e.to_status === to).at(-1);
}

/** The entry of a status-changing proposal (merge, supersede, archives), from the store. */
async function statusEntry(
  deps: DreamDeps,
  space: string,
  actor: string,
  p: Proposal,
): Promise<{ detail: DiaryDetail; at: number } | null> {
  const id = p.items[0]!;
  const event = lastEvent(await deps.store.statusEvents(space, id), actor, LEAVES[p.action]!);
  if (!event) return null;
  const [item] = await deps.store.getItems(space, [id]);
  const relation = (await deps.store.relations(space, id)).find(
    (r) => r.actor === actor && p.items.includes(r.from_id) && p.items.includes(r.to_id),
  );
  const before: Record<string, ItemState> = {
    [id]: { status: event.from_status ?? 'active', ...(item && { kind: item.kind }) },
  };
  const after: Record<string, ItemState> = { [id]: { status: event.to_status } };
  const keeper = p.action === 'merge' ? p.items[1] : undefined;
  if (keeper !== undefined) {
    const versions = await deps.store.versions(space, keeper);
    const made = versions.filter((v) => v.actor === actor).at(-1);
    const current = versions.at(-1)?.version;
    before[keeper] = { version: made ? made.version - 1 : current };
    after[keeper] = { version: made ? made.version : current };
  }
  const detail: DiaryDetail = {
    ...p.detail,
    ...(relation && { relation_id: relation.id }),
    before,
    after,
  };
  return { detail, at: event.at };
}

/** The items a fold moved: those in its target area that came from its source at or after `at`. */
async function foldEntry(
  sc: StageContext,
  p: Proposal,
  at: number,
): Promise<{ items: string[]; at: number } | null> {
  const { from_area: from, to_area: to } = p.detail;
  if (from === undefined || to === undefined) return null;
  const moved = (await itemsIn(sc, to)).filter(
    (i) => i.prior?.area === from && Date.parse(i.prior.at ?? '') >= at,
  );
  return moved.length === 0 ? null : { items: moved.map((i) => i.id), at };
}

/** The diary entries of an intent left behind, from what the store shows the run did. */
export async function recoverIntent(
  sc: StageContext,
  runId: string,
  intent: DreamIntent,
): Promise<NewDiaryEntry[]> {
  const actor = `dream:${runId}`;
  const out: NewDiaryEntry[] = [];
  for (const p of intent.proposals) {
    const base = { stage: intent.stage, action: p.action, items: p.items, reason: p.reason };
    const skipped = { ...base, outcome: 'skipped' as const, detail: p.detail, at: intent.at };
    if (p.action === 'fold') {
      const fold = await foldEntry(sc, p, intent.at);
      out.push(
        fold
          ? { ...base, items: fold.items, outcome: 'applied', detail: p.detail, at: fold.at }
          : { ...skipped, reason: NOT_APPLIED },
      );
      continue;
    }
    const found = await statusEntry(sc.deps, sc.space, actor, p);
    out.push(
      found
        ? { ...base, outcome: 'applied', detail: found.detail, at: found.at }
        : { ...skipped, reason: NOT_APPLIED },
    );
  }
  return out;
}
