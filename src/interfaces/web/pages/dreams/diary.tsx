/**
 * A dream run and its diary: when it ran, its state said plainly (cut short, failed or interrupted
 * is never a success), its stages with their counts, its undo, and every entry grouped by what
 * became of it: applied, skipped (and why) or only proposed.
 */
import type { Schemas } from '../../lib/api';
import { Badge, Time } from '../../lib/ui';
import { EntryList, EntryRow } from './entries';
import { UndoControl } from './undo';
import { RunState, STAGE_LABELS, stateText, stateTone, took, totals } from './words';

type Diary = Schemas['DreamDiary'];
type Run = Diary['run'];
type Entry = Diary['entries'][number];

/** The groups of entries, in the order they are shown. */
const OUTCOMES: readonly { outcome: Entry['outcome']; title: string; empty: string }[] = [
  { outcome: 'applied', title: 'Applied', empty: 'Nothing was changed.' },
  { outcome: 'skipped', title: 'Skipped', empty: 'Nothing was skipped.' },
  { outcome: 'proposed', title: 'Proposed only', empty: 'No proposal was left unapplied.' },
];

/** The whole report of a run; `level` is the level of its section headings. */
export function RunReport(props: { diary: Diary; level: 2 | 3; onChanged: () => void }) {
  const { run, entries } = props.diary;
  const H = props.level === 2 ? 'h2' : 'h3';
  return (
    <div class="dream-run-report">
      <RunFacts run={run} />
      <RunState run={run}>
        {run.state === 'running' && (
          <button type="button" class="link" onClick={props.onChanged}>
            Reload
          </button>
        )}
      </RunState>
      <StageTable run={run} />
      <UndoControl run={run} applied={totals(run).applied} onUndone={props.onChanged} />
      {entries.length === 0 ? (
        <p class="muted">This run logged nothing: no stage found anything to do.</p>
      ) : (
        OUTCOMES.map(({ outcome, title, empty }) => {
          const group = entries.filter((e) => e.outcome === outcome);
          if (group.length === 0 && outcome === 'proposed') return null;
          return (
            <section key={outcome} aria-labelledby={`outcome-${outcome}`} class="dream-outcome">
              <H id={`outcome-${outcome}`}>
                {title} <Badge tone={outcome === 'applied' ? 'ok' : 'off'}>{group.length}</Badge>
              </H>
              {group.length === 0 ? (
                <p class="muted">{empty}</p>
              ) : (
                <EntryList
                  label={`${title} entries`}
                  entries={group}
                  render={(e) => (
                    <EntryRow
                      key={e.seq}
                      action={e.action}
                      reason={e.reason}
                      items={e.items}
                      detail={e.detail}
                      badges={
                        <>
                          <span class="muted mono">#{e.seq}</span>
                          <Badge tone="kind">{STAGE_LABELS[e.stage]}</Badge>
                        </>
                      }
                    />
                  )}
                />
              )}
            </section>
          );
        })
      )}
    </div>
  );
}

/** When and how the run ran. */
function RunFacts({ run }: { run: Run }) {
  const duration = took(run.started_at, run.finished_at);
  return (
    <dl class="dream-run-facts">
      <div>
        <dt>state</dt>
        <dd>
          <Badge tone={stateTone(run.state)}>{stateText(run.state)}</Badge>
          {run.dry_run && <Badge tone="off">dry run</Badge>}
        </dd>
      </div>
      <div>
        <dt>diary</dt>
        <dd>{run.diary}</dd>
      </div>
      <div>
        <dt>started</dt>
        <dd>
          <Time at={run.started_at} />
        </dd>
      </div>
      <div>
        <dt>took</dt>
        <dd>{duration ?? 'still running'}</dd>
      </div>
      {run.undone_at && (
        <div>
          <dt>undone</dt>
          <dd>
            <Time at={run.undone_at} />
          </dd>
        </div>
      )}
    </dl>
  );
}

/** Each stage of the run: its state, its counts, how long it took, its note. */
function StageTable({ run }: { run: Run }) {
  return (
    <div class="table-wrap">
      <table class="dream-stage-table">
        <caption class="visually-hidden">Stages of the run</caption>
        <thead>
          <tr>
            <th scope="col">Stage</th>
            <th scope="col">State</th>
            <th scope="col">Proposed</th>
            <th scope="col">Applied</th>
            <th scope="col">Skipped</th>
            <th scope="col">Took</th>
          </tr>
        </thead>
        <tbody>
          {run.stages.map((s) => (
            <tr key={s.stage}>
              <th scope="row">
                {STAGE_LABELS[s.stage]}
                {s.note && <div class="muted dream-stage-note">{s.note}</div>}
              </th>
              <td>
                <Badge tone={stateTone(s.state)}>{stateText(s.state)}</Badge>
              </td>
              <td>{s.proposed}</td>
              <td>{s.applied}</td>
              <td>{s.skipped}</td>
              <td>{took(s.started_at, s.finished_at) ?? '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
