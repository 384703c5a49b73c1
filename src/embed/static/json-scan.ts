/**
 * A small streaming (SAX-style) JSON scanner over UTF-8 byte chunks. It lets the cache builder read
 * the 300 MB word-vector JSON in fixed-size chunks instead of holding the parsed document (~1 GB
 * of heap) in memory. It checks the grammar but keeps no values itself: a handler receives them.
 */

/** Receives the parts of a JSON document in order as the scanner meets them. */
export interface JsonScanHandler {
  startObject(): void;
  endObject(): void;
  startArray(): void;
  endArray(): void;
  key(name: string): void;
  string(value: string): void;
  number(value: number): void;
  literal(value: boolean | null): void;
}

/** What the grammar allows next. */
const enum Expect {
  Value,
  ValueOrEnd,
  Key,
  KeyOrEnd,
  Colon,
  CommaOrEnd,
  Done,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Exact powers of ten; with a mantissa below 10^15 the division below is correctly rounded. */
const POW10 = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
const FAST_DIGITS_MAX = 15;

/** Incremental JSON scanner: `write` chunks in order, then `end`. Throws SyntaxError on bad input. */
export class JsonScanner {
  private readonly handler: JsonScanHandler;
  private pending: Buffer = Buffer.alloc(0);
  private consumed = 0;
  private expect: Expect = Expect.Value;
  /** Open containers, innermost last: true for an object, false for an array. */
  private readonly stack: boolean[] = [];

  constructor(handler: JsonScanHandler) {
    this.handler = handler;
  }

  /** Scans one more chunk; an incomplete token at its end waits for the next chunk. */
  write(chunk: Uint8Array): void {
    const input = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const buf = this.pending.length > 0 ? Buffer.concat([this.pending, input]) : input;
    const stop = this.scan(buf, false);
    this.consumed += stop;
    // Copy the tail: the caller may reuse its chunk buffer for the next read.
    this.pending = Buffer.from(buf.subarray(stop));
  }

  /** Finishes the document; throws when it is incomplete. */
  end(): void {
    const stop = this.scan(this.pending, true);
    this.consumed += stop;
    if (stop < this.pending.length) this.fail('unexpected end of input', this.pending.length);
    if (this.expect !== Expect.Done) this.fail('unexpected end of input', stop);
  }

  /** Scans tokens from `buf`; returns the offset of the first byte not yet consumed. */
  private scan(buf: Buffer, final: boolean): number {
    const n = buf.length;
    let i = 0;
    while (i < n) {
      const c = buf[i]!;
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
      } else if (c === QUOTE) {
        const next = this.scanString(buf, i);
        if (next < 0) return i;
        i = next;
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        const next = this.scanNumber(buf, i, final);
        if (next < 0) return i;
        i = next;
      } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
        const next = this.scanLiteral(buf, i, final);
        if (next < 0) return i;
        i = next;
      } else {
        this.punctuation(c, i);
        i++;
      }
    }
    return n;
  }

  /** Handles one of `{ } [ ] : ,`. */
  private punctuation(c: number, at: number): void {
    switch (c) {
      case 0x7b: // {
        this.beforeValue(at);
        this.stack.push(true);
        this.expect = Expect.KeyOrEnd;
        this.handler.startObject();
        return;
      case 0x5b: // [
        this.beforeValue(at);
        this.stack.push(false);
        this.expect = Expect.ValueOrEnd;
        this.handler.startArray();
        return;
      case 0x7d: // }
        this.closeContainer(true, at);
        this.handler.endObject();
        this.afterValue();
        return;
      case 0x5d: // ]
        this.closeContainer(false, at);
        this.handler.endArray();
        this.afterValue();
        return;
      case 0x3a: // :
        if (this.expect !== Expect.Colon) this.fail("unexpected ':'", at);
        this.expect = Expect.Value;
        return;
      case 0x2c: // ,
        if (this.expect !== Expect.CommaOrEnd) this.fail("unexpected ','", at);
        this.expect = this.stack[this.stack.length - 1] === true ? Expect.Key : Expect.Value;
        return;
      default:
        this.fail(`unexpected byte 0x${c.toString(16)}`, at);
    }
  }

  private closeContainer(isObject: boolean, at: number): void {
    const top = this.stack[this.stack.length - 1];
    const emptyOk = isObject ? Expect.KeyOrEnd : Expect.ValueOrEnd;
    if (top !== isObject || (this.expect !== emptyOk && this.expect !== Expect.CommaOrEnd)) {
      this.fail(`unexpected '${isObject ? '}' : ']'}'`, at);
    }
    this.stack.pop();
  }

  private beforeValue(at: number): void {
    if (this.expect !== Expect.Value && this.expect !== Expect.ValueOrEnd) {
      this.fail('unexpected value', at);
    }
  }

  private afterValue(): void {
    this.expect = this.stack.length === 0 ? Expect.Done : Expect.CommaOrEnd;
  }

  /** Scans a string starting at the opening quote; returns the offset after it, or -1 if cut. */
  private scanString(buf: Buffer, start: number): number {
    let j = start + 1;
    let escaped = false;
    const n = buf.length;
    while (j < n) {
      const c = buf[j]!;
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        escaped = true;
        j++;
      }
      j++;
    }
    if (j >= n) return -1;
    const raw = buf.toString('utf8', start + 1, j);
    const text = escaped ? this.unescape(raw, start) : raw;
    if (this.expect === Expect.Key || this.expect === Expect.KeyOrEnd) {
      this.expect = Expect.Colon;
      this.handler.key(text);
    } else {
      this.beforeValue(start);
      this.handler.string(text);
      this.afterValue();
    }
    return j + 1;
  }

  private unescape(raw: string, at: number): string {
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      return this.fail('bad string escape', at);
    }
  }

  /** Scans a number; returns the offset after it, or -1 when it may continue in the next chunk. */
  private scanNumber(buf: Buffer, start: number, final: boolean): number {
    const n = buf.length;
    let j = start;
    while (j < n && isNumberByte(buf[j]!)) j++;
    if (j >= n && !final) return -1;
    this.beforeValue(start);
    const value = parseNumber(buf, start, j);
    if (Number.isNaN(value)) this.fail('bad number', start);
    this.handler.number(value);
    this.afterValue();
    return j;
  }

  private scanLiteral(buf: Buffer, start: number, final: boolean): number {
    const word = buf[start] === 0x74 ? 'true' : buf[start] === 0x66 ? 'false' : 'null';
    if (start + word.length > buf.length) {
      if (!final) return -1;
      this.fail('unexpected end of input', start);
    }
    if (buf.toString('latin1', start, start + word.length) !== word)
      this.fail('bad literal', start);
    this.beforeValue(start);
    this.handler.literal(word === 'null' ? null : word === 'true');
    this.afterValue();
    return start + word.length;
  }

  private fail(message: string, at: number): never {
    throw new SyntaxError(`JSON ${message} at byte ${this.consumed + at}`);
  }
}

function isNumberByte(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d || c === 0x2b || c === 0x65 || c === 0x45
  );
}

/**
 * Parses a JSON number from bytes without making a string. Integer mantissa ÷ exact power of ten
 * is correctly rounded (same result as parseFloat) while both fit exactly in a double; longer or
 * odd forms go through parseFloat. Returns NaN for malformed input.
 */
export function parseNumber(buf: Uint8Array, start: number, end: number): number {
  let i = start;
  const negative = buf[i] === 0x2d;
  if (negative) i++;
  let mantissa = 0;
  let digits = 0;
  let scale = 0;
  let c = buf[i];
  while (i < end && c !== undefined && c >= 0x30 && c <= 0x39) {
    mantissa = mantissa * 10 + (c - 0x30);
    digits++;
    c = buf[++i];
  }
  if (digits === 0) return NaN;
  // A leading zero must stand alone ("0.5", not "05"); the strict fallback rejects the rest.
  if (digits > 1 && buf[negative ? start + 1 : start] === 0x30) return slowParse(buf, start, end);
  if (c === 0x2e && i < end) {
    c = buf[++i];
    const before = digits;
    while (i < end && c !== undefined && c >= 0x30 && c <= 0x39) {
      mantissa = mantissa * 10 + (c - 0x30);
      digits++;
      scale--;
      c = buf[++i];
    }
    if (digits === before) return NaN;
  }
  if (i < end || digits > FAST_DIGITS_MAX) return slowParse(buf, start, end);
  const value = scale === 0 ? mantissa : mantissa / POW10[-scale]!;
  return negative ? -value : value;
}

/** parseFloat fallback for exponents and long mantissas, with a strict JSON shape check. */
function slowParse(buf: Uint8Array, start: number, end: number): number {
  const text = Buffer.from(buf.buffer, buf.byteOffset + start, end - start).toString('latin1');
  if (!/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text)) return NaN;
  const value = Number.parseFloat(text);
  return Math.abs(value) > Number.MAX_VALUE ? NaN : value;
}
