/**
 * The HNSW index of one embedding model (hnswlib-node) and its files beside the store. Labels are
 * item primary keys. The index file is named after the change-log position it covers and a small
 * JSON sidecar points at the current one; both are written to a temporary name and renamed, so a
 * reader in another process only ever sees a complete file, and a checksum in the sidecar keeps a
 * damaged file from ever being loaded. A saved file never holds the vector of a deleted point
 * (ann-scrub.ts zeroes them before the file is named).
 *
 * hnswlib-node rather than usearch: hnswlib-node 3.0.0 is installed, builds here and measured
 * recall@10 >= 0.98 at 100k with m 16 / ef_construction 100 / ef_search 400 (bench/scale); usearch
 * is not installed, and its package asks for Node >= 22 while engram runs on Node 20.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';

import type hnswlib from 'hnswlib-node';

import { scrubIndexFiles, sealIndexFile } from './ann-scrub.js';

// The native addon is required when the first index is made or loaded, not imported: most stores
// stay below `store.ann.min_items` and most commands never search vectors.
const require = createRequire(import.meta.url);

/** A new, empty HNSW graph of the given dimension in inner-product space. */
function newGraph(dimension: number): hnswlib.HierarchicalNSW {
  const { HierarchicalNSW } = require('hnswlib-node') as typeof hnswlib;
  return new HierarchicalNSW('ip', dimension);
}

/** HNSW build and search parameters (config `store.ann`). */
export interface HnswParams {
  m: number;
  ef_construction: number;
  ef_search: number;
}

/** What the sidecar records about the index file it points at. */
export interface IndexSidecar {
  format: 1;
  /** Identity of the store file the index was built from (a replaced store never loads it). */
  store: string;
  model: string;
  dimension: number;
  /** Every item whose latest vector change has `seq <= covered_seq` is in the index as it is now. */
  covered_seq: number;
  m: number;
  ef_construction: number;
  file: string;
  bytes: number;
  sha1: string;
  written_at: number;
}

/** No label to mark deleted: sealing a save only zeroes the points already deleted. */
const NO_LABELS: ReadonlySet<number> = new Set();
/** Labels are kept in a byte map indexed by label, so they stay below this bound. */
const LABEL_MAX = 2 ** 28;
/** Old index files are removed only when this old, so a reader that just read the sidecar still finds its file. */
const STALE_FILE_MS = 10 * 60_000;

const ABSENT = 0;
const LIVE = 1;
const DELETED = 2;
/** Present in a loaded file, live or deleted (the file does not say which). */
const PRESENT = 3;

/** True when a pk can be a label of this index. */
export function isLabel(pk: number): boolean {
  return Number.isInteger(pk) && pk >= 0 && pk < LABEL_MAX;
}

/** An in-memory HNSW index over unit vectors (inner-product space: distance = 1 - cosine). */
export class HnswIndex {
  private states: Uint8Array;

  private constructor(
    private readonly index: hnswlib.HierarchicalNSW,
    readonly dimension: number,
    readonly params: Pick<HnswParams, 'm' | 'ef_construction'>,
  ) {
    this.states = new Uint8Array(1024);
  }

  /** A new, empty index with room for `capacity` vectors (it grows when needed). */
  static create(dimension: number, params: HnswParams, capacity: number): HnswIndex {
    const index = newGraph(dimension);
    index.initIndex({
      maxElements: Math.max(1024, capacity),
      m: params.m,
      efConstruction: params.ef_construction,
      randomSeed: 100,
      allowReplaceDeleted: true,
    });
    return new HnswIndex(index, dimension, params);
  }

  /** Reads an index file on the thread pool (checksum verified first); throws when it cannot be used. */
  static async load(path: string, sidecar: IndexSidecar): Promise<HnswIndex> {
    if ((await hashFile(path)) !== sidecar.sha1)
      throw new Error(`index file ${path} fails its checksum`);
    const index = newGraph(sidecar.dimension);
    await index.readIndex(path, true);
    return HnswIndex.adopt(index, sidecar);
  }

  /** Synchronous load, for the first search of a process (checksum verified first). */
  static loadSync(path: string, sidecar: IndexSidecar): HnswIndex {
    if (hashFileSync(path) !== sidecar.sha1)
      throw new Error(`index file ${path} fails its checksum`);
    const index = newGraph(sidecar.dimension);
    index.readIndexSync(path, true);
    return HnswIndex.adopt(index, sidecar);
  }

  private static adopt(index: hnswlib.HierarchicalNSW, sidecar: IndexSidecar): HnswIndex {
    if (index.getNumDimensions() !== sidecar.dimension)
      throw new Error('index file dimension differs from its sidecar');
    const out = new HnswIndex(index, sidecar.dimension, sidecar);
    for (const label of index.getIdsList()) out.setState(label, PRESENT);
    return out;
  }

  /** Slots in use, deleted ones included. */
  get slots(): number {
    return this.index.getCurrentCount();
  }

  /** Adds a vector under a label, or replaces the label's vector (reviving it if deleted). */
  upsert(label: number, vector: Float32Array): void {
    const state = this.states[label] ?? ABSENT;
    if (state === ABSENT) return this.insert(label, vector);
    const point = Array.from(vector);
    if (state === DELETED) {
      try {
        this.index.unmarkDelete(label);
      } catch {
        // its slot went to another label: it is absent now
        return this.insert(label, vector);
      }
    }
    try {
      this.index.addPoint(point, label, false);
    } catch (err) {
      // A label from a loaded file may be deleted there: revive it, then update it in place.
      if (state !== PRESENT || !/deleted elements/u.test(String(err))) throw err;
      this.index.unmarkDelete(label);
      this.index.addPoint(point, label, false);
    }
    this.setState(label, LIVE);
  }

  /** Marks a label deleted; a label that is absent or already deleted is left as it is. */
  remove(label: number): void {
    const state = this.states[label] ?? ABSENT;
    if (state === ABSENT || state === DELETED) return;
    try {
      this.index.markDelete(label);
    } catch {
      // "already deleted" (a label from a loaded file): nothing to do
    }
    this.setState(label, DELETED);
  }

  /** True when the label has a point in the graph (live, or present in a loaded file). */
  holds(label: number): boolean {
    const state = this.states[label] ?? ABSENT;
    return state === LIVE || state === PRESENT;
  }

  /** The vector stored at a label's point, as stored (float32). */
  vectorOf(label: number): Float32Array {
    return Float32Array.from(this.index.getPoint(label));
  }

  /** Up to `k` nearest labels (best first); `allow` restricts candidates during the walk. */
  search(query: Float32Array, k: number, ef: number, allow?: (label: number) => boolean): number[] {
    const n = Math.min(k, this.index.getCurrentCount(), this.index.getMaxElements());
    if (n <= 0) return [];
    this.index.setEf(Math.max(ef, n));
    return this.index.searchKnn(Array.from(query), n, allow).neighbors;
  }

  /** Writes the index to `path` (synchronously, or on the thread pool). */
  async write(path: string, sync: boolean): Promise<void> {
    if (sync) this.index.writeIndexSync(path);
    else await this.index.writeIndex(path);
  }

  /** A new label: takes the slot of a deleted vector when one is free, else a new slot. */
  private insert(label: number, vector: Float32Array): void {
    if (this.index.getCurrentCount() >= this.index.getMaxElements())
      this.index.resizeIndex(Math.ceil(this.index.getMaxElements() * 1.5) + 1024);
    this.index.addPoint(Array.from(vector), label, true);
    this.setState(label, LIVE);
  }

  private setState(label: number, state: number): void {
    if (label >= this.states.length) {
      const next = new Uint8Array(Math.max(label + 1, this.states.length * 2));
      next.set(this.states);
      this.states = next;
    }
    this.states[label] = state;
  }
}

/** The files of one model's index beside a store file. */
export class IndexFiles {
  /** The sidecar path. */
  readonly sidecar: string;
  private readonly prefix: string;
  private readonly dir: string;

  constructor(
    private readonly storePath: string,
    private readonly storeId: string,
    readonly model: string,
    readonly dimension: number,
  ) {
    const tag = createHash('sha1').update(`${model}\u0000${dimension}`).digest('hex').slice(0, 12);
    this.dir = dirname(storePath);
    this.prefix = `${basename(storePath)}.ann-${tag}`;
    this.sidecar = join(this.dir, `${this.prefix}.json`);
  }

  /** The current sidecar, or undefined when there is none or it does not describe this model. */
  readSidecar(): IndexSidecar | undefined {
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(this.sidecar, 'utf8'));
    } catch {
      return undefined;
    }
    const s = value as Partial<IndexSidecar>;
    const ok =
      s.format === 1 &&
      s.store === this.storeId &&
      s.model === this.model &&
      s.dimension === this.dimension &&
      typeof s.covered_seq === 'number' &&
      typeof s.file === 'string' &&
      basename(s.file) === s.file &&
      typeof s.sha1 === 'string' &&
      typeof s.m === 'number' &&
      typeof s.ef_construction === 'number';
    return ok ? (s as IndexSidecar) : undefined;
  }

  /** The modification stamp of the sidecar (0 when absent), to notice another process's save cheaply. */
  sidecarStamp(): number {
    try {
      const st = statSync(this.sidecar);
      return st.mtimeMs + st.size;
    } catch {
      return 0;
    }
  }

  /** Removes the vectors of `labels` (deleted from the store) from every index file beside the store. */
  scrub(labels: readonly number[]): Promise<void> {
    return scrubIndexFiles(this.storePath, labels);
  }

  /** Absolute path of an index file named in a sidecar. */
  pathOf(sidecar: IndexSidecar): string {
    return join(this.dir, sidecar.file);
  }

  /**
   * Saves an index covering `coveredSeq`: index to a temporary file, rename, checksum, then the
   * sidecar the same way. A sidecar already covering more (another process's) is kept, unless it
   * points at `unusable`, a file that failed to load. `deletedSince` gives the items deleted since
   * the index was last brought up to date (a purge in another process while the file was written,
   * whose scrub may have come before the file existed): asked once the file is written, their
   * points are marked deleted and zeroed before the file is named. Returns whether this save
   * became current.
   */
  async save(
    index: HnswIndex,
    coveredSeq: number,
    params: HnswParams,
    sync: boolean,
    unusable?: string,
    deletedSince: () => readonly number[] = () => [],
  ): Promise<boolean> {
    const nonce = `${process.pid}-${randomBytes(4).toString('hex')}`;
    const file = `${this.prefix}.${coveredSeq}-${nonce}.hnsw`;
    const tmp = join(this.dir, `${file}.tmp`);
    try {
      await index.write(tmp, sync);
      // hnswlib writes deleted points with their vectors: zero those, and the points of items
      // deleted while it wrote, before the file is named.
      const late = deletedSince();
      const { sha1, bytes } = await sealIndexFile(
        tmp,
        late.length > 0 ? new Set(late) : NO_LABELS,
        sync,
      );
      const final = join(this.dir, file);
      renameSync(tmp, final);
      const current = this.readSidecar();
      if (current && current.covered_seq > coveredSeq && current.file !== unusable) {
        rmSync(final, { force: true });
        return false;
      }
      const sidecar: IndexSidecar = {
        format: 1,
        store: this.storeId,
        model: this.model,
        dimension: this.dimension,
        covered_seq: coveredSeq,
        m: params.m,
        ef_construction: params.ef_construction,
        file,
        bytes,
        sha1,
        written_at: Date.now(),
      };
      const sidecarTmp = `${this.sidecar}.${nonce}.tmp`;
      await writeFile(sidecarTmp, JSON.stringify(sidecar, null, 2));
      renameSync(sidecarTmp, this.sidecar);
      this.removeStale(file);
      return true;
    } finally {
      rmSync(tmp, { force: true });
    }
  }

  /** Removes this model's index files that are not current and old enough that no reader needs them. */
  private removeStale(current: string): void {
    const now = Date.now();
    for (const name of readdirSync(this.dir)) {
      if (!name.startsWith(`${this.prefix}.`) || name === current) continue;
      if (!name.endsWith('.hnsw') && !name.endsWith('.tmp')) continue;
      try {
        const path = join(this.dir, name);
        if (now - statSync(path).mtimeMs > STALE_FILE_MS) rmSync(path, { force: true });
      } catch {
        // another process removed it first
      }
    }
  }
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha1');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }))
    hash.update(chunk as Buffer);
  return hash.digest('hex');
}

function hashFileSync(path: string): string {
  const hash = createHash('sha1');
  const buffer = Buffer.allocUnsafe(1 << 20);
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}
