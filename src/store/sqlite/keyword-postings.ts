/**
 * The in-memory keyword index's postings (keyword-memory.ts): per term, the rows holding it with
 * their weighted frequency; per row, its length, space, status, creation time and terms; scored
 * with FTS5's BM25 and its order of operations.
 */
import type { RowText, RowTokens } from './keyword-tokens.js';
import { TopK } from './top-k.js';

/** FTS5's BM25 constants. */
const K1 = 1.2;
const B = 0.75;

/** A row best first: its key and FTS5's rank (the negated score). */
export interface RankedRow {
  pk: number;
  rank: number;
}

/** A matching item with its id and BM25 score. */
export interface MatchedItem {
  id: string;
  score: number;
}

/** The rows matching any term of one query, scored. */
export interface KeywordRanking {
  /** How many rows matched. */
  readonly matched: number;
  /** The best `n` rows, best first. */
  top(n: number): RankedRow[];
  /**
   * The best `n` items whose status is one of `statuses` (a null status counts as active),
   * created within the range when one is given.
   */
  items(n: number, where: MemoryFilter): MatchedItem[];
}

/** What the index filters on besides the space. */
export interface MemoryFilter {
  statuses: readonly string[];
  created_after?: number;
  created_before?: number;
}

/** `a`, or a copy of it with room for `need` values (at least twice as long). */
function grown<
  T extends Uint8Array<ArrayBuffer> | Int32Array<ArrayBuffer> | Float64Array<ArrayBuffer>,
>(a: T, need: number): T {
  if (need <= a.length) return a;
  const next = new (a.constructor as new (length: number) => T)(Math.max(need, a.length * 2, 16));
  next.set(a);
  return next;
}

/** The postings and row statistics; rows are slots, a slot is never reused until a rebuild. */
export class Postings {
  private readonly termIds = new Map<string, number>();
  /** Per term: interleaved (slot, weighted frequency) pairs, in slot order. */
  private lists: Int32Array<ArrayBuffer>[] = [];
  private listUsed: number[] = [];
  private df: number[] = [];
  private slotPk = new Float64Array(0);
  private slotLength = new Float64Array(0);
  private slotSpace = new Int32Array(0);
  private slotStatus = new Int32Array(0);
  private slotCreated = new Float64Array(0);
  private slotId: string[] = [];
  private slotAlive = new Uint8Array(0);
  private slotTermsAt = new Int32Array(0);
  private slotTermsCount = new Int32Array(0);
  private rowTerms = new Int32Array(0);
  private rowTermsUsed = 0;
  private slots = 0;
  private readonly slotOf = new Map<number, number>();
  private readonly spaceCodes = new Map<string, number>();
  private readonly statusCodes = new Map<string, number>();
  /** Live rows and their total length in tokens (FTS5's row count and total size). */
  rows = 0;
  private tokens = 0;
  dead = 0;
  /** Scratch of `rank`: scores by slot (zero between queries) and the slots scored. */
  private scores = new Float64Array(0);
  private touched = new Int32Array(0);

  /** Removes the row `pk` if held. */
  remove(pk: number): void {
    const slot = this.slotOf.get(pk);
    if (slot === undefined) return;
    this.slotOf.delete(pk);
    this.slotAlive[slot] = 0;
    this.slotId[slot] = '';
    const at = this.slotTermsAt[slot]!;
    for (let i = at; i < at + this.slotTermsCount[slot]!; i++) this.df[this.rowTerms[i]!]!--;
    this.rows--;
    this.tokens -= this.slotLength[slot]!;
    this.dead++;
  }

  /** Adds (or replaces) a row. */
  put(r: RowText, row: RowTokens): void {
    const { pk, space } = r;
    this.remove(pk);
    const slot = this.slots++;
    if (slot >= this.slotPk.length) {
      const size = Math.max(16, this.slotPk.length * 2);
      this.slotPk = grown(this.slotPk, size);
      this.slotLength = grown(this.slotLength, size);
      this.slotSpace = grown(this.slotSpace, size);
      this.slotStatus = grown(this.slotStatus, size);
      this.slotCreated = grown(this.slotCreated, size);
      this.slotTermsAt = grown(this.slotTermsAt, size);
      this.slotTermsCount = grown(this.slotTermsCount, size);
      this.slotAlive = grown(this.slotAlive, size);
    }
    let code = this.spaceCodes.get(space);
    if (code === undefined) this.spaceCodes.set(space, (code = this.spaceCodes.size));
    this.slotPk[slot] = pk;
    this.slotLength[slot] = row.length;
    this.slotSpace[slot] = code;
    this.slotStatus[slot] = this.statusCode(r.status ?? 'active');
    this.slotCreated[slot] = r.created_at;
    this.slotId[slot] = r.id;
    this.slotAlive[slot] = 1;
    this.slotTermsAt[slot] = this.rowTermsUsed;
    this.slotTermsCount[slot] = row.freqs.size;
    this.rowTerms = grown(this.rowTerms, this.rowTermsUsed + row.freqs.size);
    for (const [term, freq] of row.freqs) {
      let id = this.termIds.get(term);
      if (id === undefined) {
        id = this.lists.length;
        this.termIds.set(term, id);
        this.lists.push(new Int32Array(4));
        this.listUsed.push(0);
        this.df.push(0);
      }
      const used = this.listUsed[id]!;
      const list = (this.lists[id] = grown(this.lists[id]!, used + 2));
      list[used] = slot;
      list[used + 1] = freq;
      this.listUsed[id] = used + 2;
      this.df[id]!++;
      this.rowTerms[this.rowTermsUsed++] = id;
    }
    this.slotOf.set(pk, slot);
    this.rows++;
    this.tokens += row.length;
  }

  private statusCode(status: string): number {
    let code = this.statusCodes.get(status);
    if (code === undefined) this.statusCodes.set(status, (code = this.statusCodes.size));
    return code;
  }

  /**
   * BM25 of every row of `space` matching any token, as FTS5 computes it: one phrase per query
   * term, in order (a token repeated counts again, as a repeated phrase does in FTS5).
   */
  rank(space: string, tokens: readonly (string | null)[]): KeywordRanking {
    const code = this.spaceCodes.get(space);
    if (code === undefined || this.rows === 0)
      return { matched: 0, top: () => [], items: () => [] };
    if (this.scores.length < this.slots) this.scores = new Float64Array(this.slotPk.length);
    const scores = this.scores;
    const avgdl = this.tokens / this.rows;
    if (this.touched.length < this.slots) this.touched = new Int32Array(this.slotPk.length);
    const touched = this.touched;
    const { slotAlive: alive, slotSpace: spaceOf, slotLength: lengthOf } = this;
    // One space held: no row needs its space checked.
    const spaces = this.spaceCodes.size > 1;
    let matched = 0;
    for (const token of tokens) {
      const id = token === null ? undefined : this.termIds.get(token);
      if (id === undefined) continue;
      const n = this.df[id]!;
      if (n === 0) continue;
      let idf = Math.log((this.rows - n + 0.5) / (n + 0.5));
      if (idf <= 0) idf = 1e-6;
      const list = this.lists[id]!;
      const used = this.listUsed[id]!;
      for (let i = 0; i < used; i += 2) {
        const slot = list[i]!;
        if (alive[slot] === 0 || (spaces && spaceOf[slot] !== code)) continue;
        const f = list[i + 1]!;
        const d = lengthOf[slot]!;
        const before = scores[slot]!;
        if (before === 0) touched[matched++] = slot;
        scores[slot] = before + idf * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * d) / avgdl)));
      }
    }
    const slots = touched.slice(0, matched);
    const found = new Float64Array(matched);
    for (let i = 0; i < matched; i++) {
      found[i] = scores[slots[i]!]!;
      scores[slots[i]!] = 0;
    }
    const { slotPk, slotStatus, slotId, slotCreated } = this;
    // The best `want` of the matched rows (those `where` allows, when given), ties by key.
    const best = (want: number, where?: { allowed: Uint8Array; after: number; before: number }) => {
      const top = new TopK(Math.min(want, matched));
      let floor = -Infinity;
      for (let i = 0; i < matched; i++) {
        const score = found[i]!;
        // Below the kept floor: out, whatever its key (ties at the floor are offered).
        if (score < floor) continue;
        const slot = slots[i]!;
        if (where) {
          if (where.allowed[slotStatus[slot]!] !== 1) continue;
          const created = slotCreated[slot]!;
          if (created < where.after || created >= where.before) continue;
        }
        top.push(slotPk[slot]!, score);
        floor = top.floor;
      }
      return top.sorted();
    };
    return {
      matched,
      top: (want) => best(want).map((h) => ({ pk: h.pk, rank: -h.score })),
      items: (want, where) => {
        const allowed = new Uint8Array(this.statusCodes.size + 1);
        for (const s of where.statuses) {
          const c = this.statusCodes.get(s);
          if (c !== undefined) allowed[c] = 1;
        }
        const after = where.created_after ?? -Infinity;
        const before = where.created_before ?? Infinity;
        return best(want, { allowed, after, before }).map((h) => ({
          id: slotId[this.slotOf.get(h.pk)!]!,
          score: h.score,
        }));
      },
    };
  }
}
