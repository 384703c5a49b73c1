/** Borderless text tables for human output (loaded only by the views that print one). */
import Table from 'cli-table3';

import { printableLine } from './printable.js';

type Row = Table.HorizontalTableRow;

/**
 * A table with the given header, plain style, cells never wrapped. Text cells are shown with
 * their control characters escaped (newlines and tabs too: a cell is one line), before the
 * table measures them, so the columns stay aligned.
 */
export function table(head: string[]): Table.Table {
  const t = new Table({ head, style: { head: [], border: [] }, wordWrap: false });
  const push = t.push.bind(t);
  const safe = (row: Row): Row =>
    row.map((cell) => (typeof cell === 'string' ? printableLine(cell) : cell));
  t.push = (...rows) => push(...rows.map((row) => (Array.isArray(row) ? safe(row) : row)));
  return t;
}
