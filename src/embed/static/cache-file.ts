/**
 * Reading a word-vector cache file. The first load of a file reads all of it and checks the body
 * checksum, then leaves a stamp beside it (`<cache>.verified`: the file's identity, size, times and
 * checksum). A later load of the same unchanged file checks the header only, reads the index
 * sections (a fifth of the file) and fetches matrix rows from the file as words are looked up: a
 * short-lived process (one `engram search`) then reads kilobytes of the matrix instead of 34 MB.
 */
import {
  closeSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  type Stats,
  writeFileSync,
} from 'node:fs';

import { EngramError } from '../../domain/errors.js';
import {
  type CacheHeader,
  cacheInvalid,
  type CacheViews,
  decodeCache,
  decodeHeader,
  HEADER_BYTES,
  indexViews,
  type MatrixRows,
} from './cache-format.js';

/** Rows fetched together from the file on a miss (frequent words sit together at the top). */
const PAGE_ROWS = 64;

/** The stamp file that marks a cache file as verified. */
export function verifiedStampPath(cachePath: string): string {
  return `${cachePath}.verified`;
}

/** What the stamp records: a file with all of these equal is the file that was verified. */
function stampOf(stats: Stats, bodyCrc: number): string {
  const { dev, ino, size, mtimeMs, ctimeMs } = stats;
  return JSON.stringify({ dev, ino, size, mtimeMs, ctimeMs, bodyCrc });
}

function readStamp(cachePath: string): string | undefined {
  try {
    return readFileSync(verifiedStampPath(cachePath), 'utf8');
  } catch {
    return undefined;
  }
}

/** Leaves the stamp; a folder that cannot take it only means the next load verifies again. */
function writeStamp(cachePath: string, stamp: string): void {
  try {
    writeFileSync(verifiedStampPath(cachePath), stamp);
  } catch {
    // Read-only cache folder: every load then reads and checks the whole file.
  }
}

/** Closes the descriptors of on-demand caches that are no longer referenced. */
const descriptors = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
});

function readExactly(fd: number, into: Uint8Array, position: number, what: string): void {
  let done = 0;
  while (done < into.length) {
    const n = readSync(fd, into, done, into.length - done, position + done);
    if (n === 0) throw cacheInvalid(`is truncated (${what})`);
    done += n;
  }
}

/** Matrix rows read from the open file page by page, as they are first asked for. */
function rowsOnDemand(fd: number, header: CacheHeader): MatrixRows {
  const { wordCount, dimension } = header;
  const matrixAt = header.layout.matrixAt;
  const matrix = new Int8Array(wordCount * dimension);
  const bytes = new Uint8Array(matrix.buffer);
  const loaded = new Uint8Array(Math.ceil(wordCount / PAGE_ROWS));
  const rows: MatrixRows = (id) => {
    const page = Math.floor(id / PAGE_ROWS);
    if (loaded[page] === 0) {
      const first = page * PAGE_ROWS * dimension;
      const end = Math.min(wordCount, (page + 1) * PAGE_ROWS) * dimension;
      readExactly(fd, bytes.subarray(first, end), matrixAt + first, 'matrix');
      loaded[page] = 1;
    }
    return matrix;
  };
  descriptors.register(rows, fd);
  return rows;
}

/** Opens a cache file: fully checked on first sight, on demand once it carries a valid stamp. */
export function readCacheFile(cachePath: string): CacheViews {
  let fd: number;
  try {
    fd = openSync(cachePath, 'r');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new EngramError(
      'EMBEDDER_UNAVAILABLE',
      missing
        ? `no word-vector cache at ${cachePath}`
        : `cannot read word-vector cache ${cachePath}`,
      { rule: missing ? 'cache_missing' : 'cache_unreadable', path: cachePath },
      { cause: error },
    );
  }
  let kept = false;
  try {
    const stats = fstatSync(fd);
    const head = new Uint8Array(Math.min(HEADER_BYTES, stats.size));
    readExactly(fd, head, 0, 'header');
    const header = decodeHeader(head, stats.size);
    const stamp = stampOf(stats, header.bodyCrc);
    if (readStamp(cachePath) !== stamp) {
      const whole = new Uint8Array(stats.size);
      readExactly(fd, whole, 0, 'body');
      const views = decodeCache(whole);
      writeStamp(cachePath, stamp);
      return views;
    }
    const { matrixAt, vocabAt } = header.layout;
    const front = new Uint8Array(matrixAt);
    readExactly(fd, front, 0, 'index');
    const vocab = new Uint8Array(header.vocabBytes);
    readExactly(fd, vocab, vocabAt, 'vocabulary');
    const views = indexViews(front, vocab, header, rowsOnDemand(fd, header));
    kept = true;
    return views;
  } catch (error) {
    if (error instanceof EngramError) throw error;
    throw new EngramError(
      'EMBEDDER_UNAVAILABLE',
      `cannot read word-vector cache ${cachePath}`,
      { rule: 'cache_unreadable', path: cachePath },
      { cause: error },
    );
  } finally {
    if (!kept) closeSync(fd);
  }
}
