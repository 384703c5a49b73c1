/**
 * `dream undo RUN` (§10): restores everything one run changed that has not been changed since, in
 * the reverse order of the run, and says what it could not restore and why. Each revert is a
 * mutation plan that checks the item is still as the run left it, inside the store's transaction.
 */
import type { DreamAction, ItemState, UndoReport } from '../domain/dreams.js';
import { EngramError, notFound } from '../domain/errors.js';
import type { Kind, Status } from '../domain/types.js';
import {
  revertAreaPlan,
  revertStatusPlan,
  revertVersionPlan,
  type SkipReport,
} from '../memories/consolidation.js';
import type { DiaryEntryRecord } from '../store/dream-store.js';
import type { MutationPlan } from '../store/store.js';
import type { DreamDeps } from './stage.js';

/** One revert: the item, its plan, and where a skip is reported. */
type Revert = (skip: SkipReport) => Promise<{ id: string; plan: MutationPlan }>;

/** Undoes a finished run's applied changes. */
export async function undoRun(
  deps: DreamDeps,
  space: string,
  runId: string,
  actor = `dream-undo:${runId}`,
): Promise<UndoReport> {
  const run = await deps.dreams.getRun(space, runId);
  if (!run) throw notFound('dream run', runId);
  if (run.state === 'running')
    throw new EngramError('CONFLICT', `dream run ${runId} is still running`, {
      id: runId,
      rule: 'a finished run',
    });
  if (run.undone_at !== null)
    throw new EngramError(
      'CONFLICT',
      `dream run ${runId} was undone at ${new Date(run.undone_at).toISOString()}`,
      { id: runId, rule: 'not undone yet' },
    );
  const entries = (await deps.dreams.entries(runId)).filter(
    (e) => e.outcome === 'applied' && !e.detail.undone,
  );
  const report: UndoReport = { run_id: runId, restored: [], not_restored: [] };
  const meta = { actor, reason: 'undo', now: deps.now() };
  for (const entry of entries.reverse()) await undoEntry(deps, space, entry, meta, report);
  await deps.dreams.markEntriesUndone(
    runId,
    entries.map((e) => e.seq),
  );
  await deps.dreams.markUndone(runId, deps.now());
  // A keeper's body returned to its earlier version waits for its vector.
  if (entries.some((e) => e.action === 'merge')) deps.vectorsPending();
  return report;
}

async function undoEntry(
  deps: DreamDeps,
  space: string,
  entry: DiaryEntryRecord,
  meta: { actor: string; reason: string; now: number },
  report: UndoReport,
): Promise<void> {
  let failures = 0;
  for (const revert of reverts(deps, space, entry, meta)) {
    const why: string[] = [];
    const step = await revert((reason) => why.push(reason));
    if (!step) continue;
    await deps.mutate(space, [step.id], step.plan, 'undo');
    for (const reason of why.slice(0, 1)) {
      failures++;
      report.not_restored.push({ seq: entry.seq, action: entry.action, item: step.id, reason });
    }
  }
  if (failures === 0)
    report.restored.push({ seq: entry.seq, action: entry.action, items: entry.items });
}

function before(entry: DiaryEntryRecord, id: string): ItemState {
  return entry.detail.before?.[id] ?? {};
}

/** The reverts of one diary entry, by its action. */
function reverts(
  deps: DreamDeps,
  space: string,
  entry: DiaryEntryRecord,
  meta: { actor: string; reason: string; now: number },
): Revert[] {
  const relations = entry.detail.relation_id ? [entry.detail.relation_id] : [];
  const status = (id: string, expect: Status, rels: readonly string[]): Revert => {
    const prior = before(entry, id);
    const revert = {
      expect,
      status: (prior.status ?? 'active') as Status,
      kind: prior.kind as Kind | undefined,
      relations: rels,
    };
    return async (skip) => ({ id, plan: revertStatusPlan(id, revert, meta, skip) });
  };
  const byAction: Record<DreamAction, () => Revert[]> = {
    merge: () => [
      status(entry.items[0]!, 'merged', relations),
      ...keeperRevert(deps, space, entry, meta),
    ],
    supersede: () => [status(entry.items[0]!, 'superseded', relations)],
    skill_dedupe: () => [status(entry.items[0]!, 'archived', relations)],
    archive: () => [status(entry.items[0]!, 'archived', [])],
    skill_cap: () => [status(entry.items[0]!, 'archived', [])],
    fold: () =>
      entry.items.map((id): Revert => {
        const area = { expect: entry.detail.to_area ?? '', to: entry.detail.from_area ?? '' };
        return async (skip) => ({ id, plan: revertAreaPlan(id, area, meta, skip) });
      }),
  };
  return byAction[entry.action]();
}

/** The revert of a keeper's body revision by a merge, when the merge made one. */
function keeperRevert(
  deps: DreamDeps,
  space: string,
  entry: DiaryEntryRecord,
  meta: { actor: string; reason: string; now: number },
): Revert[] {
  const keeper = entry.items[1];
  const from = keeper === undefined ? undefined : before(entry, keeper).version;
  const to = keeper === undefined ? undefined : entry.detail.after?.[keeper]?.version;
  if (keeper === undefined || from === undefined || to === undefined || from === to) return [];
  return [
    async (skip) => {
      const old = (await deps.store.versions(space, keeper)).find((v) => v.version === from);
      if (!old) {
        skip(`version ${from} of the keeper is gone (purged)`);
        return { id: keeper, plan: () => ({ changes: [] }) };
      }
      const content = { title: old.title, body: old.body, tags: old.tags };
      return { id: keeper, plan: revertVersionPlan(keeper, to, content, meta, skip) };
    },
  ];
}
