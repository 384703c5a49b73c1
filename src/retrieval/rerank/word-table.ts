/**
 * The alignment scorer's word-level state, kept per set of word vectors across scoring calls:
 * analysed texts, unit word vectors in one slab (in WebAssembly memory where the SIMD kernel runs,
 * src/domain/simd-dot.ts) and per-word marks that give a call's distinct words their columns.
 */
import { toldForms } from '../../domain/inflection.js';
import { SimdArena } from '../../domain/simd-dot.js';
import { STOP_WORDS } from '../../domain/text.js';
import type { WordVectorLookup } from '../../embed/embedder.js';
import { stem } from './stem.js';

/** A text reduced to what matching needs: its content stems (as ids) and its known word ids. */
export interface Analysed {
  stems: Int32Array;
  ids: Int32Array;
  /** The scoring call (`WordTable.calls`) that last judged it, and where its bests are there. */
  call: number;
  at: number;
}

/** Content tokens only: no stop-words, clitics or single characters. */
export function isContent(token: string): boolean {
  return token.length > 1 && !token.startsWith("'") && token !== "n't" && !STOP_WORDS.has(token);
}

/**
 * Calls `visit` with each content token of `tokens` and its stem: English (Porter2) stems without
 * English stop-words or, when `told` (a query told another language), the told language's stems
 * without its function words for the words of that language (src/domain/inflection.ts).
 */
export function eachContent(
  tokens: readonly string[],
  told: boolean,
  visit: (token: string, stem: string) => void,
): void {
  const forms = told ? toldForms(tokens) : null;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const form = forms?.[i];
    if (form === null || (form === undefined && !isContent(token))) continue;
    visit(token, form ?? stem(token));
  }
}

const CACHE_LIMIT = 20_000;
const STEM_LIMIT = 5 * CACHE_LIMIT;

/** Slots of the table of texts seen once lately (a power of two; 256 KiB). */
const SEEN_SLOTS = 1 << 16;

/** FNV-1a over the UTF-16 code units of `text`, never 0 (0 marks an empty slot). */
function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 1;
}

/**
 * Per word-vector set, reused across calls: analysed texts (bounded), unit word vectors in one
 * slab (bounded), and per-word marks that give a scoring call's distinct words their columns
 * without a map (three integers per vocabulary word: about 4 MB for the built-in vectors).
 */
export class WordTable {
  readonly texts = new Map<string, Analysed>();
  /** The same texts analysed for a query told another language than English (`analyser`). */
  readonly toldTexts = new Map<string, Analysed>();
  /** Ids of the stems the analysed texts hold. */
  readonly stems = new Map<string, number>();
  readonly dimension: number;
  /** WebAssembly memory holding the slab, when the kernel can run (simd-dot.ts). */
  private arena: SimdArena | null;
  /** The slab when there is no arena. */
  private plain: Float32Array;
  private readonly slot: Int32Array;
  private used = 0;
  /** `column[id]` is the word's column in the call that set `stamp[id]` to its generation. */
  readonly column: Int32Array;
  readonly stamp: Uint32Array;
  private generation = 0;
  /** Scoring calls started (never wraps, unlike the stamps' generation). */
  calls = 0;
  /** Hashes of texts analysed once and not kept, one per slot (the newest wins a slot). */
  private readonly seen = new Int32Array(SEEN_SLOTS);

  constructor(readonly words: WordVectorLookup) {
    this.dimension = words.size > 0 ? words.wordVector(0).length : 0;
    this.slot = new Int32Array(words.size).fill(-1);
    this.arena = this.dimension % 4 === 0 ? SimdArena.create(this.dimension * 256) : null;
    this.plain = this.arena ? new Float32Array(0) : new Float32Array(this.dimension * 256);
    this.column = new Int32Array(words.size);
    this.stamp = new Uint32Array(words.size);
  }

  /**
   * Unit vectors, `dimension` floats each, at `slot[id] * dimension`. Replaced when it grows and
   * whenever the arena's memory does: read it again after any call on the table or the arena.
   */
  get slab(): Float32Array {
    return this.arena ? this.arena.rows : this.plain;
  }

  /** Offset of the word's unit vector in `slab`. */
  offset(id: number): number {
    const at = this.slot[id]!;
    if (at >= 0) return at * this.dimension;
    // A full slab is dropped wholesale (refilling is cheap).
    if (this.used >= CACHE_LIMIT) this.drop();
    return this.place(id);
  }

  /**
   * Slots of the words `ids` in `slab`, all held at once: a slab that cannot take the new ones
   * is dropped first (a call's words never push each other out), and grows past its bound for a
   * call with more words than that.
   */
  slotsOf(ids: readonly number[]): Int32Array {
    const { slot } = this;
    const out = new Int32Array(ids.length);
    let fresh = 0;
    for (let i = 0; i < ids.length; i++) if ((out[i] = slot[ids[i]!]!) < 0) fresh++;
    if (fresh === 0) return out;
    if (this.used + fresh > Math.max(CACHE_LIMIT, ids.length)) {
      this.drop();
      out.fill(-1);
    }
    for (let i = 0; i < ids.length; i++)
      if (out[i]! < 0) out[i] = this.place(ids[i]!) / this.dimension;
    return out;
  }

  private drop(): void {
    this.slot.fill(-1);
    this.used = 0;
  }

  /** Copies the word's unit vector into the next free slot; returns its offset. */
  private place(id: number): number {
    if ((this.used + 1) * this.dimension > this.slab.length) {
      const rows = Math.max(CACHE_LIMIT, 2 * (this.used + 1));
      const size = Math.min(this.slab.length * 2, rows * this.dimension);
      if (this.arena && !this.tryReserve(this.arena, size)) this.leaveArena();
      if (!this.arena) {
        const grown = new Float32Array(size);
        grown.set(this.plain.subarray(0, this.used * this.dimension));
        this.plain = grown;
      }
    }
    const slot = this.used++;
    this.slot[id] = slot;
    this.slab.set(this.words.wordVector(id), slot * this.dimension);
    return slot * this.dimension;
  }

  /**
   * dot(word in slot s, term q) at `i * k + q` for the i-th of `slots`, from the kernel; null
   * when there is no arena (any more: a call that finds no memory for its scratch leaves it).
   */
  dots(slots: Int32Array, terms: Float64Array, k: number): Float64Array | null {
    if (!this.arena) return null;
    try {
      return this.arena.dotSlots(slots, this.dimension, terms, k);
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      this.leaveArena();
      return null;
    }
  }

  private tryReserve(arena: SimdArena, floats: number): boolean {
    try {
      arena.reserve(floats);
      return true;
    } catch (err) {
      if (err instanceof RangeError) return false;
      throw err;
    }
  }

  /** Out of WebAssembly memory: the slab moves to an ordinary array, read by `dot4`. */
  private leaveArena(): void {
    if (!this.arena) return;
    this.plain = new Float32Array(this.arena.rows);
    this.arena = null;
  }

  /**
   * Drops the analysed texts and their stem ids when there are too many of either (between calls
   * only; texts analysed and not kept add stems too).
   */
  trim(): void {
    const texts = this.texts.size + this.toldTexts.size;
    if (texts < CACHE_LIMIT && this.stems.size < STEM_LIMIT) return;
    this.texts.clear();
    this.toldTexts.clear();
    this.stems.clear();
  }

  /**
   * Whether to keep the analysis of `text`: only on its second sighting while its mark lasts.
   * Memories judged again and again (a conversation's turns, asked about many times) are kept
   * after one more analysis; in a large store, where most candidates of a recall are never judged
   * again, keeping each one would only fill the cache with texts that outlive the recall (work
   * for every garbage collection) and push out the ones that return.
   */
  admit(text: string): boolean {
    const h = textHash(text);
    const slot = (h ^ (h >>> 16)) & (SEEN_SLOTS - 1);
    if (this.seen[slot] === h) return true;
    this.seen[slot] = h;
    return false;
  }

  stemId(stem: string): number {
    let id = this.stems.get(stem);
    if (id === undefined) this.stems.set(stem, (id = this.stems.size));
    return id;
  }

  /** The two collectors of `distinct`: a text's stem ids, its word ids. */
  private readonly collectors = [new Distinct(), new Distinct()];

  /**
   * A collector of distinct non-negative integers in first-seen order, emptied and reused: what
   * analysing a text gathers (no set per text; a text's analysis is most of a large store's
   * recall garbage otherwise).
   */
  distinct(which: 0 | 1): Distinct {
    return this.collectors[which]!.start();
  }

  /** Starts a scoring call: every word is without a column again. */
  nextCall(): number {
    this.calls++;
    if (++this.generation === 0xffffffff) {
      this.stamp.fill(0);
      this.generation = 1;
    }
    return this.generation;
  }
}

/** Distinct integers in first-seen order: marks by value (grown as needed) and the values. */
export class Distinct {
  private marks = new Uint32Array(0);
  private generation = 0;
  private buffer = new Int32Array(64);
  private used = 0;

  /** Empties it. */
  start(): this {
    this.used = 0;
    if (++this.generation === 0xffffffff) {
      this.marks.fill(0);
      this.generation = 1;
    }
    return this;
  }

  add(value: number): void {
    if (value >= this.marks.length) {
      const marks = new Uint32Array(Math.max(value + 1, this.marks.length * 2, 1024));
      marks.set(this.marks);
      this.marks = marks;
    }
    if (this.marks[value] === this.generation) return;
    this.marks[value] = this.generation;
    if (this.used === this.buffer.length) {
      const buffer = new Int32Array(this.buffer.length * 2);
      buffer.set(this.buffer);
      this.buffer = buffer;
    }
    this.buffer[this.used++] = value;
  }

  /** A copy of the values added since `start`, in the order first added. */
  values(): Int32Array {
    return this.buffer.slice(0, this.used);
  }
}

const tables = new WeakMap<WordVectorLookup, WordTable>();

export function wordTable(words: WordVectorLookup): WordTable {
  let table = tables.get(words);
  if (table === undefined) tables.set(words, (table = new WordTable(words)));
  return table;
}

export function unitVector(words: WordVectorLookup, id: number): Float32Array {
  const table = wordTable(words);
  const at = table.offset(id);
  return table.slab.slice(at, at + table.dimension);
}

/**
 * Analyses texts for one scoring call, once per distinct text: kept across calls from a text's
 * second sighting (`WordTable.admit`; memories are judged again and again across recalls), within
 * the call otherwise. The table drops the kept ones between calls when there are too many (`trim`).
 * `told`: for a query told another language than English, each text's words of a language engram
 * stems are read as the keyword index reads them (src/domain/inflection.ts: that language's stems,
 * its function words left out); English and untold words as always (English stems and stop-words).
 */
export function analyser(table: WordTable, told: boolean): (text: string) => Analysed {
  const { words } = table;
  const texts = told ? table.toldTexts : table.texts;
  const once = new Map<string, Analysed>();
  return (text) => {
    const out = texts.get(text) ?? once.get(text);
    if (out !== undefined) return out;
    const stems = table.distinct(0);
    const ids = table.distinct(1);
    eachContent(words.tokenize(text), told, (token, form) => {
      stems.add(table.stemId(form));
      const id = words.wordId(token);
      if (id >= 0) ids.add(id);
    });
    const analysed = { stems: stems.values(), ids: ids.values(), call: 0, at: 0 };
    (table.admit(text) ? texts : once).set(text, analysed);
    return analysed;
  };
}
