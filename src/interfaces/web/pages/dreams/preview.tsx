/**
 * The preview of a dream run: what a run would do now, for all stages or one, grouped by stage
 * (why a stage would be skipped, whether the preview stopped early), each proposal with its
 * reason and its memories. Computing it changes nothing.
 */
import { useState } from 'preact/hooks';

import { api, call, type Schemas } from '../../lib/api';
import { useSession } from '../../lib/session';
import { Badge, ErrorNote, Field, Loading } from '../../lib/ui';
import { EntryList, EntryRow } from './entries';
import { type Stage, STAGE_LABELS, StageSelect } from './stage-select';

type Preview = Schemas['DreamPreview'];
type StagePreview = Preview['stages'][number];

/** The preview form and its result; `version` changes when a run or an undo changed the store. */
export function PreviewPanel(props: { version: number }) {
  const { space } = useSession();
  const [stage, setStage] = useState<Stage | ''>('');
  const [result, setResult] = useState<{ preview: Preview; version: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const query = stage ? { stages: [stage] } : {};
      const preview = await call(
        api.GET('/v1/spaces/{space}/dream/preview', { params: { path: { space }, query } }),
      );
      setResult({ preview, version: props.version });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div aria-busy={busy}>
      <form class="dream-form" onSubmit={run}>
        <Field id="preview-stage" label="Stages">
          <StageSelect id="preview-stage" value={stage} onChange={setStage} />
        </Field>
        <button type="submit" class="primary" disabled={busy}>
          Preview
        </button>
      </form>
      <ErrorNote error={error} />
      {busy ? (
        <Loading lines={3} label="Computing the preview" />
      ) : result ? (
        <>
          {result.version !== props.version && (
            <p class="dream-warn-text">
              A run or an undo changed memories since this preview: preview again to see what a run
              would do now.
            </p>
          )}
          <PreviewResult preview={result.preview} />
        </>
      ) : (
        <p class="muted">
          A preview shows what a run would do now, stage by stage, with the reason for each change.
          It changes nothing.
        </p>
      )}
    </div>
  );
}

function PreviewResult({ preview }: { preview: Preview }) {
  const proposals = preview.stages.flatMap((s) => s.proposals);
  const left = proposals.filter((p) => p.skip).length;
  return (
    <div class="dream-preview" aria-live="polite">
      <p class="dream-summary">
        {proposals.length - left} {proposals.length - left === 1 ? 'change' : 'changes'} proposed
        {left > 0 && `, ${left} left alone`} in {preview.stages.length}{' '}
        {preview.stages.length === 1 ? 'stage' : 'stages'}. Nothing was changed.
      </p>
      {preview.stages.map((s) => (
        <StageProposals key={s.stage} stage={s} />
      ))}
    </div>
  );
}

function StageProposals({ stage }: { stage: StagePreview }) {
  const heading = `preview-${stage.stage}`;
  const changes = stage.proposals.filter((p) => !p.skip).length;
  return (
    <section class="dream-stage" aria-labelledby={heading}>
      <h3 id={heading}>
        {STAGE_LABELS[stage.stage]}{' '}
        <Badge tone={stage.off ? 'off' : changes > 0 ? 'kind' : 'ok'}>
          {stage.off ? 'off' : `${changes} ${changes === 1 ? 'change' : 'changes'}`}
        </Badge>
      </h3>
      {stage.off && <p class="muted">A run skips this stage: {stage.off}.</p>}
      {!stage.complete && (
        <p class="dream-warn-text">The preview of this stage stopped early: a run may find more.</p>
      )}
      {stage.note && <p class="muted">{stage.note}</p>}
      {stage.proposals.length === 0 ? (
        !stage.off && <p class="muted">Nothing to do.</p>
      ) : (
        <EntryList
          label={`Proposals of ${STAGE_LABELS[stage.stage]}`}
          entries={stage.proposals}
          render={(p) => (
            <EntryRow
              key={`${p.action}:${p.items.join(',')}:${p.reason}`}
              action={p.action}
              reason={p.reason}
              items={p.items}
              detail={p.detail}
              badges={p.skip && <Badge tone="off">left alone</Badge>}
            />
          )}
        />
      )}
    </section>
  );
}
