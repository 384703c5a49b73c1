/**
 * In-memory mirror of one model's vectors for exact cosine scan. It follows the store's vector
 * change log (a sequence counter bumped on every vector write or removal), so writes made by other
 * processes on the same file are picked up incrementally before each search. The approximate index
 * (ann-model.ts) follows the same log through `onChange` and re-scores its candidates here.
 */
import { dot4, SimdArena } from '../../domain/simd-dot.js';
import type { SqliteDatabase } from './database.js';
import { Statements } from './statements.js';
import { TopK, type VectorHit } from './top-k.js';

/** One changed vector of the log: item key, log position, vector (null when removed), space. */
type DeltaRow = [pk: number, seq: number, vector: Buffer | null, space: string];

/** Rows an exact scan hands the kernel at a time (bounds its scratch memory). */
const SCAN_CHUNK = 4096;

/**
 * The vectors of one model, held in one contiguous matrix: in WebAssembly memory, where the exact
 * scan runs the SIMD kernel (simd-dot.ts, the same sums as `dot4`), or in an ordinary array
 * without WebAssembly SIMD, for a dimension not a multiple of four, or once the matrix outgrows
 * what WebAssembly memory can hold (4 GiB).
 */
export class VectorCache {
  private arena: SimdArena | null;
  private plain: Float32Array;
  private pks: Float64Array;
  private byteView: Uint8Array | undefined;
  private spaces: Int32Array;
  private readonly slotOf = new Map<number, number>();
  private readonly spaceCodes = new Map<string, number>();
  private readonly spaceSizes: number[] = [];
  private count = 0;
  private lastSeq = -1;
  /** Told of every change applied from the log after it is applied, in log order. */
  onChange: ((pk: number, seq: number) => void) | undefined;

  private readonly sql: Statements;
  private readonly syncInTransaction: () => void;

  constructor(
    private readonly db: SqliteDatabase,
    readonly model: string,
    readonly dimension: number,
  ) {
    this.sql = new Statements(db);
    this.syncInTransaction = db.transaction(() => this.applyDelta());
    this.arena = dimension % 4 === 0 ? SimdArena.create(1024 * dimension) : null;
    this.plain = this.arena ? new Float32Array(0) : new Float32Array(1024 * dimension);
    this.pks = new Float64Array(1024);
    this.spaces = new Int32Array(1024);
  }

  /** The matrix (replaced when it grows or the arena's memory does: read it again after either). */
  private get vectors(): Float32Array {
    return this.arena ? this.arena.rows : this.plain;
  }

  /** Number of vectors held. */
  get size(): number {
    return this.count;
  }

  /** The change-log position the mirror reflects (-1 before the first sync). */
  get seq(): number {
    return this.lastSeq;
  }

  /** How many spaces have held vectors here. */
  get spaceCount(): number {
    return this.spaceCodes.size;
  }

  /** The internal code of a space, or undefined when no vector of it was ever held. */
  spaceCode(space: string): number | undefined {
    return this.spaceCodes.get(space);
  }

  /** Number of vectors held for a space code. */
  spaceSize(code: number): number {
    return this.spaceSizes[code] ?? 0;
  }

  /** True when the item has a vector here. */
  has(pk: number): boolean {
    return this.slotOf.has(pk);
  }

  /** The space code of an item's vector, or -1 when it has none. */
  spaceOf(pk: number): number {
    const slot = this.slotOf.get(pk);
    return slot === undefined ? -1 : this.spaces[slot]!;
  }

  /** A view of an item's vector (valid until the next sync), or undefined. */
  vectorOf(pk: number): Float32Array | undefined {
    const slot = this.slotOf.get(pk);
    if (slot === undefined) return undefined;
    return this.vectors.subarray(slot * this.dimension, (slot + 1) * this.dimension);
  }

  /** Exact score of one item against the query, or undefined when it is absent or in another space. */
  scoreIn(pk: number, code: number, query: Float32Array): number | undefined {
    const slot = this.slotOf.get(pk);
    if (slot === undefined || this.spaces[slot] !== code) return undefined;
    return dot4(this.vectors, slot * this.dimension, query, 0, this.dimension);
  }

  /** Every item key held (for rebuilding derived state). */
  keys(): IterableIterator<number> {
    return this.slotOf.keys();
  }

  /** Brings the mirror up to date with the store's vector log. */
  sync(): void {
    this.syncInTransaction();
  }

  private applyDelta(): void {
    const seq = (
      this.sql.get("SELECT value FROM counters WHERE name = 'vector_seq'").get() as {
        value: number;
      }
    ).value;
    if (seq === this.lastSeq) return;
    const since = this.lastSeq;
    if (since < 0) this.reserve(this.countStored());
    const changes: [pk: number, seq: number][] = [];
    // Streamed, and copied straight into the matrix: the first sync of a large store reads every
    // vector, and a row object plus a vector copy each would double the memory it needs.
    // Rows as arrays, not objects: a third less time on the first sync of a large store.
    const rows = this.sql
      .get(
        'SELECT v.item_pk, v.seq, v.vector, i.space FROM vectors v JOIN items i ON i.pk = v.item_pk WHERE v.model = ? AND v.seq > ? AND v.seq <= ?',
      )
      .raw(true)
      .iterate(this.model, since, seq) as IterableIterator<DeltaRow>;
    for (const [pk, at, vector, space] of rows) {
      if (vector) this.put(pk, space, vector);
      else this.remove(pk);
      if (this.onChange) changes.push([pk, at]);
    }
    const removed = this.sql
      .get(
        'SELECT d.item_pk, d.seq FROM vector_deletions d WHERE d.model = ? AND d.seq > ? AND d.seq <= ? AND NOT EXISTS (SELECT 1 FROM vectors v WHERE v.item_pk = d.item_pk AND v.model = d.model)',
      )
      .all(this.model, since, seq) as { item_pk: number; seq: number }[];
    for (const row of removed) {
      this.remove(row.item_pk);
      changes.push([row.item_pk, row.seq]);
    }
    this.lastSeq = seq;
    if (this.onChange) {
      changes.sort((a, b) => a[1] - b[1]);
      for (const [pk, at] of changes) this.onChange(pk, at);
    }
  }

  /** Exact top-`limit` cosine scan over one space, optionally restricted to allowed keys. */
  search(
    space: string,
    query: Float32Array,
    limit: number,
    allowed?: ReadonlySet<number>,
  ): VectorHit[] {
    const code = this.spaceCodes.get(space);
    return code === undefined ? [] : this.searchCode(code, query, limit, allowed);
  }

  /** The exact scan of `search`, for a space given by its code. */
  searchCode(
    code: number,
    query: Float32Array,
    limit: number,
    allowed?: ReadonlySet<number>,
  ): VectorHit[] {
    if (limit <= 0) return [];
    const top = new TopK(limit);
    if (this.arena) {
      try {
        this.scanKernel(this.arena, code, query, top, allowed);
        return top.sorted();
      } catch (err) {
        if (!(err instanceof RangeError)) throw err;
        // No WebAssembly memory left for the call's scratch: scanned the portable way from now on.
        this.leaveArena();
      }
    }
    this.scanPlain(code, query, top, allowed);
    return top.sorted();
  }

  private scanPlain(code: number, query: Float32Array, top: TopK, allowed?: ReadonlySet<number>) {
    const { plain: vectors, dimension: dim, spaces, pks, count } = this;
    let floor = top.floor;
    for (let slot = 0; slot < count; slot++) {
      if (spaces[slot] !== code) continue;
      const pk = pks[slot]!;
      if (allowed && !allowed.has(pk)) continue;
      const sum = dot4(vectors, slot * dim, query, 0, dim);
      if (sum > floor) {
        top.push(pk, sum);
        floor = top.floor;
      }
    }
  }

  /** `scanPlain` through the kernel, a chunk of rows at a time (the same sums, in slot order). */
  private scanKernel(
    arena: SimdArena,
    code: number,
    query: Float32Array,
    top: TopK,
    allowed?: ReadonlySet<number>,
  ) {
    const { dimension: dim, spaces, pks, count } = this;
    // Every row when the space holds them all, else the passing rows gathered by slot.
    const every = !allowed && this.spaceSizes[code] === count;
    const slots = every ? null : new Int32Array(Math.min(SCAN_CHUNK, count));
    let floor = top.floor;
    for (let first = 0; first < count; first += SCAN_CHUNK) {
      const end = Math.min(count, first + SCAN_CHUNK);
      let n = end - first;
      if (slots) {
        n = 0;
        for (let slot = first; slot < end; slot++)
          if (spaces[slot] === code && (!allowed || allowed.has(pks[slot]!))) slots[n++] = slot;
        if (n === 0) continue;
      }
      const sums = slots
        ? arena.dotSlots(slots.subarray(0, n), dim, query, 1)
        : arena.dotRows(first, n, dim, query, 1);
      for (let i = 0; i < n; i++) {
        const sum = sums[i]!;
        if (sum > floor) {
          top.push(pks[slots ? slots[i]! : first + i]!, sum);
          floor = top.floor;
        }
      }
    }
  }

  /** The exact top `limit` among the given items (for a selective filter: cost by their number). */
  searchAmong(
    code: number,
    query: Float32Array,
    limit: number,
    pks: Iterable<number>,
  ): VectorHit[] {
    const top = new TopK(limit);
    for (const pk of pks) {
      const score = this.scoreIn(pk, code, query);
      if (score !== undefined && score > top.floor) top.push(pk, score);
    }
    return top.sorted();
  }

  private codeFor(space: string): number {
    let code = this.spaceCodes.get(space);
    if (code === undefined) {
      code = this.spaceCodes.size;
      this.spaceCodes.set(space, code);
      this.spaceSizes.push(0);
    }
    return code;
  }

  /** Vectors of the model in the store (to size the matrix once on the first sync). */
  private countStored(): number {
    return (
      this.db.prepare('SELECT count(*) AS n FROM vectors WHERE model = ?').get(this.model) as {
        n: number;
      }
    ).n;
  }

  private grow(): void {
    this.reserve(this.pks.length * 2);
  }

  /** Makes room for `capacity` vectors (never shrinks). */
  private reserve(capacity: number): void {
    if (capacity <= this.pks.length) return;
    this.reserveVectors(capacity * this.dimension);
    const pks = new Float64Array(capacity);
    pks.set(this.pks);
    const spaces = new Int32Array(capacity);
    spaces.set(this.spaces);
    this.pks = pks;
    this.spaces = spaces;
  }

  /** Grows the matrix to `floats`; past what WebAssembly memory holds, into an ordinary array. */
  private reserveVectors(floats: number): void {
    if (this.arena) {
      try {
        this.arena.reserve(floats);
        return;
      } catch (err) {
        if (!(err instanceof RangeError)) throw err;
        this.leaveArena();
      }
    }
    const vectors = new Float32Array(floats);
    vectors.set(this.plain);
    this.plain = vectors;
  }

  /** The matrix as bytes (one view, made again when the matrix is replaced). */
  private bytes(): Uint8Array {
    const vectors = this.vectors;
    const view = this.byteView;
    if (view && view.buffer === vectors.buffer && view.byteLength === vectors.byteLength)
      return view;
    return (this.byteView = new Uint8Array(vectors.buffer, vectors.byteOffset, vectors.byteLength));
  }

  /** Out of WebAssembly memory: the rows move to an ordinary array, scanned by `dot4`. */
  private leaveArena(): void {
    if (!this.arena) return;
    this.plain = new Float32Array(this.arena.rows);
    this.arena = null;
  }

  private put(pk: number, space: string, blob: Buffer): void {
    if (blob.byteLength !== this.dimension * 4) return;
    let slot = this.slotOf.get(pk);
    const code = this.codeFor(space);
    if (slot === undefined) {
      if (this.count === this.pks.length) this.grow();
      slot = this.count++;
      this.slotOf.set(pk, slot);
    } else this.spaceSizes[this.spaces[slot]!]!--;
    // Buffer#copy: a memcpy, twenty times faster than TypedArray#set from a Buffer.
    blob.copy(this.bytes(), slot * this.dimension * 4);
    this.pks[slot] = pk;
    this.spaces[slot] = code;
    this.spaceSizes[code]!++;
  }

  private remove(pk: number): void {
    const slot = this.slotOf.get(pk);
    if (slot === undefined) return;
    this.spaceSizes[this.spaces[slot]!]!--;
    const last = --this.count;
    if (slot !== last) {
      const lastPk = this.pks[last]!;
      this.vectors.copyWithin(
        slot * this.dimension,
        last * this.dimension,
        (last + 1) * this.dimension,
      );
      this.pks[slot] = lastPk;
      this.spaces[slot] = this.spaces[last]!;
      this.slotOf.set(lastPk, slot);
    }
    // The freed slot keeps no copy of a removed (perhaps purged) vector in memory.
    this.vectors.fill(0, last * this.dimension, (last + 1) * this.dimension);
    this.slotOf.delete(pk);
  }
}
