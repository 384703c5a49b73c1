/**
 * Reading an importer's input: a path that must exist (a file, or a folder for Markdown), text
 * decoded strictly as UTF-8 (invalid bytes are an error naming their offset, never replaced by
 * U+FFFD), and the lines of a JSONL file each decoded on its own, so a bad line fails alone.
 */
import { readFileSync, statSync } from 'node:fs';

import { EngramError } from '../domain/errors.js';

/** What a path must be. */
export type PathKind = 'file' | 'folder' | 'file or folder';

/** Fails with INVALID_INPUT naming `path` unless it exists as `kind`; returns which it is. */
export function checkPath(path: string, kind: PathKind): 'file' | 'folder' {
  let found: 'file' | 'folder' | null = null;
  try {
    const s = statSync(path);
    found = s.isFile() ? 'file' : s.isDirectory() ? 'folder' : null;
  } catch {
    found = null;
  }
  if (found !== null && (kind === 'file or folder' || kind === found)) return found;
  throw new EngramError('INVALID_INPUT', `path: ${path} does not exist or is not a ${kind}`, {
    field: 'path',
    rule: `an existing ${kind}`,
  });
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Decodes UTF-8 strictly: the text, or the offset of the first invalid byte. */
export function decodeStrict(bytes: Uint8Array): { text: string } | { offset: number } {
  try {
    return { text: strict.decode(bytes) };
  } catch {
    // The longest prefix that decodes (streaming: a cut sequence is no error) ends near the offset.
    let lo = 0;
    let hi = bytes.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (validPrefix(bytes.subarray(0, mid))) lo = mid;
      else hi = mid - 1;
    }
    if (validPrefix(bytes.subarray(0, lo), false)) return { offset: lo };
    // The prefix ends inside a sequence that the next byte breaks: it starts at its lead byte.
    let start = lo - 1;
    while (start > 0 && (bytes[start]! & 0xc0) === 0x80) start--;
    return { offset: start };
  }
}

function validPrefix(bytes: Uint8Array, stream = true): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream });
    return true;
  } catch {
    return false;
  }
}

/** An error for text that is not UTF-8, naming the byte offset. */
export function notUtf8(field: string, offset: number, where = ''): EngramError {
  return new EngramError(
    'INVALID_INPUT',
    `${field}: not valid UTF-8: invalid byte at offset ${offset}${where}`,
    { field, rule: 'UTF-8', offset },
  );
}

/** A whole file as text; a file that is not UTF-8 fails, naming the offset. */
export function readText(path: string): string {
  const decoded = decodeStrict(readFileSync(path));
  if ('text' in decoded) return decoded.text;
  throw notUtf8('path', decoded.offset, ` of ${path}`);
}

/** One line of a file: its number, and its text or the offset of its first invalid byte. */
export type FileLine = { line: number; text: string } | { line: number; offset: number };

/** The lines of a buffer (split on `\n`, a trailing `\r` dropped), each decoded on its own. */
export function fileLines(bytes: Buffer): FileLine[] {
  const out: FileLine[] = [];
  let start = 0;
  let line = 0;
  while (start < bytes.length) {
    const nl = bytes.indexOf(0x0a, start);
    const end = nl === -1 ? bytes.length : nl;
    const raw = bytes.subarray(start, bytes[end - 1] === 0x0d ? end - 1 : end);
    line++;
    out.push({ line, ...decodeStrict(raw) });
    start = end + 1;
  }
  return out;
}
