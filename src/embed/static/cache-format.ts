/**
 * Binary layout of the static word-vector cache: a checked header, the vocabulary as one UTF-8
 * blob with offsets, an int8 matrix with one float32 scale per row, and an open-addressing hash
 * table of word ids. Loading builds typed-array views, no per-word objects; cache-file.ts reads the
 * matrix rows on demand once a file has been verified.
 */
import { endianness } from 'node:os';
import * as zlib from 'node:zlib';

import { EngramError } from '../../domain/errors.js';

/** First 8 bytes of every cache file. */
export const CACHE_MAGIC = 'ENGRAMWV';
/** Bumped whenever the layout or the quantisation changes; older files are rebuilt. */
export const CACHE_FORMAT_VERSION = 1;
/** Size of the fixed header; every section after it starts on an 8-byte boundary. */
export const HEADER_BYTES = 64;

/** Header field offsets (all little-endian uint32 after the magic). */
const F = {
  version: 8,
  wordCount: 12,
  dimension: 16,
  slotCount: 20,
  vocabBytes: 24,
  offsetsAt: 28,
  scalesAt: 32,
  slotsAt: 36,
  matrixAt: 40,
  vocabAt: 44,
  totalBytes: 48,
  bodyCrc: 52,
  sourceSize: 56,
  headerCrc: 60,
} as const;

/** What the builder hands to `encodeCache`: words in rank order and their quantised rows. */
export interface CacheContents {
  words: readonly string[];
  dimension: number;
  /** One dequantisation scale per row: value = scale * int8. */
  scales: Float32Array;
  /** Row-major int8 matrix, words.length × dimension. */
  matrix: Int8Array;
  /** Byte size of the source JSON, kept so a changed source can be noticed. */
  sourceSize: number;
}

/**
 * Gives the int8 matrix with a row present: a loaded image holds every row; a cache read on
 * demand fills the row (and its neighbours) first. Index `id * dimension + i` of the result.
 */
export type MatrixRows = (id: number) => Int8Array;

/** Typed-array views over a loaded cache file. */
export interface CacheViews {
  wordCount: number;
  dimension: number;
  sourceSize: number;
  /** wordCount + 1 byte offsets into `vocab`; word i is vocab[offsets[i], offsets[i+1]). */
  offsets: Uint32Array;
  vocab: Uint8Array;
  scales: Float32Array;
  /** The int8 matrix (row-major, wordCount × dimension) holding at least row `id`. */
  rows: MatrixRows;
  /** Hash slots holding word id + 1, or 0 when empty; length is a power of two. */
  slots: Uint32Array;
}

export interface Layout {
  offsetsAt: number;
  scalesAt: number;
  slotsAt: number;
  matrixAt: number;
  vocabAt: number;
  totalBytes: number;
}

/** Error for a cache file that must be rebuilt (bad magic, version, sizes or checksum). */
export function cacheInvalid(message: string): EngramError {
  return new EngramError('EMBEDDER_UNAVAILABLE', `word-vector cache ${message}`, {
    rule: 'cache_invalid',
  });
}

/** True when the error says the cache file is missing or unusable, i.e. a rebuild can fix it. */
export function isCacheRebuildable(error: unknown): boolean {
  if (!(error instanceof EngramError)) return false;
  return error.details.rule === 'cache_invalid' || error.details.rule === 'cache_missing';
}

/** FNV-1a (32-bit) over bytes [start, end): the hash the slot table is keyed by. */
export function fnv1a(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/** Slot count for a vocabulary: a power of two keeping the load factor at or below one half. */
export function slotCountFor(wordCount: number): number {
  let slots = 16;
  while (slots < wordCount * 2) slots *= 2;
  return slots;
}

/** Quantises `values[0, dimension)` into `out` at `at`; returns the row scale (0 for a zero row). */
export function quantizeRow(
  values: ArrayLike<number>,
  dimension: number,
  out: Int8Array,
  at: number,
): number {
  let max = 0;
  for (let i = 0; i < dimension; i++) max = Math.max(max, Math.abs(values[i]!));
  if (max === 0 || !Number.isFinite(max)) {
    out.fill(0, at, at + dimension);
    return 0;
  }
  const scale = Math.fround(max / 127);
  for (let i = 0; i < dimension; i++) {
    const q = Math.round(values[i]! / scale);
    out[at + i] = q > 127 ? 127 : q < -127 ? -127 : q;
  }
  return scale;
}

/** CRC-32 of bytes, native where Node has it (20.15+), else a table-driven fallback. */
export function crc32(bytes: Uint8Array): number {
  const native = (zlib as { crc32?: (data: Uint8Array) => number }).crc32;
  if (typeof native === 'function') return native(bytes) >>> 0;
  return crc32Fallback(bytes);
}

let crcTable: Uint32Array | undefined;

function crc32Fallback(bytes: Uint8Array): number {
  if (crcTable === undefined) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function align8(n: number): number {
  return Math.ceil(n / 8) * 8;
}

function layoutOf(wordCount: number, dimension: number, slotCount: number, vocabBytes: number) {
  const offsetsAt = HEADER_BYTES;
  const scalesAt = align8(offsetsAt + 4 * (wordCount + 1));
  const slotsAt = align8(scalesAt + 4 * wordCount);
  const matrixAt = align8(slotsAt + 4 * slotCount);
  const vocabAt = align8(matrixAt + wordCount * dimension);
  const totalBytes = align8(vocabAt + vocabBytes);
  return { offsetsAt, scalesAt, slotsAt, matrixAt, vocabAt, totalBytes } satisfies Layout;
}

/** Serialises cache contents into the binary format (the whole file, ready to write). */
export function encodeCache(contents: CacheContents): Uint8Array {
  const { words, dimension } = contents;
  const vocabBytes = words.reduce((sum, w) => sum + Buffer.byteLength(w, 'utf8'), 0);
  const slotCount = slotCountFor(words.length);
  const layout = layoutOf(words.length, dimension, slotCount, vocabBytes);
  if (layout.totalBytes > 0xffffffff) throw new RangeError('word-vector cache exceeds 4 GiB');
  const file = new Uint8Array(layout.totalBytes);

  const offsets = new Uint32Array(file.buffer, layout.offsetsAt, words.length + 1);
  // Written straight into the file image: no per-word Buffer objects for 300k+ words.
  const blob = Buffer.from(file.buffer, layout.vocabAt, vocabBytes);
  let at = 0;
  words.forEach((word, i) => {
    offsets[i] = at;
    at += blob.write(word, at, 'utf8');
  });
  offsets[words.length] = at;
  new Float32Array(file.buffer, layout.scalesAt, words.length).set(contents.scales);
  new Int8Array(file.buffer, layout.matrixAt, words.length * dimension).set(contents.matrix);
  const vocab = file.subarray(layout.vocabAt, layout.vocabAt + vocabBytes);
  fillSlots(new Uint32Array(file.buffer, layout.slotsAt, slotCount), offsets, vocab, words);

  writeHeader(file, { ...layout, wordCount: words.length, dimension, slotCount, vocabBytes });
  const view = new DataView(file.buffer);
  view.setUint32(F.sourceSize, contents.sourceSize >>> 0, true);
  view.setUint32(F.bodyCrc, crc32(file.subarray(HEADER_BYTES)), true);
  view.setUint32(F.headerCrc, crc32(file.subarray(0, F.headerCrc)), true);
  return file;
}

function writeHeader(
  file: Uint8Array,
  h: Layout & { wordCount: number; dimension: number; slotCount: number; vocabBytes: number },
): void {
  file.set(Buffer.from(CACHE_MAGIC, 'latin1'), 0);
  const view = new DataView(file.buffer);
  const put = (at: number, value: number) => view.setUint32(at, value, true);
  put(F.version, CACHE_FORMAT_VERSION);
  put(F.wordCount, h.wordCount);
  put(F.dimension, h.dimension);
  put(F.slotCount, h.slotCount);
  put(F.vocabBytes, h.vocabBytes);
  put(F.offsetsAt, h.offsetsAt);
  put(F.scalesAt, h.scalesAt);
  put(F.slotsAt, h.slotsAt);
  put(F.matrixAt, h.matrixAt);
  put(F.vocabAt, h.vocabAt);
  put(F.totalBytes, h.totalBytes);
}

/** Inserts every word id into the open-addressing table (linear probing); rejects duplicates. */
function fillSlots(
  slots: Uint32Array,
  offsets: Uint32Array,
  vocab: Uint8Array,
  words: readonly string[],
): void {
  const mask = slots.length - 1;
  for (let id = 0; id < words.length; id++) {
    const start = offsets[id]!;
    const end = offsets[id + 1]!;
    let slot = fnv1a(vocab, start, end) & mask;
    for (;;) {
      const held = slots[slot]!;
      if (held === 0) break;
      if (bytesEqual(vocab, start, end, offsets[held - 1]!, offsets[held]!)) {
        throw new RangeError(`duplicate word in vocabulary: ${JSON.stringify(words[id])}`);
      }
      slot = (slot + 1) & mask;
    }
    slots[slot] = id + 1;
  }
}

function bytesEqual(b: Uint8Array, s1: number, e1: number, s2: number, e2: number): boolean {
  if (e1 - s1 !== e2 - s2) return false;
  for (let i = 0; i < e1 - s1; i++) if (b[s1 + i] !== b[s2 + i]) return false;
  return true;
}

/** What the header of a cache file says, once checked. */
export interface CacheHeader {
  wordCount: number;
  dimension: number;
  slotCount: number;
  vocabBytes: number;
  sourceSize: number;
  /** CRC-32 of every byte after the header, as written by the builder. */
  bodyCrc: number;
  layout: Layout;
}

/**
 * Checks the first `HEADER_BYTES` of a cache file of `fileSize` bytes (magic, header checksum,
 * version, layout, size); throws `cacheInvalid` when the file is unusable. The body is not read.
 */
export function decodeHeader(header: Uint8Array, fileSize: number): CacheHeader {
  if (endianness() !== 'LE') {
    throw new EngramError('EMBEDDER_UNAVAILABLE', 'word-vector cache needs a little-endian CPU');
  }
  if (header.length < HEADER_BYTES || fileSize < HEADER_BYTES)
    throw cacheInvalid('is truncated (no header)');
  if (Buffer.from(header.buffer, header.byteOffset, 8).toString('latin1') !== CACHE_MAGIC) {
    throw cacheInvalid('has a bad magic number');
  }
  const view = new DataView(header.buffer, header.byteOffset, HEADER_BYTES);
  const get = (at: number) => view.getUint32(at, true);
  if (crc32(header.subarray(0, F.headerCrc)) !== get(F.headerCrc)) {
    throw cacheInvalid('header checksum mismatch');
  }
  if (get(F.version) !== CACHE_FORMAT_VERSION) {
    throw cacheInvalid(`has format version ${get(F.version)}, expected ${CACHE_FORMAT_VERSION}`);
  }
  const wordCount = get(F.wordCount);
  const slotCount = get(F.slotCount);
  const vocabBytes = get(F.vocabBytes);
  const layout = layoutOf(wordCount, get(F.dimension), slotCount, vocabBytes);
  checkLayout(layout, get, slotCount, wordCount);
  if (fileSize !== layout.totalBytes) {
    throw cacheInvalid(`is ${fileSize} bytes, header says ${layout.totalBytes}`);
  }
  const { sourceSize, bodyCrc } = { sourceSize: get(F.sourceSize), bodyCrc: get(F.bodyCrc) };
  return {
    wordCount,
    dimension: get(F.dimension),
    slotCount,
    vocabBytes,
    sourceSize,
    bodyCrc,
    layout,
  };
}

/** Validates a whole cache file image (body checksum included) and returns views over it. */
export function decodeCache(file: Uint8Array): CacheViews {
  const header = decodeHeader(file.subarray(0, HEADER_BYTES), file.length);
  if (crc32(file.subarray(HEADER_BYTES)) !== header.bodyCrc)
    throw cacheInvalid('body checksum mismatch');
  const image = aligned(file);
  const { matrixAt } = header.layout;
  const matrix = new Int8Array(
    image.buffer,
    image.byteOffset + matrixAt,
    header.wordCount * header.dimension,
  );
  return indexViews(image, image.subarray(header.layout.vocabAt), header, () => matrix);
}

/**
 * Views over the index sections of a cache (offsets, scales, slots from `front`, which holds the
 * file from its start up to the matrix at least; the vocabulary from `vocab`), with `rows` giving
 * the matrix.
 */
export function indexViews(
  front: Uint8Array,
  vocab: Uint8Array,
  h: CacheHeader,
  rows: MatrixRows,
): CacheViews {
  const { layout } = h;
  const base = front.byteOffset;
  const buffer = front.buffer;
  const offsets = new Uint32Array(buffer, base + layout.offsetsAt, h.wordCount + 1);
  if (offsets[h.wordCount] !== h.vocabBytes)
    throw cacheInvalid('vocabulary offsets are inconsistent');
  return {
    wordCount: h.wordCount,
    dimension: h.dimension,
    sourceSize: h.sourceSize,
    offsets,
    vocab: vocab.subarray(0, h.vocabBytes),
    scales: new Float32Array(buffer, base + layout.scalesAt, h.wordCount),
    rows,
    slots: new Uint32Array(buffer, base + layout.slotsAt, h.slotCount),
  };
}

function checkLayout(
  layout: Layout,
  get: (at: number) => number,
  slotCount: number,
  wordCount: number,
): void {
  const stored: Layout = {
    offsetsAt: get(F.offsetsAt),
    scalesAt: get(F.scalesAt),
    slotsAt: get(F.slotsAt),
    matrixAt: get(F.matrixAt),
    vocabAt: get(F.vocabAt),
    totalBytes: get(F.totalBytes),
  };
  for (const key of Object.keys(layout) as (keyof Layout)[]) {
    if (stored[key] !== layout[key]) throw cacheInvalid(`header field ${key} is inconsistent`);
  }
  if ((slotCount & (slotCount - 1)) !== 0 || slotCount < wordCount) {
    throw cacheInvalid('hash table size is invalid');
  }
}

/** Typed arrays need aligned offsets; a file read into an odd spot is copied once. */
function aligned(file: Uint8Array): Uint8Array {
  return file.byteOffset % 8 === 0 ? file : new Uint8Array(file);
}
