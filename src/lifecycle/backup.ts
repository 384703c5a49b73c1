/**
 * Backups taken before a maintenance run (§7.3, §12): a consistent online copy of the store
 * named by its time, in `lifecycle.backup.dir` (default: `backups/` beside the store file), and
 * pruning of copies older than `keep_days`. Names carry the time, so pruning follows the same
 * clock as the run (tests can simulate days). The copy is the backend's database file where it
 * has one, else a JSONL export of a store snapshot, written by a function the wiring passes in
 * (the export format is src/transfer's, a module of the same floor as this one).
 *
 * A backup is written under a temporary name (`<final name>.partial`) in the backup folder, made
 * durable and renamed when complete, so a killed run never leaves a partial file under a backup's
 * name; the temporary files a killed run left are removed by the next run (which holds the
 * maintenance lease, so no other run is writing one).
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';

import { makeDirectory } from '../domain/dirs.js';
import { EngramError } from '../domain/errors.js';
import type { LifecycleStore } from '../store/lifecycle-store.js';
import { DAY_MS } from './decay.js';

/** A backup that was taken, and the old ones removed. */
export interface BackupResult {
  path: string;
  pruned: string[];
}

/** Writes the whole store as a JSONL export file at a path, whole or not at all. */
export type ExportBackup = (destination: string) => Promise<void>;

/** How a backup is written, and the file extension of what it writes. */
export interface BackupWriter {
  readonly extension: '.db' | '.jsonl';
  write(destination: string): Promise<void>;
}

/** The backend's copy of its database file when it has one, else the JSONL export. */
export function backupWriter(lifecycle: LifecycleStore, exportBackup: ExportBackup): BackupWriter {
  const copy = lifecycle.backup?.bind(lifecycle);
  return copy ? { extension: '.db', write: copy } : { extension: '.jsonl', write: exportBackup };
}

/** Where and how to back up. */
export interface BackupOptions {
  storePath: string;
  dir?: string;
  keepDays: number;
  now: number;
}

/** Backup names: a database copy (`.db`) or a JSONL snapshot (`.jsonl`), by backend. */
const NAME = /^engram-(\d{8}T\d{9}Z)(?:-\d+)?\.(?:db|jsonl)$/u;

/** What a killed run leaves behind: a backup's temporary name and the files beside it. */
const ORPHAN = /^engram-\d{8}T\d{9}Z(?:-\d+)?\.(?:db|jsonl)\.partial/u;

/** The backup folder: the configured one (relative to the store's folder), else `backups/`. */
export function backupDir(storePath: string, dir?: string): string {
  const base = dirname(resolve(storePath));
  if (dir === undefined) return join(base, 'backups');
  return isAbsolute(dir) ? dir : resolve(base, dir);
}

function stamp(at: number): string {
  return new Date(at).toISOString().replace(/[-:.]/gu, '');
}

function parseStamp(s: string): number {
  const iso = `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}T${s.slice(9, 11)}:${s.slice(11, 13)}:${s.slice(13, 15)}.${s.slice(15, 18)}Z`;
  return Date.parse(iso);
}

function freshName(dir: string, at: number, extension: string): string {
  const base = `engram-${stamp(at)}`;
  let name = `${base}${extension}`;
  for (let n = 1; existsSync(join(dir, name)); n++) name = `${base}-${n}${extension}`;
  return join(dir, name);
}

/** Backup files in a folder with their times, oldest first. */
export function listBackups(dir: string): { path: string; at: number }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .flatMap((name) => {
      const m = NAME.exec(name);
      return m ? [{ path: join(dir, name), at: parseStamp(m[1]!) }] : [];
    })
    .sort((a, b) => a.at - b.at);
}

/** Removes the temporary files of killed runs from the backup folder; returns their paths. */
export function removeOrphans(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const orphans = readdirSync(dir)
    .filter((name) => ORPHAN.test(name))
    .map((name) => join(dir, name));
  for (const orphan of orphans) rmSync(orphan, { force: true, recursive: true });
  return orphans;
}

function makeDir(dir: string): void {
  try {
    makeDirectory(dir);
  } catch (err) {
    throw new EngramError(
      'STORE_UNAVAILABLE',
      `cannot create the backup folder ${dir}: ${(err as Error).message}`,
      { field: 'lifecycle.backup.dir', rule: 'must be a writable folder' },
    );
  }
}

/** Flushes a written file to disk, so the rename never names a file the disk does not hold. */
async function syncFile(path: string): Promise<void> {
  const file = await open(path, 'r+');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
}

/** Writes a backup under a temporary name and renames it to `path` once complete and durable. */
async function writeWhole(writer: BackupWriter, path: string): Promise<void> {
  const partial = `${path}.partial`;
  try {
    await writer.write(partial);
    await syncFile(partial);
    await rename(partial, path);
  } catch (err) {
    await rm(partial, { force: true }).catch(() => undefined);
    await rm(`${partial}-journal`, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** Takes a consistent online backup, then removes backups older than `keepDays`. */
export async function takeBackup(
  writer: BackupWriter,
  options: BackupOptions,
): Promise<BackupResult> {
  const dir = backupDir(options.storePath, options.dir);
  makeDir(dir);
  removeOrphans(dir);
  const path = freshName(dir, options.now, writer.extension);
  await writeWhole(writer, path);
  const cutoff = options.now - options.keepDays * DAY_MS;
  const pruned: string[] = [];
  for (const old of listBackups(dir)) {
    if (old.path === path || old.at >= cutoff) continue;
    rmSync(old.path, { force: true });
    pruned.push(old.path);
  }
  return { path, pruned };
}
