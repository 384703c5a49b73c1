/**
 * The loaded word-vector cache: word lookups through the in-file hash table, dequantised word
 * vectors, Zipf-estimated smooth-inverse-frequency (SIF) weights, and SIF sentence vectors. Shared
 * by the static embedder and by relevance scoring that works at word level.
 */
import { EngramError } from '../../domain/errors.js';
import { normalize } from '../embedder.js';
import { readCacheFile } from './cache-file.js';
import type { CacheViews } from './cache-format.js';
import { decodeCache, fnv1a } from './cache-format.js';
import { tokenize } from './tokenize.js';

/** Default SIF smoothing constant `a` (Arora et al. 2017 found 1e-3 to 1e-4 work well). */
export const DEFAULT_SIF_A = 1e-3;
/** Euler–Mascheroni constant: H(V) ≈ ln V + γ is the harmonic number normalising Zipf's law. */
const EULER_GAMMA = 0.5772;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Options for loading word vectors. */
export interface WordVectorsOptions {
  /** SIF smoothing constant `a`; must be positive. */
  sifA?: number;
}

/** A loaded word-vector cache (immutable; safe to share). */
export class WordVectors {
  /** Vocabulary size V. */
  readonly size: number;
  /** Vector length. */
  readonly dimension: number;
  /** Low 32 bits of the source JSON's byte size when the cache was built. */
  readonly sourceSize: number;
  /** The SIF constant `a` used by `wordWeight`. */
  readonly sifA: number;
  private readonly views: CacheViews;
  private readonly mask: number;
  /** 1 / H(V): Zipf's law gives p(rank r) = 1 / (r · H(V)). */
  private readonly invHarmonic: number;
  private readonly isKnown = (token: string): boolean => this.wordId(token) >= 0;

  private constructor(views: CacheViews, options: WordVectorsOptions) {
    const sifA = options.sifA ?? DEFAULT_SIF_A;
    if (!(sifA > 0) || !Number.isFinite(sifA)) {
      throw new EngramError('INVALID_INPUT', 'sifA must be a positive number', {
        field: 'sifA',
        rule: 'positive',
      });
    }
    this.views = views;
    this.size = views.wordCount;
    this.dimension = views.dimension;
    this.sourceSize = views.sourceSize;
    this.sifA = sifA;
    this.mask = views.slots.length - 1;
    this.invHarmonic = 1 / (Math.log(Math.max(views.wordCount, 1)) + EULER_GAMMA);
  }

  /**
   * Reads a cache file (checked in full on first sight, matrix rows on demand once verified, see
   * cache-file.ts); a missing or corrupt file throws a rebuildable error.
   */
  static load(path: string, options: WordVectorsOptions = {}): WordVectors {
    return new WordVectors(readCacheFile(path), options);
  }

  /** Wraps an in-memory cache image (validated like a file). */
  static fromBytes(bytes: Uint8Array, options: WordVectorsOptions = {}): WordVectors {
    return new WordVectors(decodeCache(bytes), options);
  }

  /** Id (0-based frequency rank) of an exact vocabulary token, or -1 when unknown. */
  wordId(token: string): number {
    let h = FNV_OFFSET;
    for (let i = 0; i < token.length; i++) {
      const c = token.charCodeAt(i);
      // Non-ASCII needs the UTF-8 bytes the table was hashed over; ASCII hashes straight from chars.
      if (c > 0x7f) return this.lookupBytes(Buffer.from(token, 'utf8'));
      h = Math.imul(h ^ c, FNV_PRIME);
    }
    if (token.length === 0) return -1;
    const { slots, offsets, vocab } = this.views;
    for (let slot = (h >>> 0) & this.mask; ; slot = (slot + 1) & this.mask) {
      const held = slots[slot]!;
      if (held === 0) return -1;
      const start = offsets[held - 1]!;
      if (offsets[held]! - start !== token.length) continue;
      let i = 0;
      while (i < token.length && vocab[start + i] === token.charCodeAt(i)) i++;
      if (i === token.length) return held - 1;
    }
  }

  private lookupBytes(bytes: Uint8Array): number {
    const { slots, offsets, vocab } = this.views;
    for (let slot = fnv1a(bytes, 0, bytes.length) & this.mask; ; slot = (slot + 1) & this.mask) {
      const held = slots[slot]!;
      if (held === 0) return -1;
      const start = offsets[held - 1]!;
      if (offsets[held]! - start !== bytes.length) continue;
      let i = 0;
      while (i < bytes.length && vocab[start + i] === bytes[i]) i++;
      if (i === bytes.length) return held - 1;
    }
  }

  /** 1-based corpus-frequency rank of a token, or -1 when unknown. */
  rankOf(token: string): number {
    const id = this.wordId(token);
    return id < 0 ? -1 : id + 1;
  }

  /** The vocabulary token with this id. */
  word(id: number): string {
    this.checkId(id);
    const { offsets, vocab } = this.views;
    return Buffer.from(vocab.buffer, vocab.byteOffset, vocab.length).toString(
      'utf8',
      offsets[id]!,
      offsets[id + 1]!,
    );
  }

  /** SIF weight a / (a + p(w)), with p(w) estimated from the word's rank by Zipf's law. */
  wordWeight(id: number): number {
    this.checkId(id);
    const p = this.invHarmonic / (id + 1);
    return this.sifA / (this.sifA + p);
  }

  /** The word's vector, dequantised and scaled to unit length (all zeros for a zero vector). */
  wordVector(id: number): Float32Array {
    const out = new Float32Array(this.dimension);
    this.addWordVector(id, 1, out);
    return normalize(out) ?? out;
  }

  /** Adds weight × the word's raw (dequantised, unnormalised) vector into `acc`. */
  addWordVector(id: number, weight: number, acc: Float32Array | Float64Array): void {
    this.checkId(id);
    const dim = this.dimension;
    const k = weight * this.views.scales[id]!;
    const matrix = this.views.rows(id);
    const row = id * dim;
    for (let i = 0; i < dim; i++) acc[i] = acc[i]! + k * matrix[row + i]!;
  }

  /**
   * Lowercase GloVe-style tokens of a text, resolved against this vocabulary: known compounds stay
   * whole, unknown ones are split into parts, accented words fall back to unaccented known forms.
   * Unknown tokens (numbers, clitics, rare words) are kept, for lexical matching.
   */
  tokenize(text: string): string[] {
    return tokenize(text, this.isKnown);
  }

  /**
   * SIF sentence vector: the SIF-weighted mean of the raw vectors of the text's known tokens,
   * normalised; null when no token is known.
   */
  sentenceVector(text: string): Float32Array | null {
    const acc = new Float64Array(this.dimension);
    let known = 0;
    for (const token of this.tokenize(text)) {
      const id = this.wordId(token);
      if (id < 0) continue;
      this.addWordVector(id, this.wordWeight(id), acc);
      known++;
    }
    // The mean's 1/n factor is dropped: normalising removes any positive scale anyway.
    return known === 0 ? null : normalize(Float32Array.from(acc));
  }

  private checkId(id: number): void {
    if (!Number.isInteger(id) || id < 0 || id >= this.size) {
      throw new EngramError('INVALID_INPUT', `word id ${id} is out of range`, {
        field: 'id',
        rule: 'word_id_range',
      });
    }
  }
}
