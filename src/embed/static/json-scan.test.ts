// Tests of the streaming JSON scanner: same values as JSON.parse at any chunking, strict grammar.
import { describe, expect, it } from 'vitest';

import type { JsonScanHandler } from './json-scan.js';
import { JsonScanner, parseNumber } from './json-scan.js';

/** Rebuilds the value a scan describes, to compare with JSON.parse. */
class Rebuilder implements JsonScanHandler {
  private readonly stack: (unknown[] | Record<string, unknown>)[] = [];
  private readonly keys: string[] = [];
  result: unknown;

  private add(value: unknown): void {
    const top = this.stack.at(-1);
    if (top === undefined) this.result = value;
    else if (Array.isArray(top)) top.push(value);
    else top[this.keys.pop()!] = value;
  }

  startObject(): void {
    this.stack.push({});
  }
  endObject(): void {
    this.add(this.stack.pop());
  }
  startArray(): void {
    this.stack.push([]);
  }
  endArray(): void {
    this.add(this.stack.pop());
  }
  key(name: string): void {
    this.keys.push(name);
  }
  string(value: string): void {
    this.add(value);
  }
  number(value: number): void {
    this.add(value);
  }
  literal(value: boolean | null): void {
    this.add(value);
  }
}

function scan(text: string, chunk: number): unknown {
  const bytes = Buffer.from(text, 'utf8');
  const rebuilder = new Rebuilder();
  const scanner = new JsonScanner(rebuilder);
  for (let i = 0; i < bytes.length; i += chunk) scanner.write(bytes.subarray(i, i + chunk));
  scanner.end();
  return rebuilder.result;
}

const SAMPLE = JSON.stringify({
  a: [1, -2.5, 0, -0, 1e-7, 1234567890123456, 1 / 3, 0.000123, -8.3e-5, 3.14159265358979],
  'ké"y\\': 'vàl\nue ☃ 😀',
  nested: { t: true, f: false, n: null, empty: [], obj: {} },
  numbers: [0.1, 0.2, 0.30000000000000004, 5e300],
});

describe('JsonScanner', () => {
  it.each([1, 2, 3, 5, 16, 1 << 20])('matches JSON.parse with %i-byte chunks', (chunk) => {
    expect(scan(SAMPLE, chunk)).toEqual(JSON.parse(SAMPLE));
  });

  it('parses numbers exactly like parseFloat', () => {
    let seed = 1;
    const next = () => ((seed = (seed * 48271) % 0x7fffffff) / 0x7fffffff) * 2 - 1;
    for (let i = 0; i < 5000; i++) {
      const text = (next() * 10 ** Math.floor(next() * 4)).toFixed(Math.floor((next() + 1) * 4));
      const bytes = Buffer.from(text, 'latin1');
      expect(parseNumber(bytes, 0, bytes.length)).toBe(Number.parseFloat(text));
    }
  });

  it.each(['{"a":1,}', '[1 2]', '{"a" 1}', '[01]', '[1.]', '[-]', '{"a":tru}', '[1]]', '{', '"x'])(
    'rejects %s',
    (text) => {
      expect(() => scan(text, 3)).toThrow(SyntaxError);
    },
  );
});
