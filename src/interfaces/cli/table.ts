/** Borderless text tables for human output (loaded only by the views that print one). */
import Table from 'cli-table3';

/** A table with the given header, plain style, cells never wrapped. */
export function table(head: string[]): Table.Table {
  return new Table({ head, style: { head: [], border: [] }, wordWrap: false });
}
