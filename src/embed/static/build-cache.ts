/**
 * One-off conversion of the wink GloVe JSON (`{"size", "dimensions", "wordIndex", "words": [...],
 * "vectors": {word: [...dims, l2norm, index]}}`) into the compact binary cache. The source is
 * scanned in chunks so the build never holds the parsed 300 MB document; the result is written to
 * a temp file and renamed, so readers only ever see a complete cache.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

import { makeDirectory } from '../../domain/dirs.js';
import { EngramError } from '../../domain/errors.js';
import type { PrepareProgress } from '../embedder.js';
import { encodeCache, quantizeRow } from './cache-format.js';
import type { JsonScanHandler } from './json-scan.js';
import { JsonScanner } from './json-scan.js';

/** Options of `buildStaticCache`. */
export interface BuildCacheOptions {
  /** The wink embeddings JSON file. */
  sourcePath: string;
  /** Final cache file path; its directory is created when missing. */
  cachePath: string;
  onProgress?: (progress: PrepareProgress) => void;
  /** Read chunk size in bytes (tests use tiny chunks to exercise chunk boundaries). */
  chunkBytes?: number;
}

/** Summary of a finished build. */
export interface BuildCacheResult {
  wordCount: number;
  dimension: number;
  bytes: number;
}

const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;
const PROGRESS_EVERY = 8192;
/** Longest vector entry accepted: dimensions plus the l2 norm and index the wink layout appends. */
const MAX_ROW_VALUES = 4096;
/** Upper bound on vocabulary size, so a corrupt index cannot make the builder allocate wildly. */
const MAX_WORDS = 1 << 24;

/** Builds the binary cache from the source JSON, atomically (temp file + rename). */
export async function buildStaticCache(options: BuildCacheOptions): Promise<BuildCacheResult> {
  const sourceSize = await sourceSizeOf(options.sourcePath);
  const file = await convert(options, sourceSize);
  const total = file.wordCount;
  options.onProgress?.({ phase: 'write', done: 0, total });
  await writeAtomically(options.cachePath, file.bytes);
  options.onProgress?.({ phase: 'done', done: total, total });
  return { wordCount: total, dimension: file.dimension, bytes: file.bytes.length };
}

/** Scans and encodes the source; any layout or syntax problem becomes a `source_malformed` error. */
async function convert(
  options: BuildCacheOptions,
  sourceSize: number,
): Promise<{ bytes: Uint8Array; wordCount: number; dimension: number }> {
  try {
    const collector = new SourceCollector(options.onProgress);
    await scanFile(options.sourcePath, collector, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
    const rows = collector.finish();
    options.onProgress?.({ phase: 'index', done: 0, total: rows.words.length });
    const bytes = encodeCache({ ...rows, sourceSize });
    return { bytes, wordCount: rows.words.length, dimension: rows.dimension };
  } catch (error) {
    throw malformed(options.sourcePath, error);
  }
}

async function sourceSizeOf(sourcePath: string): Promise<number> {
  try {
    return (await stat(sourcePath)).size;
  } catch (error) {
    throw new EngramError(
      'EMBEDDER_UNAVAILABLE',
      `word-vector source not found at ${sourcePath}`,
      { rule: 'source_missing', path: sourcePath },
      { cause: error },
    );
  }
}

async function scanFile(path: string, handler: JsonScanHandler, chunkBytes: number): Promise<void> {
  const scanner = new JsonScanner(handler);
  const handle = await open(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(chunkBytes);
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunkBytes, null);
      if (bytesRead === 0) break;
      scanner.write(chunk.subarray(0, bytesRead));
    }
    scanner.end();
  } finally {
    await handle.close();
  }
}

function malformed(path: string, error: unknown): EngramError {
  if (error instanceof EngramError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new EngramError(
    'EMBEDDER_UNAVAILABLE',
    `word-vector source ${path} is malformed: ${reason}`,
    { rule: 'source_malformed', path },
    { cause: error },
  );
}

/** Writes to a unique temp file beside the target, syncs it, then renames it into place. */
async function writeAtomically(target: string, bytes: Uint8Array): Promise<void> {
  const dir = dirname(target);
  makeDirectory(dir);
  const temp = join(
    dir,
    `.${basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // rename is atomic within a directory: concurrent builders each land a complete file.
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/** Rows collected from the source, ready for `encodeCache`. */
interface CollectedRows {
  words: string[];
  dimension: number;
  scales: Float32Array;
  matrix: Int8Array;
}

/**
 * Scan handler that knows the wink layout: top-level numbers are metadata, `words` is the
 * frequency-ordered vocabulary, and each `vectors` entry is quantised as soon as it closes so only
 * the int8 matrix stays in memory.
 */
class SourceCollector implements JsonScanHandler {
  private depth = 0;
  private topKey = '';
  private readonly meta = new Map<string, number>();
  private readonly listedWords: string[] = [];
  private rowWord = '';
  private readonly row = new Float64Array(MAX_ROW_VALUES);
  private rowLength = 0;
  private dimension = 0;
  private capacity = 0;
  private rowWords: (string | undefined)[] = [];
  private scales = new Float32Array(0);
  private matrix = new Int8Array(0);
  private rowCount = 0;
  private readonly onProgress: ((progress: PrepareProgress) => void) | undefined;

  constructor(onProgress?: (progress: PrepareProgress) => void) {
    this.onProgress = onProgress;
  }

  startObject(): void {
    this.depth++;
    if (this.depth === 2 && this.topKey === 'vectors') this.startVectors();
    else if (this.depth > 1 && this.topKey === 'vectors') this.unexpected('object in vectors');
  }

  endObject(): void {
    this.depth--;
  }

  startArray(): void {
    this.depth++;
    if (this.depth === 3 && this.topKey === 'vectors') this.rowLength = 0;
  }

  endArray(): void {
    if (this.depth === 3 && this.topKey === 'vectors') this.commitRow();
    this.depth--;
  }

  key(name: string): void {
    if (this.depth === 1) this.topKey = name;
    else if (this.depth === 2 && this.topKey === 'vectors') this.rowWord = name;
  }

  string(value: string): void {
    if (this.depth === 2 && this.topKey === 'words') this.listedWords.push(value);
    else if (this.depth >= 2 && this.topKey === 'vectors') this.unexpected('string in vectors');
  }

  number(value: number): void {
    if (this.depth === 3 && this.topKey === 'vectors') {
      if (this.rowLength >= MAX_ROW_VALUES) this.unexpected('vector entry too long');
      this.row[this.rowLength++] = value;
    } else if (this.depth === 1) {
      this.meta.set(this.topKey, value);
    }
  }

  literal(): void {
    if (this.depth >= 2 && this.topKey === 'vectors') this.unexpected('literal in vectors');
  }

  private startVectors(): void {
    const dimension = this.meta.get('dimensions');
    if (dimension === undefined || !Number.isInteger(dimension) || dimension < 1) {
      this.unexpected('"dimensions" must precede "vectors"');
    }
    this.dimension = Math.min(dimension, MAX_ROW_VALUES);
    const hint = this.meta.get('size') ?? this.listedWords.length;
    this.grow(Math.max(1024, Number.isInteger(hint) ? hint : 0));
  }

  private grow(capacity: number): void {
    const matrix = new Int8Array(capacity * this.dimension);
    matrix.set(this.matrix);
    const scales = new Float32Array(capacity);
    scales.set(this.scales);
    this.matrix = matrix;
    this.scales = scales;
    this.capacity = capacity;
    this.rowWords.length = capacity;
  }

  /** Places the finished entry at its frequency rank (the trailing index value in the layout). */
  private commitRow(): void {
    const indexAt = this.meta.get('wordIndex') ?? this.dimension + 1;
    if (this.rowLength < this.dimension) this.unexpected(`short vector for ${this.rowWord}`);
    const rank = this.rowLength > indexAt ? this.row[indexAt]! : this.rowCount;
    if (!Number.isInteger(rank) || rank < 0 || rank >= this.rankLimit()) {
      this.unexpected(`bad index for ${this.rowWord}`);
    }
    while (rank >= this.capacity) this.grow(this.capacity * 2);
    if (this.rowWords[rank] !== undefined) this.unexpected(`index ${rank} used twice`);
    for (let i = 0; i < this.dimension; i++) {
      if (!Number.isFinite(this.row[i]!)) this.unexpected(`non-finite value for ${this.rowWord}`);
    }
    this.rowWords[rank] = this.rowWord;
    this.scales[rank] = quantizeRow(this.row, this.dimension, this.matrix, rank * this.dimension);
    this.rowCount++;
    if (this.rowCount % PROGRESS_EVERY === 0) this.report();
  }

  private rankLimit(): number {
    const listed = this.listedWords.length;
    return listed > 0 ? listed : Math.min(this.meta.get('size') ?? MAX_WORDS, MAX_WORDS);
  }

  private report(): void {
    const total = this.meta.get('size') ?? this.listedWords.length;
    this.onProgress?.({
      phase: 'scan',
      done: this.rowCount,
      total: Math.max(total, this.rowCount),
    });
  }

  /** Checks the collected rows are complete and agree with the `words` list. */
  finish(): CollectedRows {
    if (this.rowCount === 0) this.unexpected('no vectors found');
    const words: string[] = [];
    for (let i = 0; i < this.rowCount; i++) {
      const word = this.rowWords[i];
      if (word === undefined) this.unexpected(`no vector for index ${i}`);
      words.push(word);
    }
    this.checkListedWords(words);
    this.report();
    return {
      words,
      dimension: this.dimension,
      scales: this.scales.subarray(0, this.rowCount),
      matrix: this.matrix.subarray(0, this.rowCount * this.dimension),
    };
  }

  private checkListedWords(words: readonly string[]): void {
    if (this.listedWords.length === 0) return;
    if (this.listedWords.length !== words.length) {
      this.unexpected(
        `"words" lists ${this.listedWords.length} words, vectors has ${words.length}`,
      );
    }
    for (let i = 0; i < words.length; i++) {
      if (this.listedWords[i] !== words[i]) this.unexpected(`"words"[${i}] disagrees with vectors`);
    }
  }

  private unexpected(what: string): never {
    throw new SyntaxError(`unexpected layout: ${what}`);
  }
}
