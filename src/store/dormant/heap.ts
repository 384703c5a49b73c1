/**
 * A bounded heap keeping the best `size` candidates of an exact scan (§9.2): higher score first,
 * exact ties to the smaller id, so the kept set never depends on the order rows arrive in.
 */

/** A candidate offered to the heap. */
export interface HeapEntry<T> {
  id: string;
  score: number;
  value: T;
}

/** True when `a` ranks below `b`. */
function worse<T>(a: HeapEntry<T>, b: HeapEntry<T>): boolean {
  return a.score < b.score || (a.score === b.score && a.id > b.id);
}

/** Min-heap of the best `size` entries (the root is the worst one kept). */
export class BoundedHeap<T> {
  private readonly items: HeapEntry<T>[] = [];

  constructor(private readonly size: number) {}

  /** Number of entries kept. */
  get length(): number {
    return this.items.length;
  }

  /** Lowest kept score while full (a cheap pre-check for callers), else -Infinity. */
  get floor(): number {
    return this.items.length < this.size ? -Infinity : this.items[0]!.score;
  }

  /** Offers one entry; kept when the heap is not full or it beats the worst kept. */
  push(entry: HeapEntry<T>): void {
    if (this.size <= 0) return;
    if (this.items.length < this.size) {
      this.items.push(entry);
      this.up(this.items.length - 1);
    } else if (worse(this.items[0]!, entry)) {
      this.items[0] = entry;
      this.down(0);
    }
  }

  /** The kept entries, best first. */
  sorted(): HeapEntry<T>[] {
    return [...this.items].sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
  }

  private up(i: number): void {
    const items = this.items;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!worse(items[i]!, items[p]!)) return;
      [items[i], items[p]] = [items[p]!, items[i]!];
      i = p;
    }
  }

  private down(i: number): void {
    const items = this.items;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < items.length && worse(items[l]!, items[m]!)) m = l;
      if (r < items.length && worse(items[r]!, items[m]!)) m = r;
      if (m === i) return;
      [items[i], items[m]] = [items[m]!, items[i]!];
      i = m;
    }
  }
}
