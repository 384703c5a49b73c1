/** Human renderings of dormant recall: the review table, an inspected event, calibration. */
import type { CalibrationReport, Distribution } from '../../dormant/calibrate.js';
import type { DormantInspection, DormantReview } from '../../dormant/views.js';
import { memoryDetails } from './memory-views.js';
import { table } from './table.js';

const num = (x: number | null, digits = 3) => (x === null ? '-' : x.toFixed(digits));

/** The table of `dormant review`. */
export function reviewTable(r: DormantReview): string {
  if (r.events.length === 0)
    return `no dormant-recall events in space ${r.space} (mode: ${r.mode}${r.mode === 'off' ? '; set dormant_recall.mode: shadow to evaluate searches' : ''})`;
  const t = table([
    'event',
    'time',
    'candidate',
    'n',
    'cosine',
    'check',
    'bonus',
    'days',
    'overlap',
    'shown',
    'feedback',
    'algorithm',
  ]);
  for (const e of r.events)
    t.push([
      e.id,
      e.at.slice(0, 19),
      e.candidate_id ?? (e.outcome === 'failed' ? `(failed: ${e.error_type ?? '?'})` : '(none)'),
      e.candidate_count,
      num(e.raw_relevance),
      num(e.relevance_score),
      num(e.bonus),
      e.dormant_days === null ? '-' : Math.floor(e.dormant_days),
      e.overlap_terms === null ? '-' : `${e.overlap_terms}/${e.query_terms ?? '?'}`,
      e.shown_at?.slice(0, 19) ?? '-',
      e.feedback ?? '-',
      e.algorithm,
    ]);
  return `${t.toString()}\n(mode: ${r.mode})`;
}

/** The text of `dormant inspect`: the event, its evidence and the memory as it is now. */
export function inspectText(r: DormantInspection): string {
  const head = `event ${r.event.id} at ${r.event.at}: ${r.event.candidate_id ?? 'no candidate'}`;
  const lines = [head, r.evidence.summary];
  if (r.changed_since_selection)
    lines.push(
      'note: the memory was revised after it was scored; the scores describe the earlier version.',
    );
  if (!r.memory) lines.push(`no memory shown (${r.reason ?? 'not eligible'})`);
  else lines.push('', memoryDetails(r.memory));
  return lines.join('\n');
}

function distributionLine(name: string, d: Distribution): string {
  if (d.count === 0) return `${name}: no values`;
  return `${name}: n=${d.count} min ${num(d.min)} p10 ${num(d.p10)} p50 ${num(d.p50)} p90 ${num(d.p90)} p95 ${num(d.p95)} p99 ${num(d.p99)} max ${num(d.max)}`;
}

/** The text of `dormant calibrate`: score distributions and what the current floors let through. */
export function calibrateText(r: CalibrationReport): string {
  const c = r.current;
  return [
    `space ${r.space}; model ${r.model ?? '-'}; scorer ${r.scorer ?? '-'}; ${r.queries} ${r.query_source} queries over ${r.eligible_scanned} eligible memories`,
    distributionLine('raw cosine (top candidates)', r.raw_cosine),
    distributionLine('best cosine per query', r.best_cosine),
    distributionLine('relevance check', r.relevance),
    `min_relevance ${c.min_relevance}: ${(100 * c.share_above_min_relevance).toFixed(1)}% of top candidates reach it`,
    `min_rerank_score ${c.min_rerank_score}: ${(100 * c.share_above_min_rerank_score).toFixed(1)}% of checked candidates reach it`,
    `queries with a candidate passing both floors: ${c.queries_with_survivor} of ${r.queries}`,
    ...r.notes.map((n) => `note: ${n}`),
  ].join('\n');
}
