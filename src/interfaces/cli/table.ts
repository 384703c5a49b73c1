/**
 * Borderless text tables for human output, sized to the terminal: columns separated by two
 * spaces, a rule under the header. A table may name one flexible column (a body, a reason, an
 * error) that takes the width the others leave. Its text is cut to one line with `…`, or with
 * `full` shown whole, wrapped inside the column. When the room left is too narrow for it, that
 * column moves under each row, indented, with the terminal's whole width. Text cells are shown
 * with their control characters escaped (printable.ts) before they are measured, so the columns
 * stay aligned; JSON output never comes here.
 */
import { printableLine } from './printable.js';
import { displayWidth, truncate, wrap } from './text-width.js';

/** A cell's value: text, a number, a flag, or nothing (shown empty). */
export type Cell = string | number | boolean | null | undefined;

/** How a table fits the width. */
export interface TableOptions {
  /** The header of the flexible column, which takes the width the other columns leave. */
  flex?: string;
  /** Show the flexible column's whole text, wrapped, instead of one cut line. */
  full?: boolean;
  /** The width to fit, in columns (default: terminalWidth()). */
  width?: number;
}

/** A table being filled: rows are pushed, then it is rendered as text. */
export interface TextTable {
  push(...rows: readonly Cell[][]): void;
  toString(): string;
}

/** The width assumed when output is not a terminal and COLUMNS does not say. */
export const FALLBACK_WIDTH = 100;
/** Space between two columns. */
const GAP = '  ';
/** Indent of the flexible column's text when it moves under its row. */
const INDENT = '  ';
/** Below this many columns the flexible column moves under its rows (unless all its texts fit). */
export const MIN_FLEX_WIDTH = 60;

/**
 * The width human output fits: $COLUMNS when it is a positive number (a choice made for this
 * run), else the terminal's width, else FALLBACK_WIDTH (a pipe or a file).
 */
export function terminalWidth(
  env: NodeJS.ProcessEnv = process.env,
  out: { isTTY?: boolean; columns?: number } = process.stdout,
): number {
  const columns = /^\d+$/u.test(env.COLUMNS ?? '') ? Number(env.COLUMNS) : 0;
  if (columns > 0) return columns;
  if (out.isTTY && out.columns && out.columns > 0) return out.columns;
  return FALLBACK_WIDTH;
}

/** A table with the given header. */
export function table(head: readonly string[], options: TableOptions = {}): TextTable {
  const rows: Cell[][] = [];
  return {
    push: (...more) => void rows.push(...more.map((r) => [...r])),
    toString: () => render(head, rows, options),
  };
}

const text = (cell: Cell): string => (cell === null || cell === undefined ? '' : String(cell));

/** A fixed cell: one line, every control escaped. */
const fixedCell = (cell: Cell): string => printableLine(text(cell));

/** The flexible cell's text, escaped: one line (spaces collapsed), or with `full` its own lines. */
function flexLines(cell: Cell, full: boolean): string[] {
  if (!full) return [printableLine(text(cell).replace(/\s+/gu, ' ').trim())];
  return text(cell)
    .split(/\r?\n/u)
    .map((line) => printableLine(line.trim()));
}

/** The flexible cell fitted to `width` columns. */
function fitFlex(lines: readonly string[], width: number, full: boolean): string[] {
  return full ? lines.flatMap((line) => wrap(line, width)) : [truncate(lines[0] ?? '', width)];
}

const widest = (texts: readonly string[]): number =>
  texts.reduce((w, t) => Math.max(w, displayWidth(t)), 0);

/** One line of cells, each padded to its column's width (the last one not padded). */
function line(cells: readonly string[], widths: readonly number[]): string {
  return cells
    .map((c, i) => (i === cells.length - 1 ? c : c + ' '.repeat(widths[i]! - displayWidth(c))))
    .join(GAP)
    .trimEnd();
}

/** The lines of one row whose cells may hold several lines each. */
function rowLines(cells: readonly string[][], widths: readonly number[]): string[] {
  const height = Math.max(1, ...cells.map((c) => c.length));
  return Array.from({ length: height }, (_, k) =>
    line(
      cells.map((c) => c[k] ?? ''),
      widths,
    ),
  );
}

/** The table as text: the flexible column inline when it has room, else under each row. */
function render(head: readonly string[], rows: readonly Cell[][], o: TableOptions): string {
  const at = o.flex === undefined ? -1 : head.indexOf(o.flex);
  const cells = rows.map((r) => head.map((_, i) => (i === at ? [] : [fixedCell(r[i])])));
  const widths = head.map((h, i) => widest([h, ...cells.map((c) => c[i]![0] ?? '')]));
  if (at < 0) return lines(head, cells, widths).join('\n');
  const width = o.width ?? terminalWidth();
  const full = o.full ?? false;
  const flex = rows.map((r) => flexLines(r[at], full));
  const natural = widest([head[at]!, ...flex.flat()]);
  const others = widths.reduce((n, w, i) => (i === at ? n : n + w + GAP.length), 0);
  const room = width - others;
  if (room < Math.min(natural, MIN_FLEX_WIDTH)) {
    const under = Math.max(1, width - INDENT.length);
    return stacked(head, cells, widths, at, (r) => fitFlex(flex[r]!, under, full));
  }
  widths[at] = Math.max(displayWidth(head[at]!), Math.min(natural, room));
  cells.forEach((c, r) => (c[at] = fitFlex(flex[r]!, widths[at]!, full)));
  return lines(head, cells, widths).join('\n');
}

/** The header, its rule, and every row. */
function lines(head: readonly string[], cells: readonly string[][][], widths: number[]): string[] {
  return [
    line(head, widths),
    line(
      widths.map((w) => '─'.repeat(w)),
      widths,
    ),
    ...cells.flatMap((c) => rowLines(c, widths)),
  ];
}

/** The table without its flexible column, whose text follows each row, indented. */
function stacked(
  head: readonly string[],
  cells: readonly string[][][],
  widths: readonly number[],
  at: number,
  flexText: (row: number) => string[],
): string {
  const keep = (_: unknown, i: number) => i !== at;
  const shown = cells.map((c) => c.filter(keep));
  const [header, rule] = lines(head.filter(keep), [], widths.filter(keep));
  const body = shown.flatMap((c, r) => [
    ...rowLines(c, widths.filter(keep)),
    ...flexText(r)
      .filter((t) => t !== '')
      .map((t) => `${INDENT}${t}`),
  ]);
  return [header!, rule!, ...body].join('\n');
}
