/**
 * What the dreams page calls things: the stages and actions of a dream run in words, the tone of
 * each state, how long a run took, and a run's state said plainly (a run that did not complete is
 * never shown as a success).
 */
import type { ComponentChildren } from 'preact';

import type { Schemas } from '../../lib/api';
import { Time } from '../../lib/ui';

type Run = Schemas['DreamRun'];
/** A stage of a dream run. */
export type Stage = Run['stages'][number]['stage'];
/** The action of a diary entry or a proposal. */
export type Action = Schemas['DreamDiary']['entries'][number]['action'];

/** The stages in run order. */
export const STAGES: readonly Stage[] = ['duplicates', 'conflicts', 'folds', 'stale', 'skills'];

/** What each stage does. */
export const STAGE_LABELS: Record<Stage, string> = {
  duplicates: 'Merge near-duplicates',
  conflicts: 'Supersede contradictions',
  folds: 'Fold look-alike areas',
  stale: 'Archive stale memories',
  skills: 'Skill library: dedupe and cap',
};

/** Each action in words. */
export const ACTION_LABELS: Record<Action, string> = {
  merge: 'merge',
  supersede: 'supersede',
  fold: 'fold areas',
  archive: 'archive',
  skill_dedupe: 'skill dedupe',
  skill_cap: 'skill cap',
};

/** The badge tone of a run or stage state. */
export function stateTone(state: string): string {
  if (state === 'completed' || state === 'done') return 'ok';
  if (state === 'running') return 'kind';
  if (state === 'pending' || state === 'skipped') return 'off';
  return 'warn';
}

/** A state as words ("cut short"). */
export function stateText(state: string): string {
  return state.replaceAll('_', ' ');
}

/** How long something took, from ISO times ("4 s", "2 min 5 s"); null while it runs. */
export function took(start: string | null, end: string | null): string | null {
  if (!start || !end) return null;
  const ms = Date.parse(end) - Date.parse(start);
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** Totals of a run's stages. */
export function totals(run: Run): { proposed: number; applied: number; skipped: number } {
  const sum = { proposed: 0, applied: 0, skipped: 0 };
  for (const s of run.stages) {
    sum.proposed += s.proposed;
    sum.applied += s.applied;
    sum.skipped += s.skipped;
  }
  return sum;
}

/** A run's state said plainly: success only when it completed; otherwise why not. */
export function RunState(props: { run: Run; children?: ComponentChildren }) {
  const { run } = props;
  const partial =
    run.diary === 'partial'
      ? ' Its diary is partial: it holds what was logged before the run ended.'
      : '';
  const why = run.reason ? `: ${run.reason}` : '';
  let tone = 'warn';
  let text: ComponentChildren;
  if (run.state === 'completed') {
    tone = 'ok';
    text = run.dry_run
      ? 'Completed as a dry run: every stage ran to its end and no memory was changed.'
      : 'Completed: every stage ran to its end.';
  } else if (run.state === 'running')
    text = (
      <>
        Still running (started <Time at={run.started_at} />
        ). What it has logged so far is below.
      </>
    );
  else if (run.state === 'cut_short')
    text = `Cut short${why}. This run did not complete: its unfinished stages are marked cut short.${partial}`;
  else if (run.state === 'failed') text = `Failed${why}. This run did not complete.${partial}`;
  else
    text = `Interrupted${why || ': the process running it stopped before it finished'}. This run did not complete.${partial}`;
  return (
    <div class={`note ${tone === 'ok' ? 'note-ok' : 'dream-note-warn'}`}>
      <span>{text}</span>
      {props.children}
    </div>
  );
}
