/**
 * Keeps deleted vectors out of the HNSW index files saved beside a SQLite store. hnswlib marks a
 * deleted point but keeps its vector, in memory and in every file it writes; so each saved file is
 * sealed (the vector of every point marked deleted is overwritten with zeros, in place) and, after a
 * purge, every index file beside the store gets the purged items' points marked deleted and sealed,
 * with the checksum in the sidecar that names it refreshed. The file layout read here is the one
 * hnswlib-node 3.0.0 (pinned) writes; it is checked field by field, and a file that does not match
 * it is removed rather than patched (the index is then built again from the store).
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import type { SqliteDatabase } from './database.js';

/** Bytes of the file header: 10 size_t fields, two 32-bit ints and one double. */
const HEADER_BYTES = 96;
/** The flag byte of a point's level-0 link list header, and hnswlib's deleted mark in it. */
const FLAG_OFFSET = 2;
const DELETED_MARK = 0x01;
/** Points read at once while scanning. */
const CHUNK_BYTES = 4 << 20;

/** Where a point's parts are in the file's level-0 block. */
interface Layout {
  count: number;
  perPoint: number;
  dataOffset: number;
  dataBytes: number;
  labelOffset: number;
}

/** What sealing a file did: its checksum and size afterwards, and whether a byte changed. */
export interface SealResult {
  sha1: string;
  bytes: number;
  changed: boolean;
}

/** Reads and checks the header; throws when the file is not in the expected layout. */
function parseLayout(header: Buffer, fileBytes: number): Layout {
  if (header.length < HEADER_BYTES) throw new Error('index file is shorter than its header');
  const size = (at: number) => {
    const value = header.readBigUInt64LE(at);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('index header field out of range');
    return Number(value);
  };
  const [offsetLevel0, maxElements, count, perPoint, labelOffset, dataOffset] = [
    0, 8, 16, 24, 32, 40,
  ].map(size) as [number, number, number, number, number, number];
  const maxM0 = size(64);
  const dataBytes = labelOffset - dataOffset;
  const ok =
    offsetLevel0 === 0 &&
    count <= maxElements &&
    dataOffset === maxM0 * 4 + 4 &&
    dataBytes > 0 &&
    dataBytes % 4 === 0 &&
    perPoint === labelOffset + 8 &&
    HEADER_BYTES + count * perPoint <= fileBytes;
  if (!ok) throw new Error('index file is not in the layout engram reads');
  return { count, perPoint, dataOffset, dataBytes, labelOffset };
}

/** A byte range to write back. */
interface Patch {
  at: number;
  bytes: Buffer;
}

/**
 * Marks the points of `labels` deleted and zeroes the vector of every deleted point in one chunk of
 * whole points (modified in place); returns the ranges to write back.
 */
function sealChunk(
  chunk: Buffer,
  filePos: number,
  layout: Layout,
  labels: ReadonlySet<number>,
  zeros: Buffer,
): Patch[] {
  const patches: Patch[] = [];
  for (let p = 0; p + layout.perPoint <= chunk.length; p += layout.perPoint) {
    const flag = p + FLAG_OFFSET;
    if (
      !(chunk[flag]! & DELETED_MARK) &&
      labels.size > 0 &&
      labels.has(labelAt(chunk, p, layout))
    ) {
      chunk[flag] = chunk[flag]! | DELETED_MARK;
      patches.push({ at: filePos + flag, bytes: chunk.subarray(flag, flag + 1) });
    }
    if (!(chunk[flag]! & DELETED_MARK)) continue;
    const data = chunk.subarray(p + layout.dataOffset, p + layout.dataOffset + layout.dataBytes);
    if (data.equals(zeros)) continue;
    data.fill(0);
    patches.push({ at: filePos + p + layout.dataOffset, bytes: data });
  }
  return patches;
}

function labelAt(chunk: Buffer, p: number, layout: Layout): number {
  const at = p + layout.labelOffset;
  return chunk.readUInt32LE(at) + chunk.readUInt32LE(at + 4) * 2 ** 32;
}

/** The file operations sealing needs, synchronous or on the thread pool. */
interface Port {
  size(): number | Promise<number>;
  read(buffer: Buffer, at: number): number | Promise<number>;
  write(buffer: Buffer, at: number): unknown;
  flush(): unknown;
  close(): unknown;
}

/** Reads exactly `length` bytes at `at` (fewer only at the end of the file). */
async function readFully(port: Port, length: number, at: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = await port.read(buffer.subarray(got), at + got);
    if (n === 0) break;
    got += n;
  }
  return buffer.subarray(0, got);
}

/** Seals a file through `port`: one pass that patches and hashes. */
async function sealThrough(port: Port, labels: ReadonlySet<number>): Promise<SealResult> {
  const hash = createHash('sha1');
  const bytes = await port.size();
  const header = await readFully(port, HEADER_BYTES, 0);
  const layout = parseLayout(header, bytes);
  hash.update(header);
  const zeros = Buffer.alloc(layout.dataBytes);
  const step = Math.max(1, Math.floor(CHUNK_BYTES / layout.perPoint)) * layout.perPoint;
  const level0End = HEADER_BYTES + layout.count * layout.perPoint;
  let changed = false;
  for (let at = HEADER_BYTES; at < level0End; at += step) {
    const chunk = await readFully(port, Math.min(step, level0End - at), at);
    for (const patch of sealChunk(chunk, at, layout, labels, zeros)) {
      await port.write(patch.bytes, patch.at);
      changed = true;
    }
    hash.update(chunk);
  }
  for (let at = level0End; at < bytes; at += CHUNK_BYTES)
    hash.update(await readFully(port, Math.min(CHUNK_BYTES, bytes - at), at));
  if (changed) await port.flush();
  return { sha1: hash.digest('hex'), bytes, changed };
}

function syncPort(path: string): Port {
  const fd = openSync(path, 'r+');
  return {
    size: () => fstatSync(fd).size,
    read: (buffer, at) => readSync(fd, buffer, 0, buffer.length, at),
    write: (buffer, at) => writeSync(fd, buffer, 0, buffer.length, at),
    flush: () => fsyncSync(fd),
    close: () => closeSync(fd),
  };
}

async function asyncPort(path: string): Promise<Port> {
  const handle = await open(path, 'r+');
  return {
    size: async () => (await handle.stat()).size,
    read: async (buffer, at) => (await handle.read(buffer, 0, buffer.length, at)).bytesRead,
    write: (buffer, at) => handle.write(buffer, 0, buffer.length, at),
    flush: () => handle.sync(),
    close: () => handle.close(),
  };
}

/**
 * Seals one saved index file: marks the points of `labels` deleted, overwrites the vector of every
 * deleted point with zeros (in place, flushed to disk) and returns the file's new checksum.
 * Throws when the file is not in the expected layout.
 */
export async function sealIndexFile(
  path: string,
  labels: ReadonlySet<number>,
  sync: boolean,
): Promise<SealResult> {
  const port = sync ? syncPort(path) : await asyncPort(path);
  try {
    return await sealThrough(port, labels);
  } finally {
    await port.close();
  }
}

/**
 * After a purge: removes the purged items' vectors (`labels` are item keys) from every index file
 * saved beside the store, of every model. Each file is sealed in place and the sidecar naming it
 * gets the new checksum; a file that cannot be sealed is removed with its sidecar (the index is
 * built again from the store); unfinished saves (`.hnsw.tmp`) are removed, so the save that wrote
 * one fails and is done again later.
 */
export async function scrubIndexFiles(storePath: string, labels: readonly number[]): Promise<void> {
  if (storePath === ':memory:' || labels.length === 0) return;
  const dir = dirname(storePath);
  const prefix = `${basename(storePath)}.ann-`;
  const names = readdirSync(dir).filter((n) => n.startsWith(prefix));
  const wanted = new Set(labels);
  const sealed = new Map<string, SealResult>();
  const removed = new Set<string>();
  for (const name of names) {
    const path = join(dir, name);
    if (name.endsWith('.hnsw.tmp')) rmSync(path, { force: true });
    if (!name.endsWith('.hnsw')) continue;
    try {
      sealed.set(name, await sealIndexFile(path, wanted, false));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      rmSync(path, { force: true });
      removed.add(name);
    }
  }
  for (const name of names)
    if (name.endsWith('.json')) refreshSidecar(join(dir, name), sealed, removed);
}

/** Points a sidecar at its file's new checksum, or removes it when its file was removed. */
function refreshSidecar(
  path: string,
  sealed: ReadonlyMap<string, SealResult>,
  removed: ReadonlySet<string>,
): void {
  let sidecar: { file?: unknown; sha1?: unknown; bytes?: unknown };
  try {
    sidecar = JSON.parse(readFileSync(path, 'utf8')) as typeof sidecar;
  } catch {
    return;
  }
  if (typeof sidecar.file !== 'string') return;
  if (removed.has(sidecar.file)) {
    rmSync(path, { force: true });
    return;
  }
  const result = sealed.get(sidecar.file);
  if (!result?.changed || result.sha1 === sidecar.sha1) return;
  const tmp = `${path}.${process.pid}-scrub.tmp`;
  writeFileSync(
    tmp,
    JSON.stringify({ ...sidecar, sha1: result.sha1, bytes: result.bytes }, null, 2),
  );
  renameSync(tmp, path);
}

/**
 * Items whose vector of `model` the store deleted after log position `seq` (purges, model prunes),
 * and the last position read: a save marks them deleted first, so it never writes back a vector
 * that a purge in another process removed.
 */
export function deletedAfter(
  db: SqliteDatabase,
  model: string,
  seq: number,
): { labels: number[]; last: number } {
  const rows = db
    .prepare('SELECT item_pk, seq FROM vector_deletions WHERE seq > ? AND model = ?')
    .raw()
    .all(seq, model) as [number, number][];
  return { labels: rows.map((r) => r[0]), last: rows.reduce((m, r) => Math.max(m, r[1]), seq) };
}
