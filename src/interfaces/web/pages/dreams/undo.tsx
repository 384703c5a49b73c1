/**
 * Undo a dream run (admin, once, after a confirmation), then what the undo restored and what it
 * could not restore, and why. A dry run, a running run or a run that changed nothing has nothing
 * to undo, and says so.
 */
import { useState } from 'preact/hooks';

import { api, call, type Schemas } from '../../lib/api';
import { useSession } from '../../lib/session';
import { ConfirmButton, ErrorNote, Notice, Time } from '../../lib/ui';
import { ItemLink, useRefreshItems } from './items';
import { ACTION_LABELS } from './words';

type Run = Schemas['DreamRun'];
type Report = Schemas['DreamUndoReport'];

/** The undo button of a run and, once used, its report. */
export function UndoControl(props: { run: Run; applied: number; onUndone: () => void }) {
  const { run } = props;
  const { space, isAdmin } = useSession();
  const refresh = useRefreshItems();
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<unknown>(null);
  const undo = async () => {
    setError(null);
    try {
      const result = await call(
        api.POST('/v1/spaces/{space}/dream/runs/{id}/undo', {
          params: { path: { space, id: run.id } },
        }),
      );
      setReport(result);
      refresh();
      props.onUndone();
    } catch (err) {
      setError(err);
    }
  };
  if (report) return <UndoReport report={report} />;
  if (run.undone_at)
    return (
      <p class="muted">
        This run was undone <Time at={run.undone_at} />.
      </p>
    );
  if (run.dry_run) return <p class="muted">A dry run changed nothing: there is nothing to undo.</p>;
  if (run.state === 'running') return null;
  if (props.applied === 0) return <p class="muted">This run changed nothing: nothing to undo.</p>;
  if (!isAdmin) return <p class="muted">Undoing a run needs an admin token.</p>;
  return (
    <div class="dream-undo">
      <ConfirmButton
        label="Undo"
        title="Undo this run?"
        confirmLabel="Undo the run"
        danger
        message={
          <p>
            It restores, newest first, the {props.applied}{' '}
            {props.applied === 1 ? 'change' : 'changes'} this run made that nothing has changed
            since; what it cannot restore is listed with why. A run is undone once.
          </p>
        }
        onConfirm={undo}
      />
      <ErrorNote error={error} />
    </div>
  );
}

/** What an undo restored, and what it could not. */
function UndoReport({ report }: { report: Report }) {
  return (
    <div class="dream-undo-report">
      <Notice>
        Undone: {report.restored.length} {report.restored.length === 1 ? 'change' : 'changes'}{' '}
        restored
        {report.not_restored.length > 0 && `, ${report.not_restored.length} could not be`}.
      </Notice>
      {report.restored.length > 0 && (
        <ul class="dream-entries" aria-label="Restored">
          {report.restored.map((r) => (
            <li key={r.seq} class="dream-entry">
              <span class="muted mono">#{r.seq}</span> <strong>{ACTION_LABELS[r.action]}</strong>{' '}
              restored:{' '}
              {r.items.map((id, i) => (
                <span key={id}>
                  {i > 0 && ', '}
                  <ItemLink id={id} />
                </span>
              ))}
            </li>
          ))}
        </ul>
      )}
      {report.not_restored.length > 0 && (
        <ul class="dream-entries" aria-label="Not restored">
          {report.not_restored.map((r) => (
            <li key={`${r.seq}:${r.item}`} class="dream-entry">
              <span class="muted mono">#{r.seq}</span> <strong>{ACTION_LABELS[r.action]}</strong>{' '}
              not restored: <ItemLink id={r.item} /> <span class="dream-warn-text">{r.reason}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
