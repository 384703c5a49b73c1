/**
 * The backup a PostgreSQL maintenance run takes first (§7.3): the whole store as engram's JSONL
 * export (the header, every item with its versions, status events and vectors, every relation,
 * then the lifecycle state: reinforcement bases, use events, settings, auto-recall conversation
 * states and maintenance runs), read inside one REPEATABLE READ READ ONLY transaction, so the file
 * is one consistent moment of the store while writers carry on. Telemetry lines from `extraLines`
 * follow. It is written to a
 * temporary name, flushed to disk and renamed, so a crash never leaves a partial file under a
 * backup's name; `engram import FILE` into an empty schema restores it.
 */
import { open, rename, rm } from 'node:fs/promises';

import type pg from 'pg';

import { EngramError } from '../../domain/errors.js';
import { lifecycleToLine } from '../../transfer/lifecycle-records.js';
import { itemToLine, relationToLine } from '../../transfer/records.js';
import { EXPORT_FORMAT, EXPORT_VERSION } from '../../transfer/transfer.js';
import type { PgDatabase, Queryable } from './database.js';
import { exportLifecycleRows } from './lifecycle-transfer.js';
import { exportItems, exportRelations } from './transfer.js';

/** Lines buffered before one write to the file. */
const FLUSH_LINES = 500;

/** The snapshot's connection as a Queryable; concurrent callers (an export page) take turns. */
function onClient(client: pg.Client): Queryable {
  let turn: Promise<unknown> = Promise.resolve();
  return {
    query(sql, params = []) {
      const run = turn.then(() => client.query(sql, params));
      turn = run.catch(() => undefined);
      return run.then((result) => result.rows);
    },
  };
}

/** Appends lines to an open file in chunks. */
class LineWriter {
  private buffer: string[] = [];

  constructor(
    private readonly file: Awaited<ReturnType<typeof open>>,
    private readonly path: string,
  ) {}

  async add(line: string): Promise<void> {
    this.buffer.push(line);
    if (this.buffer.length >= FLUSH_LINES) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.buffer.length === 0) return;
    const chunk = `${this.buffer.join('\n')}\n`;
    this.buffer = [];
    // A file failure becomes an EngramError here, so the connection's error mapping keeps it.
    await this.file.write(chunk).catch((err: unknown) => {
      throw fileError(err, this.path);
    });
  }
}

/** Writes the snapshot's lines: header, items, relations, lifecycle state, then the extra lines. */
async function writeLines(
  db: PgDatabase,
  out: LineWriter,
  extraLines: (() => AsyncIterable<string>) | undefined,
): Promise<void> {
  await db.dedicated(async (client) => {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const q = onClient(client);
      const [clock] = await q.query<{ at: number }>(
        'SELECT (extract(epoch FROM transaction_timestamp()) * 1000)::int8 AS at',
      );
      await out.add(
        JSON.stringify({
          type: EXPORT_FORMAT,
          version: EXPORT_VERSION,
          exported_at: new Date(clock?.at ?? Date.now()).toISOString(),
          space: null,
        }),
      );
      for await (const record of exportItems(q, null)) await out.add(itemToLine(record));
      for await (const relation of exportRelations(q, null))
        await out.add(relationToLine(relation));
      for await (const record of exportLifecycleRows(q, null))
        await out.add(lifecycleToLine(record));
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  });
  if (extraLines) for await (const line of extraLines()) await out.add(line);
  await out.flush();
}

/** Writes a consistent JSONL snapshot of the store to `destination` (atomically, by rename). */
export async function writeSnapshot(
  db: PgDatabase,
  destination: string,
  extraLines?: () => AsyncIterable<string>,
): Promise<void> {
  const partial = `${destination}.partial`;
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(partial, 'wx');
  } catch (err) {
    throw fileError(err, partial);
  }
  let done = false;
  try {
    await writeLines(db, new LineWriter(file, partial), extraLines);
    await file.sync();
    await file.close();
    await rename(partial, destination);
    done = true;
  } catch (err) {
    if (err instanceof EngramError) throw err;
    throw fileError(err, destination);
  } finally {
    if (!done) {
      await file.close().catch(() => undefined);
      await rm(partial, { force: true }).catch(() => undefined);
    }
  }
}

function fileError(err: unknown, path: string): EngramError {
  return new EngramError(
    'STORE_UNAVAILABLE',
    `cannot write the backup ${path}: ${(err as Error).message}`,
    { field: 'lifecycle.backup.dir', rule: 'must be a writable folder' },
  );
}
