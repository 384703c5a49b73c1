/**
 * Human tables fit the terminal: columns sized to $COLUMNS (else the terminal, else 100), the body
 * column given the rest, cut with `…` to one line or, with --full, shown whole and wrapped; JSON
 * output is the same whatever the width. Through the built CLI, and the table renderer itself.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { reviewText } from '../src/interfaces/cli/lifecycle-views.js';
import { table, terminalWidth } from '../src/interfaces/cli/table.js';
import { displayWidth, truncate, wrap } from '../src/interfaces/cli/text-width.js';
import type { ReviewList } from '../src/lifecycle/lifecycle.js';
import { runCli } from './cli-run.js';

/** Two preferences of one person, 120 characters each, alike in their first 60. */
const SAME_START = 'Alex prefers TypeScript for backend services; when a s';
const BODIES = [
  `${SAME_START}ervice must be fast he reaches for Go with its tiny static binary.`,
  `${SAME_START}ervice is a quick script he likes Python and its notebook, pandas.`,
];

let dir: string;
let config: string;

const cli = (args: string[], columns?: number) =>
  runCli(['--config', config, ...args], { env: columns ? { COLUMNS: String(columns) } : {} });

/** Every line's width, measured as a terminal draws it. */
function widths(text: string): number[] {
  // Only one-column characters here (ASCII, the header rule, the ellipsis): a code point each.
  expect(text).toMatch(/^[\x20-\x7e\n─…]*$/u);
  return text.split('\n').map((line) => [...line].length);
}

/** The text with all whitespace removed: a body wrapped over lines still reads in one piece. */
const squeezed = (text: string) => text.replace(/\s+/gu, '');

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'engram-tables-'));
  config = join(dir, 'engram.yaml');
  writeFileSync(config, `store:\n  path: ${join(dir, 'engram.db')}\n`);
  expect(BODIES.map((b) => b.length)).toEqual([120, 120]);
  for (const body of BODIES) {
    const r = await cli(['remember', body, '--kind', 'preference', '--area', 'people/alex']);
    expect(r.code, r.stderr).toBe(0);
  }
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('list and search fit the terminal width', () => {
  it('show the whole of a 120-character body in 200 columns, one line a memory', async () => {
    for (const args of [['list'], ['search', 'what does Alex prefer for services?']]) {
      const r = await cli(args, 200);
      expect(r.code, r.stderr).toBe(0);
      for (const body of BODIES) expect(r.stdout, args[0]).toContain(`  ${body}\n`);
      expect(Math.max(...widths(r.stdout))).toBeLessThanOrEqual(200);
    }
  });

  it('cut bodies with … in 80 columns, every line within 80', async () => {
    for (const args of [['list'], ['search', 'what does Alex prefer for services?']]) {
      const r = await cli(args, 80);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('…');
      for (const body of BODIES) expect(r.stdout).not.toContain(body);
      // The two bodies stay told apart: each shows more than the start they share.
      expect(r.stdout).toContain(`${SAME_START}ervice must be`);
      expect(r.stdout).toContain(`${SAME_START}ervice is a quick`);
      expect(Math.max(...widths(r.stdout))).toBeLessThanOrEqual(80);
    }
  });

  it('--full shows whole bodies in 80 columns, wrapped, every line within 80', async () => {
    for (const args of [['list'], ['search', 'what does Alex prefer for services?']]) {
      const r = await cli([...args, '--full'], 80);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toContain('…');
      for (const body of BODIES) expect(squeezed(r.stdout)).toContain(squeezed(body));
      expect(Math.max(...widths(r.stdout))).toBeLessThanOrEqual(80);
    }
  });

  it('without COLUMNS and a terminal, fit 100 columns', async () => {
    const r = await cli(['list']);
    expect(r.code, r.stderr).toBe(0);
    expect(Math.max(...widths(r.stdout))).toBeLessThanOrEqual(100);
    expect(r.stdout).toContain('…');
  });

  it('leave JSON output alone: the same at every width, with or without --full', async () => {
    const narrow = await cli(['--json', 'list'], 40);
    const wide = await cli(['--json', 'list', '--full'], 300);
    expect(narrow.stdout).toBe(wide.stdout);
    expect(narrow.stdout).toContain(JSON.stringify(BODIES[0]));
    // A search records accesses and takes its own time: the same hits, whole.
    const hits = async (args: string[], columns: number) =>
      (
        JSON.parse((await cli(['--json', 'search', 'Alex services', ...args], columns)).stdout) as {
          hits: { id: string; body: string }[];
        }
      ).hits
        .map((h) => `${h.id} ${h.body}`)
        .sort();
    expect(await hits([], 40)).toEqual(await hits(['--full'], 300));
    expect((await hits([], 40)).join('\n')).toContain(BODIES[1]);
  });

  it('keep control characters escaped in --full', async () => {
    const made = await cli(['--json', 'remember', 'tabs\tand \u001b[31mred\u001b[0m\nsecond line']);
    expect(made.code, made.stderr).toBe(0);
    const r = await cli(['list', '--full'], 80);
    // eslint-disable-next-line no-control-regex -- no raw control character may reach the output
    expect(r.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u);
    expect(r.stdout).toContain('tabs\\tand \\x1b[31mred\\x1b[0m');
    expect(r.stdout).toMatch(/^ +second line$/mu);
    const id = (JSON.parse(made.stdout) as { memory: { id: string } }).memory.id;
    expect((await cli(['forget', id])).code).toBe(0);
  });
});

describe('the table renderer', () => {
  it('takes $COLUMNS, else the terminal width, else 100', () => {
    expect(terminalWidth({ COLUMNS: '132' }, { isTTY: true, columns: 90 })).toBe(132);
    expect(terminalWidth({}, { isTTY: true, columns: 90 })).toBe(90);
    expect(terminalWidth({ COLUMNS: 'wide' }, { isTTY: false })).toBe(100);
    expect(terminalWidth({ COLUMNS: '0' }, {})).toBe(100);
  });

  it('gives the flexible column the width the others leave, measured as drawn', () => {
    const t = table(['id', 'note'], { flex: 'note', width: 80 });
    t.push(['日本', 'x'.repeat(100)], ['ok 📌', 'short']);
    const lines = t.toString().split('\n');
    expect(lines).toEqual([
      'id     note',
      `─────  ${'─'.repeat(73)}`,
      `日本   ${'x'.repeat(72)}…`,
      'ok 📌  short',
    ]);
    expect(lines.map(displayWidth)).toEqual([11, 80, 80, 12]);
  });

  it('moves the flexible column under its rows when too narrow, and wraps it with full', () => {
    const t = table(['id', 'body'], { flex: 'body', width: 24, full: true });
    t.push(['a-long-identifier-here', 'one two three four five six seven eight']);
    expect(t.toString().split('\n')).toEqual([
      'id',
      '──────────────────────',
      'a-long-identifier-here',
      '  one two three four',
      '  five six seven eight',
    ]);
  });

  it('escapes controls in every cell and leaves tables without a flexible column whole', () => {
    const t = table(['a', 'b'], { width: 5 });
    t.push(['x\u001b[2J', 7], [null, true]);
    expect(t.toString().split('\n')).toEqual([
      `a${' '.repeat(9)}b`,
      '────────  ────',
      'x\\x1b[2J  7',
      `${' '.repeat(10)}true`,
    ]);
  });

  it('cuts and wraps by display width, never splitting a character', () => {
    expect(truncate('日本語のテキスト', 7)).toBe('日本語…');
    expect(truncate('short', 5)).toBe('short');
    expect(wrap('日本語のテキスト', 5)).toEqual(['日本', '語の', 'テキ', 'スト']);
    expect(wrap('a  b   c', 3)).toEqual(['a b', 'c']);
    expect(wrap('', 10)).toEqual(['']);
    expect(displayWidth('e\u0301')).toBe(1);
    expect(displayWidth('👍🏽')).toBe(2);
  });

  it('review cuts its memories to the width, and --full shows them whole', () => {
    const list: ReviewList = {
      space: 'default',
      window: { low: 0.1, high: 0.3 },
      total: 1,
      items: [
        {
          id: '01JDZ3M5SJ0H7G2QF3WD8XK5TA',
          space: 'default',
          kind: 'preference',
          area: 'people/alex',
          status: 'active',
          strength: 0.2,
          importance: 0.5,
          use_count: 0,
          last_used_at: null,
          last_reinforced_at: '2025-01-15T09:30:12.345Z',
          days_to_archive: 12.4,
          priority: 0.61,
          title: null,
          body: BODIES[0]!,
        },
      ],
    };
    const previous = process.env.COLUMNS;
    // Its other columns take 88: at 100 the memory moves under its row.
    process.env.COLUMNS = '100';
    try {
      const cut = reviewText(list);
      expect(cut).not.toContain(BODIES[0]);
      expect(cut).toContain('…');
      expect(Math.max(...widths(cut))).toBeLessThanOrEqual(100);
      const full = reviewText(list, { full: true });
      expect(squeezed(full)).toContain(squeezed(BODIES[0]!));
      expect(Math.max(...widths(full))).toBeLessThanOrEqual(100);
    } finally {
      if (previous === undefined) delete process.env.COLUMNS;
      else process.env.COLUMNS = previous;
    }
  });
});
