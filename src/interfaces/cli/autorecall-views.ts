/** Human renderings of auto-recall: an analysis, a recall result, the settings and the stats. */
import type { RecallAnalysis } from '../../autorecall/analyze.js';
import type { AutoRecallResult, AutoRecallStats } from '../../autorecall/engine.js';
import type { AutoRecallSettings } from '../../config/autorecall-settings.js';
import { shorten } from './output.js';
import { terminalWidth } from './table.js';

/** The lines of `auto-recall analyze`. */
export function analysisLines(a: RecallAnalysis): string[] {
  return [
    `recall: ${a.trigger.should_recall ? 'yes' : 'no'} (${a.trigger.reason}: ${a.trigger.detail})`,
    `topics: ${a.topics.join(', ') || '-'}`,
    `entities: ${a.entities.map((e) => `${e.text} [${e.type}]`).join(', ') || '-'}`,
    `key phrases: ${a.key_phrases.join(', ') || '-'}`,
  ];
}

/** The text of `auto-recall process`: whether recall ran, and what it surfaced or reinforced. */
export function recallText(r: AutoRecallResult): string {
  const lines = [
    `${r.triggered ? 'recall ran' : 'no recall'} (${r.reason}: ${r.analysis.trigger.detail}${r.cooldown_remaining_s ? `, ${r.cooldown_remaining_s}s left` : ''}); mode ${r.mode}${r.enabled ? '' : ' (auto-recall is disabled: engram auto-recall configure --enable)'}`,
  ];
  for (const i of r.items) {
    const head = `  ${i.relevance.toFixed(2)}  ${i.id}  `;
    lines.push(`${head}${shorten(i.body, Math.max(20, terminalWidth() - head.length))}`);
  }
  if (r.summary) lines.push(r.summary, ...r.handles.map((h) => `  ${h.id}  ${h.label}`));
  if (r.mode === 'silent' && r.triggered) lines.push(`reinforced ${r.reinforced} related memories`);
  for (const d of r.degraded) lines.push(`degraded: ${d.channel} (${d.reason})`);
  return lines.join('\n');
}

/** The lines of `auto-recall configure`: one setting per line. */
export function settingsLines(settings: AutoRecallSettings): string[] {
  return Object.entries(settings).map(([k, v]) => `${k.padEnd(20)} ${String(v)}`);
}

/** The lines of `auto-recall stats`. */
export function statsLines(s: AutoRecallStats): string[] {
  const rows: [string, string][] = [
    ['space', s.space],
    [
      'auto-recall',
      `${s.settings.enabled ? 'on' : 'off'}, ${s.settings.mode}, threshold ${s.settings.relevance_threshold}, max ${s.settings.max_results}, cooldown ${s.settings.min_interval_s}s`,
    ],
    ['kept above archive by reinforcement', String(s.items_kept_by_reinforcement)],
    [
      'reinforcement events',
      `${s.reinforcement_events} ${JSON.stringify(s.reinforcement_by_source)}`,
    ],
    ['cross-domain detections', String(s.cross_domain_detections)],
    ['important items', String(s.important_items)],
    [
      'mean strength of important items',
      s.mean_strength_important === null ? '-' : s.mean_strength_important.toFixed(3),
    ],
  ];
  return rows.map(([k, v]) => `${k.padEnd(36)} ${v}`);
}
