/**
 * The whole store as a JSONL export file: what a maintenance run backs up first on a backend
 * without a database file to copy (§7.3). The lines come from one store snapshot, so the file is
 * one consistent moment of the store while writers carry on. It is written to a temporary name,
 * flushed to disk and renamed, so a crash never leaves a partial file under a backup's name;
 * `engram import FILE` into an empty store restores it.
 */
import { open, rename, rm } from 'node:fs/promises';

import { EngramError } from '../domain/errors.js';
import type { Store } from '../store/store.js';
import { snapshotLines } from './lines.js';

/** Lines buffered before one write to the file. */
const FLUSH_LINES = 500;

type File = Awaited<ReturnType<typeof open>>;

/** Appends lines to an open file in chunks. */
class LineWriter {
  private buffer: string[] = [];

  constructor(
    private readonly file: File,
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
    // A file failure becomes an EngramError here, so the store's error mapping keeps it.
    await this.file.write(chunk).catch((err: unknown) => {
      throw fileError(err, this.path);
    });
  }
}

/** Writes an export of every space to `destination`, whole or not at all (by rename). */
export async function writeExportFile(store: Store, destination: string): Promise<void> {
  const partial = `${destination}.partial`;
  let file: File;
  try {
    file = await open(partial, 'wx');
  } catch (err) {
    throw fileError(err, partial);
  }
  let done = false;
  try {
    const out = new LineWriter(file, partial);
    await store.snapshot(async (view) => {
      for await (const line of snapshotLines(view, null)) await out.add(line);
    });
    await out.flush();
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
