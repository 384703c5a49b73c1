/**
 * Dream runs on SQLite (§10): runs, their stage rows and append-only diaries, and the daily caps.
 * Every write is one of the store's immediate transactions, so a cap's check and increment, a
 * diary's numbering and a run's finalisation are each one step across processes on the file.
 */
import type { DreamCap, DreamRunState, DreamStage, StageState } from '../../domain/dreams.js';
import {
  capUsageOf,
  type CountRow,
  latest,
  type NewRun,
  newRunRecord,
  type RunColumns,
  runExists,
  runRecords,
  type StageRow,
  stageTimeColumn,
  UNFINISHED_STAGES,
} from '../dream-rows.js';
import type {
  DiaryEntryRecord,
  DreamIntent,
  DreamRunRecord,
  DreamStore,
  NewDiaryEntry,
  RunEnd,
  StaleCandidate,
} from '../dream-store.js';
import { decodeCursor, encodeCursor } from '../item-rows.js';
import { itemFromRow, type ItemRow } from './rows.js';
import type { StoreCore } from './store-core.js';

/** A dream_runs row as SQLite returns it. */
type RunRow = Omit<RunColumns, 'dry_run'> & { dry_run: number };

/** A dream_entries row as SQLite returns it (items and detail as JSON text). */
type EntryRow = Omit<DiaryEntryRecord, 'items' | 'detail'> & { items: string; detail: string };

/** An items row with its last touch and its live active neighbours' last touch, per direction. */
type StaleRow = ItemRow & {
  touched_at: number;
  neighbour_out: number | null;
  neighbour_in: number | null;
};

const INSERT_RUN = `INSERT INTO dream_runs (id, space, dry_run, state, diary, started_at, job_id)
VALUES (@id, @space, @dry_run, 'running', 'open', @started_at, @job_id) ON CONFLICT (id) DO NOTHING`;

const INSERT_ENTRY = `INSERT INTO dream_entries (run_id, seq, stage, action, outcome, reason, items, detail, at)
VALUES (@run_id, @seq, @stage, @action, @outcome, @reason, @items, @detail, @at)`;

/** The newest of a relation's creation and invalidation. */
const RELATION_TOUCH = 'max(r.created_at, coalesce(r.invalidated_at, 0))';
/** The newest update, access or use of the item aliased `n`. */
const ITEM_TOUCH = (n: string) =>
  `max(${n}.updated_at, coalesce(${n}.last_accessed_at, 0), coalesce(${n}.last_used_at, 0))`;
/** The newest touch of the live active items at the other end of a relation in one direction. */
const NEIGHBOUR = (self: string, other: string) => `(SELECT max(${ITEM_TOUCH('n')})
  FROM relations r JOIN items n ON n.id = r.${other}
  WHERE r.${self} = i.id AND r.invalidated_at IS NULL AND coalesce(n.status, 'active') = 'active')`;

/**
 * Stale candidates (see DreamStore.staleCandidates); a legacy null status reads as active. The
 * page is chosen first, walking the id index from `@after` (`+space`, `+created_at`: a space
 * index would read and sort every old item of the space for each page), and the touches are then
 * looked up for the page's items only.
 */
const STALE_SQL = `SELECT i.*,
  max(${ITEM_TOUCH('i')},
    coalesce((SELECT max(v.created_at) FROM versions v WHERE v.item_id = i.id), 0),
    coalesce((SELECT max(e.at) FROM status_events e WHERE e.item_id = i.id), 0),
    coalesce((SELECT max(${RELATION_TOUCH}) FROM relations r WHERE r.from_id = i.id), 0),
    coalesce((SELECT max(${RELATION_TOUCH}) FROM relations r WHERE r.to_id = i.id), 0)
  ) AS touched_at,
  ${NEIGHBOUR('from_id', 'to_id')} AS neighbour_out,
  ${NEIGHBOUR('to_id', 'from_id')} AS neighbour_in
FROM (
  SELECT pk FROM items
  WHERE +space = @space AND coalesce(status, 'active') IN ('active', 'candidate', 'challenged')
    AND +created_at < @before AND pinned = 0 AND importance < @importance
    AND kind NOT IN (SELECT value FROM json_each(@kinds)) AND id > @after
  ORDER BY id LIMIT @limit
) AS page CROSS JOIN items i ON i.pk = page.pk
ORDER BY i.id`;

const entryOf = (row: EntryRow): DiaryEntryRecord => ({
  ...row,
  items: JSON.parse(row.items) as string[],
  detail: JSON.parse(row.detail) as DiaryEntryRecord['detail'],
});

/** The SQLite dream store, over the store's connection and write queue. */
export class SqliteDreamStore implements DreamStore {
  constructor(private readonly core: StoreCore) {}

  /** Runs with their stages and counts (inside a read or write). */
  private load(rows: readonly RunRow[]): DreamRunRecord[] {
    if (rows.length === 0) return [];
    const ids = JSON.stringify(rows.map((r) => r.id));
    const stages = this.core
      .prepared('SELECT * FROM dream_stages WHERE run_id IN (SELECT value FROM json_each(?))')
      .all(ids) as StageRow[];
    const counts = this.core
      .prepared(
        `SELECT run_id, stage, outcome, count(*) AS n FROM dream_entries
WHERE run_id IN (SELECT value FROM json_each(?)) GROUP BY run_id, stage, outcome`,
      )
      .all(ids) as CountRow[];
    const runs = rows.map((r) => ({ ...r, dry_run: r.dry_run === 1 }));
    return runRecords(runs, stages, counts);
  }

  /** The diary state of a run, or undefined when there is no such run. */
  private diaryOf(runId: string): string | undefined {
    const row = this.core.prepared('SELECT diary FROM dream_runs WHERE id = ?').get(runId);
    return (row as { diary: string } | undefined)?.diary;
  }

  createRun(run: NewRun): Promise<DreamRunRecord> {
    const record = newRunRecord(run);
    return this.core.write(() => {
      const inserted = this.core.prepared(INSERT_RUN).run({
        id: run.id,
        space: run.space,
        dry_run: run.dry_run ? 1 : 0,
        started_at: run.started_at,
        job_id: run.job_id,
      });
      if (inserted.changes === 0) throw runExists(run.id);
      const stage = this.core.prepared(
        'INSERT INTO dream_stages (run_id, stage, state) VALUES (?, ?, ?)',
      );
      for (const s of record.stages) stage.run(run.id, s.stage, s.state);
      return record;
    });
  }

  async setStage(
    runId: string,
    stage: DreamStage,
    change: { state: StageState; at: number; note?: string | null },
  ): Promise<void> {
    const column = stageTimeColumn(change.state);
    const note = change.note === undefined ? '' : ', note = @note';
    // A finalised diary's stages are final too: a late change from a straggler is ignored.
    await this.core.write(() =>
      this.core
        .prepared(
          `UPDATE dream_stages SET state = @state${column ? `, ${column} = @at` : ''}${note}
WHERE run_id = @runId AND stage = @stage
  AND (SELECT diary FROM dream_runs WHERE id = @runId) = 'open'`,
        )
        .run({ runId, stage, state: change.state, at: change.at, note: change.note ?? null }),
    );
  }

  appendEntries(runId: string, entries: readonly NewDiaryEntry[]): Promise<boolean> {
    return this.core.write(() => {
      if (this.diaryOf(runId) !== 'open') return false;
      const last = this.core
        .prepared('SELECT coalesce(max(seq), 0) AS seq FROM dream_entries WHERE run_id = ?')
        .get(runId) as { seq: number };
      const insert = this.core.prepared(INSERT_ENTRY);
      entries.forEach((e, n) =>
        insert.run({
          ...e,
          run_id: runId,
          seq: last.seq + n + 1,
          items: JSON.stringify(e.items),
          detail: JSON.stringify(e.detail),
        }),
      );
      this.core.prepared('UPDATE dream_runs SET intent = NULL WHERE id = ?').run(runId);
      return true;
    });
  }

  setIntent(runId: string, intent: DreamIntent): Promise<boolean> {
    return this.core.write(
      () =>
        this.core
          .prepared("UPDATE dream_runs SET intent = ? WHERE id = ? AND diary = 'open'")
          .run(JSON.stringify(intent), runId).changes > 0,
    );
  }

  async intent(runId: string): Promise<DreamIntent | null> {
    const row = this.core.prepared('SELECT intent FROM dream_runs WHERE id = ?').get(runId) as
      | { intent: string | null }
      | undefined;
    return row?.intent ? (JSON.parse(row.intent) as DreamIntent) : null;
  }

  finishRun(runId: string, end: RunEnd): Promise<boolean> {
    return this.core.write(() => {
      const finished = this.core
        .prepared(
          `UPDATE dream_runs SET state = @state, diary = @diary, reason = @reason, finished_at = @at
WHERE id = @runId AND diary = 'open'`,
        )
        .run({ ...end, runId });
      if (finished.changes === 0) return false;
      this.core
        .prepared(
          `UPDATE dream_stages SET state = 'cut_short', finished_at = @at, note = coalesce(note, @reason)
WHERE run_id = @runId AND state IN (SELECT value FROM json_each(@unfinished))`,
        )
        .run({
          runId,
          at: end.at,
          reason: end.reason,
          unfinished: JSON.stringify(UNFINISHED_STAGES),
        });
      return true;
    });
  }

  markUndone(runId: string, at: number): Promise<boolean> {
    return this.core.write(
      () =>
        this.core
          .prepared('UPDATE dream_runs SET undone_at = ? WHERE id = ? AND undone_at IS NULL')
          .run(at, runId).changes > 0,
    );
  }

  async markEntriesUndone(runId: string, seqs: readonly number[]): Promise<void> {
    if (seqs.length === 0) return;
    await this.core.write(() =>
      this.core
        .prepared(
          `UPDATE dream_entries SET detail = json_set(detail, '$.undone', json('true'))
WHERE run_id = ? AND seq IN (SELECT value FROM json_each(?))`,
        )
        .run(runId, JSON.stringify(seqs)),
    );
  }

  async getRun(space: string, id: string): Promise<DreamRunRecord | undefined> {
    return this.core.read(() => {
      const row = this.core
        .prepared('SELECT * FROM dream_runs WHERE id = ? AND space = ?')
        .get(id, space) as RunRow | undefined;
      return row && this.load([row])[0];
    });
  }

  async listRuns(
    space: string,
    options: { limit: number; cursor?: string; states?: readonly DreamRunState[] },
  ): Promise<{ runs: DreamRunRecord[]; next_cursor: string | null }> {
    const [at, id] = options.cursor === undefined ? [] : decodeCursor(options.cursor);
    const states = options.states && JSON.stringify(options.states);
    const { limit } = options;
    const runs = this.core.read(() => {
      const rows = this.core.db
        .prepare(
          `SELECT * FROM dream_runs WHERE space = @space
${states === undefined ? '' : 'AND state IN (SELECT value FROM json_each(@states))'}
${at === undefined ? '' : 'AND (started_at, id) < (@at, @id)'}
ORDER BY started_at DESC, id DESC LIMIT @limit`,
        )
        .all({ space, states, at, id, limit: limit + 1 }) as RunRow[];
      return this.load(rows);
    });
    const page = runs.slice(0, limit);
    const last = page[page.length - 1];
    const more = runs.length > limit && last;
    return { runs: page, next_cursor: more ? encodeCursor(last.started_at, last.id) : null };
  }

  async entries(
    runId: string,
    options: { afterSeq?: number; limit?: number } = {},
  ): Promise<DiaryEntryRecord[]> {
    const rows = this.core.read(
      () =>
        this.core
          .prepared('SELECT * FROM dream_entries WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?')
          // LIMIT -1: no limit.
          .all(runId, options.afterSeq ?? 0, options.limit ?? -1) as EntryRow[],
    );
    return rows.map(entryOf);
  }

  async claimCap(
    space: string,
    cap: DreamCap,
    day: string,
    limit: number,
    units = 1,
  ): Promise<number> {
    if (limit <= 0 || units <= 0) return 0;
    // Inside BEGIN IMMEDIATE: the check and the increment are one step across processes.
    return this.core.write(() => {
      const row = this.core
        .prepared('SELECT used FROM dream_caps WHERE space = ? AND cap = ? AND day = ?')
        .get(space, cap, day) as { used: number } | undefined;
      const granted = Math.max(0, Math.min(units, limit - (row?.used ?? 0)));
      if (granted > 0)
        this.core
          .prepared(
            `INSERT INTO dream_caps (space, cap, day, used) VALUES (@space, @cap, @day, @granted)
ON CONFLICT (space, cap, day) DO UPDATE SET used = used + @granted`,
          )
          .run({ space, cap, day, granted });
      return granted;
    });
  }

  async releaseCap(space: string, cap: DreamCap, day: string, units = 1): Promise<void> {
    await this.core.write(() =>
      this.core
        .prepared(
          'UPDATE dream_caps SET used = max(0, used - ?) WHERE space = ? AND cap = ? AND day = ?',
        )
        .run(units, space, cap, day),
    );
  }

  async capUsage(space: string, day: string): Promise<Record<DreamCap, number>> {
    const rows = this.core.read(
      () =>
        this.core
          .prepared('SELECT cap, used FROM dream_caps WHERE space = ? AND day = ?')
          .all(space, day) as { cap: string; used: number }[],
    );
    return capUsageOf(rows);
  }

  async areas(space: string): Promise<{ area: string; items: number }[]> {
    return this.core.read(
      () =>
        this.core
          .prepared(
            `SELECT area, count(*) AS items FROM items
WHERE space = ? AND coalesce(status, 'active') NOT IN ('forgotten', 'merged', 'superseded')
GROUP BY area ORDER BY area`,
          )
          .all(space) as { area: string; items: number }[],
    );
  }

  async staleCandidates(
    space: string,
    options: {
      createdBefore: number;
      maxImportance: number;
      excludeKinds: readonly string[];
      limit: number;
      afterId?: string;
    },
  ): Promise<StaleCandidate[]> {
    const rows = this.core.read(
      () =>
        this.core.prepared(STALE_SQL).all({
          space,
          before: options.createdBefore,
          importance: options.maxImportance,
          kinds: JSON.stringify(options.excludeKinds),
          after: options.afterId ?? '',
          limit: options.limit,
        }) as StaleRow[],
    );
    return rows.map((row) => ({
      item: itemFromRow(row),
      last_touched_at: row.touched_at,
      neighbour_touched_at: latest(row.neighbour_out, row.neighbour_in),
    }));
  }

  async lastRunAt(space: string | null): Promise<number | undefined> {
    const row = this.core.read(() =>
      space === null
        ? this.core.prepared('SELECT max(started_at) AS at FROM dream_runs').get()
        : this.core
            .prepared('SELECT max(started_at) AS at FROM dream_runs WHERE space = ?')
            .get(space),
    ) as { at: number | null };
    return row.at ?? undefined;
  }
}
