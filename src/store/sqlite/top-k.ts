/**
 * The best `k` of scored keys, kept in a bounded min-heap: the vector scan, the HNSW candidates'
 * re-scoring and the in-memory keyword index rank with it.
 */

/** A scored slot, best first. */
export interface VectorHit {
  pk: number;
  score: number;
}

/** Bounded min-heap keeping the best `size` scores (of equal scores, the smaller keys). */
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
    } else if (score > this.scores[0]! || (score === this.scores[0]! && key < this.keys[0]!)) {
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

  /** Whether the entry at `a` is worse than the one at `b` (lower score, or larger key). */
  private worse(a: number, b: number): boolean {
    const sa = this.scores[a]!;
    const sb = this.scores[b]!;
    return sa < sb || (sa === sb && this.keys[a]! > this.keys[b]!);
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.worse(i, p)) return;
      this.swap(p, i);
      i = p;
    }
  }

  private down(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < this.n && this.worse(l, m)) m = l;
      if (r < this.n && this.worse(r, m)) m = r;
      if (m === i) return;
      this.swap(m, i);
      i = m;
    }
  }
}
