/**
 * In-memory mirror of one model's vectors for exact cosine scan. It follows the store's vector
 * change log (a sequence counter bumped on every vector write or removal), so writes made by other
 * processes on the same file are picked up incrementally before each search.
 */
import type { SqliteDatabase } from './database.js';
import { blobToVector } from './rows.js';

/** A scored slot, best first. */
export interface VectorHit {
  pk: number;
  score: number;
}

/** Bounded min-heap keeping the best `size` scores. */
export class TopK {
  private readonly scores: Float64Array;
  private readonly keys: Float64Array;
  private n = 0;

  constructor(private readonly size: number) {
    this.scores = new Float64Array(Math.max(1, size));
    this.keys = new Float64Array(Math.max(1, size));
  }

  /** Lowest kept score, or -Infinity while not full. */
  get floor(): number {
    return this.n < this.size ? -Infinity : this.scores[0]!;
  }

  /** Offers one candidate. */
  push(key: number, score: number): void {
    if (this.size <= 0) return;
    if (this.n < this.size) {
      this.scores[this.n] = score;
      this.keys[this.n] = key;
      this.up(this.n++);
    } else if (score > this.scores[0]!) {
      this.scores[0] = score;
      this.keys[0] = key;
      this.down(0);
    }
  }

  /** The kept candidates, best first (ties by smaller key). */
  sorted(): VectorHit[] {
    const out: VectorHit[] = [];
    for (let i = 0; i < this.n; i++) out.push({ pk: this.keys[i]!, score: this.scores[i]! });
    return out.sort((a, b) => b.score - a.score || a.pk - b.pk);
  }

  private swap(a: number, b: number): void {
    const s = this.scores[a]!;
    this.scores[a] = this.scores[b]!;
    this.scores[b] = s;
    const k = this.keys[a]!;
    this.keys[a] = this.keys[b]!;
    this.keys[b] = k;
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.scores[p]! <= this.scores[i]!) return;
      this.swap(p, i);
      i = p;
    }
  }

  private down(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.n && this.scores[l]! < this.scores[m]!) m = l;
      if (r < this.n && this.scores[r]! < this.scores[m]!) m = r;
      if (m === i) return;
      this.swap(m, i);
      i = m;
    }
  }
}

interface DeltaRow {
  item_pk: number;
  seq: number;
  vector: Buffer | null;
  space: string;
}

/** The vectors of one model, held in one contiguous matrix. */
export class VectorCache {
  private vectors: Float32Array;
  private pks: Float64Array;
  private spaces: Int32Array;
  private readonly slotOf = new Map<number, number>();
  private readonly spaceCodes = new Map<string, number>();
  private count = 0;
  private lastSeq = -1;

  constructor(
    private readonly db: SqliteDatabase,
    readonly model: string,
    readonly dimension: number,
  ) {
    this.vectors = new Float32Array(1024 * dimension);
    this.pks = new Float64Array(1024);
    this.spaces = new Int32Array(1024);
  }

  /** Number of vectors held. */
  get size(): number {
    return this.count;
  }

  /** Brings the mirror up to date with the store's vector log. */
  sync(): void {
    this.db.transaction(() => this.applyDelta())();
  }

  private applyDelta(): void {
    const seq = (
      this.db.prepare("SELECT value FROM counters WHERE name = 'vector_seq'").get() as {
        value: number;
      }
    ).value;
    if (seq === this.lastSeq) return;
    const since = this.lastSeq;
    const rows = this.db
      .prepare(
        'SELECT v.item_pk, v.seq, v.vector, i.space FROM vectors v JOIN items i ON i.pk = v.item_pk WHERE v.model = ? AND v.seq > ? AND v.seq <= ?',
      )
      .all(this.model, since, seq) as DeltaRow[];
    for (const row of rows) {
      if (row.vector) this.put(row.item_pk, row.space, blobToVector(row.vector));
      else this.remove(row.item_pk);
    }
    const removed = this.db
      .prepare('SELECT item_pk FROM vector_deletions WHERE model = ? AND seq > ? AND seq <= ?')
      .all(this.model, since, seq) as { item_pk: number }[];
    for (const row of removed) {
      const current = this.db
        .prepare('SELECT seq FROM vectors WHERE item_pk = ? AND model = ?')
        .get(row.item_pk, this.model) as { seq: number } | undefined;
      if (!current) this.remove(row.item_pk);
    }
    this.lastSeq = seq;
  }

  /** Exact top-`limit` cosine scan over one space, optionally restricted to allowed keys. */
  search(
    space: string,
    query: Float32Array,
    limit: number,
    allowed?: ReadonlySet<number>,
  ): VectorHit[] {
    const code = this.spaceCodes.get(space);
    if (code === undefined || limit <= 0) return [];
    const top = new TopK(limit);
    const dim = this.dimension;
    const vectors = this.vectors;
    for (let slot = 0; slot < this.count; slot++) {
      if (this.spaces[slot] !== code) continue;
      const pk = this.pks[slot]!;
      if (allowed && !allowed.has(pk)) continue;
      let sum = 0;
      const base = slot * dim;
      for (let d = 0; d < dim; d++) sum += vectors[base + d]! * query[d]!;
      if (sum > top.floor) top.push(pk, sum);
    }
    return top.sorted();
  }

  private codeFor(space: string): number {
    let code = this.spaceCodes.get(space);
    if (code === undefined) {
      code = this.spaceCodes.size;
      this.spaceCodes.set(space, code);
    }
    return code;
  }

  private grow(): void {
    const capacity = this.pks.length * 2;
    const vectors = new Float32Array(capacity * this.dimension);
    vectors.set(this.vectors);
    const pks = new Float64Array(capacity);
    pks.set(this.pks);
    const spaces = new Int32Array(capacity);
    spaces.set(this.spaces);
    this.vectors = vectors;
    this.pks = pks;
    this.spaces = spaces;
  }

  private put(pk: number, space: string, vector: Float32Array): void {
    if (vector.length !== this.dimension) return;
    let slot = this.slotOf.get(pk);
    if (slot === undefined) {
      if (this.count === this.pks.length) this.grow();
      slot = this.count++;
      this.slotOf.set(pk, slot);
    }
    this.vectors.set(vector, slot * this.dimension);
    this.pks[slot] = pk;
    this.spaces[slot] = this.codeFor(space);
  }

  private remove(pk: number): void {
    const slot = this.slotOf.get(pk);
    if (slot === undefined) return;
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
    this.slotOf.delete(pk);
  }
}
