/**
 * Splits the MCP stdio byte stream into lines, each at most `maxBytes` long. A longer line is not
 * kept: its bytes are counted and dropped up to its newline, and only its beginning is kept, so
 * the server can still read the message's id and answer it. Unlike the SDK's ReadBuffer, an
 * oversized message costs one line, not the connection.
 */

/** How much of an oversized line is kept to look for its id. */
export const OVERSIZED_HEAD_BYTES = 64 * 1024;

/** A complete line (without its newline), or the size and beginning of one that was too long. */
export type Line = { text: string } | { oversized: { bytes: number; head: string } };

/** Buffers chunks of a stream and returns the lines they complete. */
export class LineReader {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private head: string | undefined;

  constructor(private readonly maxBytes: number) {}

  /** Adds one chunk; returns the lines it completes, in order. Empty lines are skipped. */
  push(chunk: Buffer): Line[] {
    const lines: Line[] = [];
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, start);
      this.take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) return lines;
      const line = this.finish();
      if (line) lines.push(line);
      start = newline + 1;
    }
  }

  /** Forgets a partial line. */
  clear(): void {
    this.chunks = [];
    this.bytes = 0;
    this.head = undefined;
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    this.bytes += part.length;
    if (this.head !== undefined) return;
    this.chunks.push(part);
    if (this.bytes <= this.maxBytes) return;
    this.head = Buffer.concat(this.chunks).toString('utf8', 0, OVERSIZED_HEAD_BYTES);
    this.chunks = [];
  }

  private finish(): Line | undefined {
    const { head, bytes } = this;
    const text = head === undefined ? Buffer.concat(this.chunks).toString('utf8') : undefined;
    this.clear();
    if (head !== undefined) return { oversized: { bytes, head } };
    const line = text!.replace(/\r$/, '');
    return line.trim() === '' ? undefined : { text: line };
  }
}
