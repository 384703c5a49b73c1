/** Human renderings of the lifecycle: the maintenance report and the review list. */
import type { ReviewList } from '../../lifecycle/lifecycle.js';
import type { MaintenanceReport } from '../../lifecycle/maintain.js';
import { shorten } from './output.js';
import { table } from './table.js';

function histogramLines(report: MaintenanceReport): string[] {
  const max = Math.max(1, ...report.histogram.map((b) => b.count));
  return report.histogram.map(
    (b) =>
      `  ${b.from.toFixed(1)}-${b.to.toFixed(1)}  ${'█'.repeat(Math.ceil((30 * b.count) / max) * Number(b.count > 0)).padEnd(30)} ${b.count}`,
  );
}

function transitionLines(r: MaintenanceReport): string[] {
  if (!r.transitions.length) return [];
  const t = table(['id', 'kind', 'area', 'change', 'strength', 'importance', 'reason'], {
    flex: 'reason',
  });
  for (const x of r.transitions.slice(0, 50))
    t.push([
      x.id,
      x.kind,
      shorten(x.area, 20),
      `${x.from} -> ${x.to}`,
      x.strength.toFixed(3),
      String(x.importance),
      x.reason,
    ]);
  return [
    `transitions (${Math.min(50, r.transitions.length)} of ${r.transitions_total}):`,
    t.toString(),
  ];
}

function edgeCaseLines(r: MaintenanceReport): string[] {
  const e = r.edge_cases;
  const edge = (label: string, list: { total: number; ids: string[] }) =>
    list.total
      ? [
          `  ${label}: ${list.total}  ${list.ids.slice(0, 5).join(' ')}${list.total > 5 ? ' …' : ''}`,
        ]
      : [];
  const edges = [
    ...edge('important items archived', e.important_archived),
    ...edge('near the archive threshold', e.near_archive),
    ...edge('near promotion', e.near_promotion),
    ...edge('held only by pinning', e.pinned_held),
  ];
  return edges.length ? ['edge cases:', ...edges] : [];
}

/** The text of `maintain`: the summary, the backup, the histogram, transitions and edge cases. */
export function maintenanceText(r: MaintenanceReport): string {
  const lines = [
    `${r.dry_run ? 'maintenance preview (dry run: nothing written)' : 'maintenance done'} at ${r.at}${r.space ? ` in space ${r.space}` : ''}`,
    `${r.items_scanned} items scanned, ${r.strength_updates} strength updates, ${r.promoted} promoted, ${r.archived} archived`,
  ];
  if (r.backup)
    lines.push(
      `backup: ${r.backup.path}${r.backup.pruned.length ? ` (${r.backup.pruned.length} older removed)` : ''}`,
    );
  lines.push('strength histogram:', ...histogramLines(r));
  lines.push(...transitionLines(r), ...edgeCaseLines(r), `(${r.timings_ms.total} ms)`);
  return lines.join('\n');
}

/** The text of `review` without an action: the memories fading toward the archive threshold. */
export function reviewText(list: ReviewList, options: { full?: boolean } = {}): string {
  if (!list.items.length)
    return `nothing to review (window ${list.window.low}-${list.window.high} in space ${list.space})`;
  const t = table(
    ['id', 'kind', 'strength', 'importance', 'uses', 'archive in', 'priority', 'memory'],
    { flex: 'memory', full: options.full },
  );
  for (const i of list.items)
    t.push([
      i.id,
      i.kind,
      i.strength.toFixed(3),
      String(i.importance),
      String(i.use_count),
      i.days_to_archive === null ? '-' : `${Math.round(i.days_to_archive)} d`,
      i.priority.toFixed(2),
      i.title ? `${i.title}: ${i.body}` : i.body,
    ]);
  return [
    t.toString(),
    `${list.items.length} of ${list.total} in the review window; act with: engram review reinforce|revise|let-go ID`,
  ].join('\n');
}
