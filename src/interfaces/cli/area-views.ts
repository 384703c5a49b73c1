/**
 * Human renderings of areas (§10): the areas of a space with their counts, and what a fold moved
 * or, in a dry run, would move. Area names come from the store and are shown escaped.
 */
import type { AreaCount, FoldResult } from '../../service/dreams.js';
import { printable } from './printable.js';
import { table } from './table.js';

/** Ids a fold lists before "+N more". */
const IDS_SHOWN = 20;

const memories = (n: number) => `${n} ${n === 1 ? 'memory' : 'memories'}`;

/** `areas`: one row per area with its count of live memories, then the totals. */
export function areasText(areas: readonly AreaCount[]): string {
  if (areas.length === 0) return 'no area holds live memories';
  const t = table(['area', 'items']);
  for (const a of areas) t.push([a.area, a.items]);
  const total = areas.reduce((n, a) => n + a.items, 0);
  return `${t.toString()}\n${areas.length} areas, ${memories(total)}`;
}

/** The ids of a fold, a long list cut. */
function idLines(items: readonly string[]): string[] {
  const more = items.length - IDS_SHOWN;
  const tail = more > 0 ? [`  ... ${more} more (--json lists all)`] : [];
  return [...items.slice(0, IDS_SHOWN).map((id) => `  ${id}`), ...tail];
}

/** `areas fold`: how many memories moved (or would move), their ids, and how to move one back. */
export function foldText(r: FoldResult): string {
  const head = r.dry_run
    ? `dry run: ${memories(r.items.length)} would move from area ${r.from} to ${r.to} (nothing was changed)`
    : `folded area ${r.from} into ${r.to}: ${memories(r.items.length)} moved`;
  const restore = r.dry_run
    ? `after the fold, each can be moved back to ${r.from} with: engram restore ID`
    : `each can be moved back to ${r.from} with: engram restore ID`;
  return [printable(head), ...idLines(r.items), printable(restore)].join('\n');
}
