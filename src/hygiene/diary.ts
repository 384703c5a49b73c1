/** The caller-facing shapes of stored dream runs and diary entries (ISO times, stage counts). */
import type { DiaryEntry, DreamRun, StageSummary } from '../domain/dreams.js';
import type { DiaryEntryRecord, DreamRunRecord } from '../store/dream-store.js';

const iso = (at: number | null) => (at === null ? null : new Date(at).toISOString());

/** A stored run as callers see it. */
export function toDreamRun(run: DreamRunRecord): DreamRun {
  const stages = run.stages.map((s): StageSummary => {
    const counts = run.counts[s.stage];
    return {
      stage: s.stage,
      state: s.state,
      proposed: counts?.proposed ?? 0,
      applied: counts?.applied ?? 0,
      skipped: counts?.skipped ?? 0,
      started_at: iso(s.started_at),
      finished_at: iso(s.finished_at),
      note: s.note,
    };
  });
  return {
    id: run.id,
    space: run.space,
    dry_run: run.dry_run,
    state: run.state,
    diary: run.diary,
    reason: run.reason,
    stages,
    started_at: new Date(run.started_at).toISOString(),
    finished_at: iso(run.finished_at),
    undone_at: iso(run.undone_at),
    job_id: run.job_id,
  };
}

/** A stored diary entry as callers see it. */
export function toDiaryEntry(entry: DiaryEntryRecord): DiaryEntry {
  const { seq, stage, action, outcome, reason, items, detail, at } = entry;
  return { seq, stage, action, outcome, reason, items, detail, at: new Date(at).toISOString() };
}
