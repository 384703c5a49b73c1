/**
 * The lines of an import file (or stdin) for `engram import`: split on `\n` as bytes (a trailing
 * `\r` dropped) and decoded strictly, so a line that is not UTF-8 fails alone, naming its line
 * and byte offset, instead of being stored with U+FFFD in place of its bytes.
 */
import { createReadStream } from 'node:fs';

import type { LineResult } from '../../transfer/transfer.js';
import { decodeUtf8 } from './utf8.js';

/** One raw line: its bytes (without the newline) and the file offset of its first byte. */
interface RawLine {
  bytes: Buffer;
  start: number;
}

async function* rawLines(
  input: AsyncIterable<Buffer>,
  onBytes: (n: number) => void,
): AsyncGenerator<RawLine> {
  let pieces: Buffer[] = [];
  let start = 0;
  let read = 0;
  for await (const chunk of input) {
    onBytes(chunk.length);
    let data = chunk;
    for (let nl = data.indexOf(0x0a); nl !== -1; nl = data.indexOf(0x0a)) {
      const bytes = Buffer.concat([...pieces, data.subarray(0, nl)]);
      yield { bytes, start };
      start += bytes.length + 1;
      pieces = [];
      data = data.subarray(nl + 1);
    }
    if (data.length) pieces.push(data);
    read += chunk.length;
  }
  if (start < read) yield { bytes: Buffer.concat(pieces), start };
}

function invalidLine(line: number, offset: number, fileOffset: number): LineResult {
  const message = `not valid UTF-8: invalid byte at offset ${offset} of the line (offset ${fileOffset} of the file)`;
  return { line, status: 'error', error: { code: 'INVALID_INPUT', message, field: '(line)' } };
}

/**
 * Yields the text of every line of `path` ("-": stdin), counting bytes read with `onBytes`. A line
 * that is not UTF-8 is reported to `onInvalid` and yielded as an empty line, so the importer skips
 * it and the numbers of the lines after it stay right.
 */
export async function* importFileLines(
  path: string,
  onBytes: (n: number) => void,
  onInvalid: (result: LineResult) => void,
): AsyncGenerator<string> {
  const input = path === '-' ? process.stdin : createReadStream(path);
  let line = 0;
  for await (const raw of rawLines(input as AsyncIterable<Buffer>, onBytes)) {
    line++;
    const end = raw.bytes.at(-1) === 0x0d ? raw.bytes.length - 1 : raw.bytes.length;
    const decoded = decodeUtf8(raw.bytes.subarray(0, end));
    if (decoded.ok) yield decoded.text;
    else {
      onInvalid(invalidLine(line, decoded.offset, raw.start + decoded.offset));
      yield '';
    }
  }
}
