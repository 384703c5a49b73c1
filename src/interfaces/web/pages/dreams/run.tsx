/**
 * Run consolidation now (admin, as the API asks): all stages or one, optionally as a dry run that
 * only logs, after a confirmation; then the run as it ended, with its diary and its undo.
 */
import { useState } from 'preact/hooks';

import { api, call, type Schemas } from '../../lib/api';
import { useSession } from '../../lib/session';
import { ConfirmButton, ErrorNote, Field, Loading } from '../../lib/ui';
import { RunReport } from './diary';
import { useRefreshItems } from './items';
import { type Stage, STAGE_LABELS, StageSelect } from './stage-select';

type Diary = Schemas['DreamDiary'];

/** The run form and the run it started; `onRan` is told when a run ended. */
export function RunPanel(props: { onRan: () => void }) {
  const { space } = useSession();
  const refresh = useRefreshItems();
  const [stage, setStage] = useState<Stage | ''>('');
  const [dry, setDry] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [diary, setDiary] = useState<Diary | null>(null);
  const start = async () => {
    setBusy(true);
    setError(null);
    setDiary(null);
    try {
      const body = { dry_run: dry, ...(stage ? { stages: [stage] } : {}) };
      setDiary(
        await call(
          api.POST('/v1/spaces/{space}/dream/runs', { params: { path: { space } }, body }),
        ),
      );
      refresh();
      props.onRan();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const what = stage ? `the stage “${STAGE_LABELS[stage]}”` : 'every stage';
  return (
    <div aria-busy={busy}>
      <div class="dream-form">
        <Field id="run-stage" label="Stages">
          <StageSelect id="run-stage" value={stage} onChange={setStage} />
        </Field>
        <label class="dream-check">
          <input type="checkbox" checked={dry} onChange={(e) => setDry(e.currentTarget.checked)} />
          Dry run: log the proposals, change nothing
        </label>
        <ConfirmButton
          label="Run"
          title={dry ? 'Start a dry run?' : 'Run consolidation now?'}
          confirmLabel={dry ? 'Start the dry run' : 'Run now'}
          disabled={busy}
          message={
            dry ? (
              <p>
                It goes through {what} in {space} and logs what it would do. No memory changes.
              </p>
            ) : (
              <p>
                It goes through {what} in {space} and may merge, supersede, fold or archive
                memories. Nothing is deleted: every change is logged in the run's diary with its
                reason, and the run can be undone.
              </p>
            )
          }
          onConfirm={() => void start()}
        />
      </div>
      <ErrorNote error={error} />
      {busy && <Loading lines={3} label="Running: this ends within the configured deadline" />}
      {diary && (
        <div class="dream-run-result">
          <p>
            <a href={`/dreams?run=${encodeURIComponent(diary.run.id)}`}>Open this run's diary</a>
          </p>
          <RunReport diary={diary} level={3} onChanged={props.onRan} />
        </div>
      )}
    </div>
  );
}
