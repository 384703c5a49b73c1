/** Reading a body from standard input. */
import { EngramError } from '../../domain/errors.js';
import { decodeUtf8 } from './utf8.js';

/**
 * Reads all of stdin as UTF-8 (empty when stdin is a terminal). Invalid UTF-8 is INVALID_INPUT
 * naming the offset of its first bad byte, never replaced by U+FFFD.
 */
export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const decoded = decodeUtf8(Buffer.concat(chunks));
  if (decoded.ok) return decoded.text;
  throw new EngramError(
    'INVALID_INPUT',
    `stdin is not valid UTF-8: invalid byte at offset ${decoded.offset}`,
    { field: '(stdin)', rule: 'UTF-8', offset: decoded.offset },
  );
}

/**
 * Reads one text from stdin (a memory body, a message) without the line endings a pipe or a file
 * adds at its end: `echo "text" | engram remember` stores "text", as `engram remember "text"` does.
 * Inner line breaks and leading spaces belong to the text and stay.
 */
export async function readStdinText(): Promise<string> {
  const text = await readStdin();
  // A loop, not /[\r\n]+$/: that pattern backtracks quadratically over a long run of newlines.
  let end = text.length;
  while (end > 0 && (text[end - 1] === '\n' || text[end - 1] === '\r')) end--;
  return text.slice(0, end);
}
