/**
 * Dream runs on PostgreSQL (§10), the twin of the SQLite dream store. A diary's writers lock its
 * run row (`FOR UPDATE`, `FOR SHARE` for a stage change), so numbering, appends and finalisation
 * from several processes never interleave; a cap is claimed by one upsert whose `WHERE` re-checks
 * the counter under the row lock, so no two claimers can both take the last unit.
 */
import type { DreamCap, DreamRunState, DreamStage, StageState } from '../../domain/dreams.js';
import {
  capUsageOf,
  type CountRow,
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
import type { PgDatabase, Queryable } from './database.js';
import { ms } from './job-sql.js';
import { assertStorable, itemColumns, itemFromRow, Params, type PgItemRow } from './rows.js';

/** An items row with its last touch and its live active neighbours' last touch. */
type StaleRow = PgItemRow & { touched_at: number; neighbour_touched_at: number | null };

/** Entries as one jsonb array ($3), numbered after $2 in their order. */
const INSERT_ENTRIES = `INSERT INTO dream_entries (run_id, seq, stage, action, outcome, reason, items, detail, at)
SELECT $1, ($2::int4 + e.n)::int4, e.v->>'stage', e.v->>'action', e.v->>'outcome', e.v->>'reason',
  ARRAY(SELECT t FROM jsonb_array_elements_text(e.v->'items') WITH ORDINALITY AS x(t, k) ORDER BY k),
  e.v->'detail', (e.v->>'at')::int8
FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS e(v, n)`;

/** The newest touch of the live active items at the other end of a relation in one direction. */
const NEIGHBOUR = (
  self: string,
  other: string,
) => `(SELECT max(greatest(n.updated_at, n.last_accessed_at, n.last_used_at))
  FROM relations r JOIN items n ON n.id = r.${other}
  WHERE r.${self} = i.id AND r.invalidated_at IS NULL AND coalesce(n.status, 'active') = 'active')`;

/** Stale candidates (see DreamStore.staleCandidates); greatest() skips the missing times. */
const STALE_SQL = `SELECT ${itemColumns('i')},
  greatest(i.updated_at, i.last_accessed_at, i.last_used_at,
    (SELECT max(v.created_at) FROM versions v WHERE v.item_id = i.id),
    (SELECT max(e.at) FROM status_events e WHERE e.item_id = i.id),
    (SELECT max(greatest(r.created_at, r.invalidated_at)) FROM relations r WHERE r.from_id = i.id),
    (SELECT max(greatest(r.created_at, r.invalidated_at)) FROM relations r WHERE r.to_id = i.id)
  ) AS touched_at,
  greatest(${NEIGHBOUR('from_id', 'to_id')}, ${NEIGHBOUR('to_id', 'from_id')}) AS neighbour_touched_at
FROM items i
WHERE i.space = $1 AND coalesce(i.status, 'active') IN ('active', 'candidate', 'challenged')
  AND i.created_at < $2 AND NOT i.pinned AND i.importance < $3
  AND NOT (i.kind = ANY($4::text[])) AND i.id > $5
ORDER BY i.id LIMIT $6`;

/** The PostgreSQL dream store. */
export class PgDreamStore implements DreamStore {
  constructor(private readonly db: PgDatabase) {}

  createRun(run: NewRun): Promise<DreamRunRecord> {
    assertStorable({ id: run.id, space: run.space, job_id: run.job_id }, 'run');
    const record = newRunRecord(run);
    return this.db.transaction(async (tx) => {
      const inserted = await tx.query(
        `INSERT INTO dream_runs (id, space, dry_run, state, diary, started_at, job_id)
VALUES ($1, $2, $3, 'running', 'open', $4, $5) ON CONFLICT (id) DO NOTHING RETURNING id`,
        [run.id, run.space, run.dry_run, ms(run.started_at), run.job_id],
      );
      if (inserted.length === 0) throw runExists(run.id);
      await tx.query(
        'INSERT INTO dream_stages (run_id, stage, state) SELECT $1, * FROM unnest($2::text[], $3::text[])',
        [run.id, record.stages.map((s) => s.stage), record.stages.map((s) => s.state)],
      );
      return record;
    });
  }

  async setStage(
    runId: string,
    stage: DreamStage,
    change: { state: StageState; at: number; note?: string | null },
  ): Promise<void> {
    if (change.note != null) assertStorable(change.note, 'note');
    const params = new Params();
    const sets = [`state = ${params.add(change.state)}`];
    const column = stageTimeColumn(change.state);
    if (column) sets.push(`${column} = ${params.add(ms(change.at))}::int8`);
    if (change.note !== undefined) sets.push(`note = ${params.add(change.note)}`);
    const run = params.add(runId);
    // A finalised diary's stages are final too; FOR SHARE waits for a finishRun under way.
    await this.db.query(
      `WITH run AS (SELECT 1 FROM dream_runs WHERE id = ${run} AND diary = 'open' FOR SHARE)
UPDATE dream_stages SET ${sets.join(', ')}
WHERE run_id = ${run} AND stage = ${params.add(stage)} AND EXISTS (SELECT 1 FROM run)`,
      params.values,
      'write',
    );
  }

  appendEntries(runId: string, entries: readonly NewDiaryEntry[]): Promise<boolean> {
    assertStorable(entries, 'entries');
    return this.db.transaction(async (tx) => {
      if ((await lockedDiary(tx, runId)) !== 'open') return false;
      if (entries.length === 0) return true;
      const [last] = await tx.query<{ seq: number }>(
        'SELECT coalesce(max(seq), 0) AS seq FROM dream_entries WHERE run_id = $1',
        [runId],
      );
      const rows = entries.map((e) => ({ ...e, at: ms(e.at) }));
      await tx.query(INSERT_ENTRIES, [runId, last?.seq ?? 0, JSON.stringify(rows)]);
      await tx.query('UPDATE dream_runs SET intent = NULL WHERE id = $1', [runId]);
      return true;
    });
  }

  async setIntent(runId: string, intent: DreamIntent): Promise<boolean> {
    assertStorable(intent, 'intent');
    const set = await this.db.query(
      `UPDATE dream_runs SET intent = $2::jsonb WHERE id = $1 AND diary = 'open' RETURNING id`,
      [runId, JSON.stringify(intent)],
      'write',
    );
    return set.length > 0;
  }

  async intent(runId: string): Promise<DreamIntent | null> {
    const [row] = await this.db.query<{ intent: DreamIntent | null }>(
      'SELECT intent FROM dream_runs WHERE id = $1',
      [runId],
    );
    return row?.intent ?? null;
  }

  finishRun(runId: string, end: RunEnd): Promise<boolean> {
    if (end.reason !== null) assertStorable(end.reason, 'reason');
    return this.db.transaction(async (tx) => {
      const finished = await tx.query(
        `UPDATE dream_runs SET state = $2, diary = $3, reason = $4, finished_at = $5
WHERE id = $1 AND diary = 'open' RETURNING id`,
        [runId, end.state, end.diary, end.reason, ms(end.at)],
      );
      if (finished.length === 0) return false;
      await tx.query(
        `UPDATE dream_stages SET state = 'cut_short', finished_at = $2, note = coalesce(note, $3)
WHERE run_id = $1 AND state = ANY($4::text[])`,
        [runId, ms(end.at), end.reason, UNFINISHED_STAGES],
      );
      return true;
    });
  }

  async markUndone(runId: string, at: number): Promise<boolean> {
    const rows = await this.db.query(
      'UPDATE dream_runs SET undone_at = $2 WHERE id = $1 AND undone_at IS NULL RETURNING id',
      [runId, ms(at)],
      'write',
    );
    return rows.length > 0;
  }

  async markEntriesUndone(runId: string, seqs: readonly number[]): Promise<void> {
    if (seqs.length === 0) return;
    await this.db.query(
      `UPDATE dream_entries SET detail = detail || '{"undone": true}'::jsonb
WHERE run_id = $1 AND seq = ANY($2::int4[])`,
      [runId, seqs],
      'write',
    );
  }

  async getRun(space: string, id: string): Promise<DreamRunRecord | undefined> {
    const rows = await this.db.query<RunColumns>(
      'SELECT * FROM dream_runs WHERE id = $1 AND space = $2',
      [id, space],
    );
    return (await loadRuns(this.db, rows))[0];
  }

  async listRuns(
    space: string,
    options: { limit: number; cursor?: string; states?: readonly DreamRunState[] },
  ): Promise<{ runs: DreamRunRecord[]; next_cursor: string | null }> {
    const params = new Params();
    const where = [`space = ${params.add(space)}`];
    if (options.states) where.push(`state = ANY(${params.add(options.states, '::text[]')})`);
    if (options.cursor !== undefined) {
      const [at, id] = decodeCursor(options.cursor);
      where.push(`(started_at, id) < (${params.add(at)}::int8, ${params.add(id)})`);
    }
    const rows = await this.db.query<RunColumns>(
      `SELECT * FROM dream_runs WHERE ${where.join(' AND ')}
ORDER BY started_at DESC, id DESC LIMIT ${params.add(options.limit + 1)}`,
      params.values,
    );
    const page = await loadRuns(this.db, rows.slice(0, options.limit));
    const last = page[page.length - 1];
    const more = rows.length > options.limit && last;
    return { runs: page, next_cursor: more ? encodeCursor(last.started_at, last.id) : null };
  }

  entries(
    runId: string,
    options: { afterSeq?: number; limit?: number } = {},
  ): Promise<DiaryEntryRecord[]> {
    // LIMIT NULL: no limit.
    return this.db.query<DiaryEntryRecord & Record<string, unknown>>(
      `SELECT run_id, seq, stage, action, outcome, reason, items, detail, at FROM dream_entries
WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [runId, options.afterSeq ?? 0, options.limit ?? null],
    );
  }

  async claimCap(
    space: string,
    cap: DreamCap,
    day: string,
    limit: number,
    units = 1,
  ): Promise<number> {
    if (limit <= 0 || units <= 0) return 0;
    return this.db.transaction(async (tx) => {
      // The row exists and is locked before it is read: concurrent claims queue behind it.
      await tx.query(
        `INSERT INTO dream_caps (space, cap, day, used) VALUES ($1, $2, $3, 0)
ON CONFLICT (space, cap, day) DO NOTHING`,
        [space, cap, day],
      );
      const rows = await tx.query<{ used: number }>(
        'SELECT used FROM dream_caps WHERE space = $1 AND cap = $2 AND day = $3 FOR UPDATE',
        [space, cap, day],
      );
      const granted = Math.max(0, Math.min(units, limit - Number(rows[0]?.used ?? 0)));
      if (granted > 0)
        await tx.query(
          'UPDATE dream_caps SET used = used + $4 WHERE space = $1 AND cap = $2 AND day = $3',
          [space, cap, day, granted],
        );
      return granted;
    });
  }

  async releaseCap(space: string, cap: DreamCap, day: string, units = 1): Promise<void> {
    await this.db.query(
      'UPDATE dream_caps SET used = greatest(0, used - $4) WHERE space = $1 AND cap = $2 AND day = $3',
      [space, cap, day, units],
      'write',
    );
  }

  async capUsage(space: string, day: string): Promise<Record<DreamCap, number>> {
    const rows = await this.db.query<{ cap: string; used: number }>(
      'SELECT cap, used FROM dream_caps WHERE space = $1 AND day = $2',
      [space, day],
    );
    return capUsageOf(rows);
  }

  areas(space: string): Promise<{ area: string; items: number }[]> {
    return this.db.query<{ area: string; items: number }>(
      `SELECT area, count(*) AS items FROM items
WHERE space = $1 AND coalesce(status, 'active') NOT IN ('forgotten', 'merged', 'superseded')
GROUP BY area ORDER BY area`,
      [space],
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
    const rows = await this.db.query<StaleRow>(STALE_SQL, [
      space,
      ms(options.createdBefore),
      options.maxImportance,
      options.excludeKinds,
      options.afterId ?? '',
      options.limit,
    ]);
    return rows.map((row) => ({
      item: itemFromRow(row),
      last_touched_at: row.touched_at,
      neighbour_touched_at: row.neighbour_touched_at,
    }));
  }

  async lastRunAt(space: string | null): Promise<number | undefined> {
    const [row] =
      space === null
        ? await this.db.query<{ at: number | null }>('SELECT max(started_at) AS at FROM dream_runs')
        : await this.db.query<{ at: number | null }>(
            'SELECT max(started_at) AS at FROM dream_runs WHERE space = $1',
            [space],
          );
    return row?.at ?? undefined;
  }
}

/** The diary state of a run, its row locked for the transaction; undefined when there is none. */
async function lockedDiary(tx: Queryable, runId: string): Promise<string | undefined> {
  const [row] = await tx.query<{ diary: string }>(
    'SELECT diary FROM dream_runs WHERE id = $1 FOR UPDATE',
    [runId],
  );
  return row?.diary;
}

/** Runs with their stages and entry counts. */
async function loadRuns(q: Queryable, rows: readonly RunColumns[]): Promise<DreamRunRecord[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const stages = await q.query<StageRow>(
    'SELECT * FROM dream_stages WHERE run_id = ANY($1::text[])',
    [ids],
  );
  const counts = await q.query<CountRow>(
    `SELECT run_id, stage, outcome, count(*) AS n FROM dream_entries
WHERE run_id = ANY($1::text[]) GROUP BY run_id, stage, outcome`,
    [ids],
  );
  return runRecords(rows, stages, counts);
}
