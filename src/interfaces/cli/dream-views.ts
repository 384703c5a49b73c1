/**
 * Human renderings of consolidation (§10): a preview stage by stage, a run's summary with its
 * diary, a listing of runs, an undo report and a calibration. Areas and notes come from the store
 * and are shown escaped; diaries hold ids, scores and reasons, never memory text.
 */
import type {
  DiaryDetail,
  DreamDiary,
  DreamPreview,
  DreamRun,
  PreviewEntry,
  UndoReport,
} from '../../domain/dreams.js';
import type { CalibrationReport } from '../../service/dreams.js';
import { EXIT_CODES } from '../error-codes.js';
import { printable } from './printable.js';
import { table } from './table.js';

/** Ids shown in one cell before "+N more". */
const IDS_SHOWN = 3;

/** A stored time, to the second: `2025-01-31 09:15:02Z`. */
function when(iso: string | null): string {
  if (iso === null) return '-';
  return iso.replace('T', ' ').replace(/\.\d+(?=Z$)/u, '');
}

const score = (n: number | undefined) => (n === undefined ? undefined : n.toFixed(3));

/** The ids of an entry, a merge as `lesser -> keeper`, a long list cut. */
function itemsCell(action: string, items: readonly string[]): string {
  if (action === 'merge' && items.length === 2) return `${items[0]} -> ${items[1]}`;
  const more = items.length > IDS_SHOWN ? ` +${items.length - IDS_SHOWN} more` : '';
  return `${items.slice(0, IDS_SHOWN).join(' ')}${more}`;
}

function scoresCell(d: DiaryDetail): string {
  const parts = [
    score(d.similarity) && `similarity ${score(d.similarity)}`,
    score(d.overlap) && `overlap ${score(d.overlap)}`,
  ];
  return parts.filter(Boolean).join(', ') || '-';
}

function areasCell(d: DiaryDetail): string {
  if (d.from_area === undefined && d.to_area === undefined) return '-';
  return `${d.from_area ?? '?'} -> ${d.to_area ?? '?'}`;
}

function proposalTable(proposals: readonly PreviewEntry[]): string {
  const t = table(['action', 'items', 'scores', 'areas', 'reason'], { flex: 'reason' });
  for (const p of proposals)
    t.push([
      p.skip ? `${p.action} (left alone)` : p.action,
      itemsCell(p.action, p.items),
      scoresCell(p.detail),
      areasCell(p.detail),
      p.reason,
    ]);
  return t.toString();
}

function stageBlock(s: DreamPreview['stages'][number]): string {
  if (s.off !== null) return printable(`${s.stage}: off (${s.off})`);
  const note = s.note ? ` (${s.note})` : '';
  const partial = s.complete ? '' : ' [stopped early: the list is partial]';
  const head = printable(`${s.stage}: ${s.proposals.length} proposals${note}${partial}`);
  return s.proposals.length === 0 ? head : `${head}\n${proposalTable(s.proposals)}`;
}

/** Counts of a preview: proposals by action, those left alone, stages off. */
function previewSummary(p: DreamPreview): string {
  const all = p.stages.flatMap((s) => s.proposals);
  const proposed = all.filter((x) => !x.skip);
  const byAction = new Map<string, number>();
  for (const e of proposed) byAction.set(e.action, (byAction.get(e.action) ?? 0) + 1);
  const actions = [...byAction].map(([a, n]) => `${n} ${a}`).join(', ');
  const off = p.stages.filter((s) => s.off !== null).map((s) => s.stage);
  return [
    `${proposed.length} proposals${actions ? ` (${actions})` : ''}`,
    `${all.length - proposed.length} left alone`,
    `stages off: ${off.length ? off.join(', ') : 'none'}`,
  ].join('; ');
}

/** `dream preview`: each stage with its proposals, then a summary line. */
export function previewText(p: DreamPreview): string {
  return [
    printable(`dream preview of space ${p.space} (read-only: nothing was changed)`),
    ...p.stages.map(stageBlock),
    `summary: ${previewSummary(p)}`,
  ].join('\n');
}

/** The head line of a run: its state in capitals unless it completed. */
function runHead(run: DreamRun): string {
  const state = run.state === 'completed' ? run.state : run.state.toUpperCase();
  const dry = run.dry_run ? ' [dry run: no memory changed]' : '';
  const reason = run.reason ? `: ${run.reason}` : '';
  const undone = run.undone_at ? ` (undone ${when(run.undone_at)})` : '';
  return printable(
    `dream run ${run.id} in space ${run.space}: ${state}, diary ${run.diary}${reason}${dry}${undone}`,
  );
}

function stageTable(run: DreamRun): string {
  const t = table(['stage', 'state', 'proposed', 'applied', 'skipped', 'note'], { flex: 'note' });
  for (const s of run.stages)
    t.push([s.stage, s.state, s.proposed, s.applied, s.skipped, s.note ?? '-']);
  return t.toString();
}

function entryLines(d: DreamDiary, shown: number): string[] {
  if (d.entries.length === 0) return ['no diary entries'];
  const t = table(['#', 'stage', 'action', 'outcome', 'items', 'scores', 'areas', 'reason'], {
    flex: 'reason',
  });
  for (const e of d.entries.slice(0, shown))
    t.push([
      e.seq,
      e.stage,
      e.action,
      e.detail.undone ? `${e.outcome} (undone)` : e.outcome,
      itemsCell(e.action, e.items),
      scoresCell(e.detail),
      areasCell(e.detail),
      e.reason,
    ]);
  const more = d.entries.length - shown;
  const tail = more > 0 ? [`... ${more} more entries (--json prints all)`] : [];
  return [`diary (${d.entries.length} entries):`, t.toString(), ...tail];
}

/** `dream run` and `dream diary`: the run's summary, its stages and its first `shown` entries. */
export function diaryText(d: DreamDiary, shown: number): string {
  const times = `started ${when(d.run.started_at)}, finished ${when(d.run.finished_at)}`;
  return [runHead(d.run), times, stageTable(d.run), ...entryLines(d, shown)].join('\n');
}

/**
 * The exit code of `dream run`: only a completed run is success (§10). A run cut short, failed or
 * interrupted exits PARTIAL, the code of an operation that applied some of its work and not the
 * rest: what it applied stays applied (and can be undone), and its diary is printed.
 */
export function runExitCode(run: DreamRun): number {
  return run.state === 'completed' ? EXIT_CODES.OK : EXIT_CODES.PARTIAL;
}

/** The stderr warning of a run that ended without completing, or null. */
export function incompleteWarning(run: DreamRun): string | null {
  if (run.state === 'completed' || run.state === 'running') return null;
  return `dream run ${run.id} did not complete (${run.state}${run.reason ? `: ${run.reason}` : ''}); its diary keeps what it logged (engram dream undo ${run.id} reverts it)`;
}

/** `dream runs`: a table of runs, with the cursor of the next page. */
export function runsText(page: { runs: DreamRun[]; next_cursor: string | null }): string {
  if (page.runs.length === 0) return 'no dream runs';
  const t = table(['id', 'started', 'state', 'diary', 'dry run', 'applied', 'undone']);
  for (const r of page.runs)
    t.push([
      r.id,
      when(r.started_at),
      r.state,
      r.diary,
      r.dry_run ? 'yes' : 'no',
      r.stages.reduce((n, s) => n + s.applied, 0),
      when(r.undone_at),
    ]);
  const next = page.next_cursor ? `\nmore: --cursor ${page.next_cursor}` : '';
  return `${t.toString()}${next}`;
}

/** `dream undo`: what was restored, and what could not be, with why. */
export function undoText(r: UndoReport): string {
  const lines = [
    `undid dream run ${r.run_id}: ${r.restored.length} entries restored, ${r.not_restored.length} items not restored`,
  ];
  for (const e of r.restored) lines.push(`restored #${e.seq} ${e.action}: ${e.items.join(' ')}`);
  for (const e of r.not_restored)
    lines.push(printable(`not restored #${e.seq} ${e.action}: ${e.item}: ${e.reason}`));
  return lines.join('\n');
}

const pct = (p: CalibrationReport['similarity']) =>
  (['p50', 'p90', 'p99'] as const).map((k) => `${k} ${score(p[k] ?? undefined) ?? '-'}`).join(' ');

/** `dream calibrate`: the score distributions and the merges each threshold pair would make. */
export function calibrationText(r: CalibrationReport): string {
  const t = table(['similarity', 'overlap', 'merges', '']);
  for (const m of r.merges)
    t.push([
      m.similarity.toFixed(2),
      m.overlap.toFixed(2),
      m.merges,
      m.configured ? 'configured' : '',
    ]);
  return [
    `${r.examined} items examined, ${r.best.length} with a candidate${r.complete ? '' : ' (stopped early: partial)'}`,
    `closest candidate's similarity: ${pct(r.similarity)}`,
    `text overlap of those pairs:    ${pct(r.overlap)}`,
    'merges per threshold pair (dream.duplicates.similarity, .overlap):',
    t.toString(),
  ].join('\n');
}
