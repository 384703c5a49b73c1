/**
 * Items of one space whose vectors are identical share one point of the HNSW graph: the first of
 * them is the point (its label), the others ride on it and are re-scored with it.
 *
 * Identical vectors are common: the static embedder ignores words it does not know (names,
 * numbers, codes), so "call Ana at 10:30" and "call Ben at 16:00" embed alike; 13% of the scale
 * benchmark's million memories repeat another's vector, in groups of up to a hundred. Inserted
 * as separate points, each copy fills its neighbour list with the other copies, the group becomes
 * an island the graph walk can barely leave, and a search's candidate list fills with copies:
 * on that corpus recall@10 fell to 0.95 at a million vectors with 4,000 candidates.
 *
 * A vector is known by its space and a 32-bit hash of its bits, confirmed against the point's own
 * vector in the graph (a hash shared by different vectors leaves the newcomer a point of its own,
 * unregistered). Only the graph is saved: after a load, `rebuild` finds the riders again from the
 * vector mirror, and hands back those whose point the file lacks, to be placed again.
 */
import type { HnswIndex } from './ann-index.js';

/** Where an item's vector sits: its own point, or riding on another item's. */
export class SharedPoints {
  /** The registered point of each vector key. */
  private pointOf = new Map<number, number>();
  /** The key each registered point is registered under, by label (NaN: none). */
  private keyOf = new Float64Array(1024).fill(Number.NaN);
  /** The items sharing each point that carries riders, the point first. */
  private readonly sharers = new Map<number, number[]>();
  /** The point each rider rides on. */
  private readonly riding = new Map<number, number>();

  /** Items sharing `label`'s point, itself first; undefined when it carries no rider. */
  sharing(label: number): readonly number[] | undefined {
    return this.sharers.get(label);
  }

  /** Riders there are (items with no point of their own). */
  get riders(): number {
    return this.riding.size;
  }

  /** Places an item's (new or changed) vector: on the point of an identical one, else its own. */
  upsert(index: HnswIndex, pk: number, vector: Float32Array, space: number): void {
    const key = vectorKey(vector, space);
    // Unchanged: it is, or rides on, the registered point of this very vector.
    const on = this.riding.get(pk) ?? pk;
    if (this.keyOf[on] === key && sameVector(index.vectorOf(on), vector)) return;
    this.remove(index, pk);
    const point = this.pointOf.get(key);
    if (point !== undefined && sameVector(index.vectorOf(point), vector)) {
      this.ride(pk, point);
      return;
    }
    index.upsert(pk, vector);
    if (point === undefined) this.register(pk, key);
  }

  /** Takes an item's vector away; a point that carried riders passes to the first of them. */
  remove(index: HnswIndex, pk: number): void {
    const on = this.riding.get(pk);
    if (on !== undefined) {
      this.riding.delete(pk);
      const group = this.sharers.get(on)!;
      group.splice(group.indexOf(pk), 1);
      if (group.length === 1) this.sharers.delete(on);
      return;
    }
    const group = this.sharers.get(pk);
    const key = this.keyOf[pk] ?? Number.NaN;
    if (group) {
      const [, next, ...rest] = group;
      index.upsert(next!, index.vectorOf(pk));
      this.sharers.delete(pk);
      this.riding.delete(next!);
      if (rest.length > 0) this.sharers.set(next!, [next!, ...rest]);
      for (const r of rest) this.riding.set(r, next!);
      if (!Number.isNaN(key)) this.register(next!, key);
    } else if (!Number.isNaN(key)) this.pointOf.delete(key);
    if (!Number.isNaN(key)) this.keyOf[pk] = Number.NaN;
    index.remove(pk);
  }

  /**
   * Finds the points and riders of a graph loaded from a file again, from the mirror: `items` are
   * the items with a vector whose placement the file reflects (none pending). Returns the items
   * that ride on nothing the graph holds, to be placed again.
   *
   * A loaded file does not say which of its labels are deleted, and an item that rode on a point
   * may have been a point before: among items sharing a vector, the point is one whose label the
   * graph still answers with that very vector.
   */
  rebuild(
    index: HnswIndex,
    items: readonly number[],
    mirror: {
      vectorOf(pk: number): Float32Array | undefined;
      spaceOf(pk: number): number;
    },
  ): number[] {
    const vectorOf = (pk: number) => mirror.vectorOf(pk);
    this.keyOf.fill(Number.NaN);
    this.sharers.clear();
    this.riding.clear();
    const loose: number[] = [];
    // Items by vector key: the last of each key in `head`, each item's predecessor in `before`.
    const keys = new Float64Array(items.length);
    const before = new Int32Array(items.length).fill(-1);
    const head = new Map<number, number>();
    items.forEach((pk, i) => {
      const vector = vectorOf(pk);
      if (!vector) return;
      keys[i] = vectorKey(vector, mirror.spaceOf(pk));
      before[i] = head.get(keys[i]!) ?? -1;
      head.set(keys[i]!, i);
    });
    // `head` becomes the map of points: each key's value replaced in place, or the key dropped.
    this.pointOf = head;
    for (const [key, last] of head) {
      if (before[last] === -1) {
        const pk = items[last]!;
        if (index.holds(pk)) this.register(pk, key);
        else {
          head.delete(key);
          loose.push(pk);
        }
        continue;
      }
      const group: number[] = [];
      for (let i = last; i !== -1; i = before[i]!) group.unshift(items[i]!);
      const point = group.find((pk) => index.holds(pk) && answers(index, pk, vectorOf(pk)!));
      if (point !== undefined) this.register(point, key);
      else head.delete(key);
      for (const pk of group) {
        if (pk === point) continue;
        // A file written before points were shared may hold identical live points: they stay.
        if (index.holds(pk) && answers(index, pk, vectorOf(pk)!)) continue;
        if (point !== undefined && sameVector(vectorOf(point)!, vectorOf(pk)!))
          this.ride(pk, point);
        else loose.push(pk);
      }
    }
    return loose;
  }

  private ride(pk: number, point: number): void {
    this.riding.set(pk, point);
    const group = this.sharers.get(point);
    if (group) group.push(pk);
    else this.sharers.set(point, [point, pk]);
  }

  private register(pk: number, key: number): void {
    if (pk >= this.keyOf.length) {
      const grown = new Float64Array(Math.max(pk + 1, this.keyOf.length * 2)).fill(Number.NaN);
      grown.set(this.keyOf);
      this.keyOf = grown;
    }
    this.keyOf[pk] = key;
    this.pointOf.set(key, pk);
  }
}

/**
 * A 32-bit hash of a vector's bits and its space (a small integer, which V8's maps key fastest);
 * vectors sharing it are confirmed equal bit for bit before they share a point.
 */
export function vectorKey(vector: Float32Array, space: number): number {
  const bits = new Uint32Array(vector.buffer, vector.byteOffset, vector.length);
  let h = Math.imul(0x811c9dc5 ^ space, 0x01000193);
  for (let i = 0; i < bits.length; i++) h = Math.imul(h ^ bits[i]!, 0x01000193);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  return (h ^ (h >>> 13)) | 0;
}

/** Whether the graph holds `pk` as a live point with this vector (a deleted label throws). */
function answers(index: HnswIndex, pk: number, vector: Float32Array): boolean {
  try {
    return sameVector(index.vectorOf(pk), vector);
  } catch {
    return false;
  }
}

function sameVector(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
