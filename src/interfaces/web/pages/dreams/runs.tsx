/**
 * Past dream runs of the space, newest first, a page at a time: each with its state (never
 * success unless completed), its stages and their states, its counts and times, opening its diary.
 */
import { useEffect, useState } from 'preact/hooks';

import { api, call, type Schemas } from '../../lib/api';
import { useSession } from '../../lib/session';
import { Badge, Empty, ErrorNote, Loading, Time } from '../../lib/ui';
import { stateText, stateTone, took, totals } from './words';

type Run = Schemas['DreamRun'];
type RunPage = Schemas['DreamRunPage'];

/** Runs per page. */
const PAGE = 20;

/** The list of runs; `version` changes when a run or an undo changed it. */
export function RunsList(props: { version: number }) {
  const { space, isAdmin } = useSession();
  const [pages, setPages] = useState<RunPage[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const load = async (cursor: string | undefined, reset: boolean) => {
    setLoading(true);
    setError(null);
    try {
      const page = await call(
        api.GET('/v1/spaces/{space}/dream/runs', {
          params: { path: { space }, query: { limit: PAGE, ...(cursor ? { cursor } : {}) } },
        }),
      );
      setPages((old) => (reset ? [page] : [...old, page]));
    } catch (err) {
      setError(err);
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => void load(undefined, true), [space, props.version]);
  const runs = pages.flatMap((p) => p.runs);
  const next = pages.at(-1)?.next_cursor ?? null;
  if (pages.length === 0 && error)
    return <ErrorNote error={error} onRetry={() => void load(undefined, true)} />;
  if (pages.length === 0) return <Loading lines={3} label="Reading the runs" />;
  if (runs.length === 0)
    return (
      <Empty title="No dream run yet.">
        A run starts each night when <code>dream.schedule</code> is enabled in the configuration
        {isAdmin ? ', or now with Run above' : ''}. Its diary then shows here.
      </Empty>
    );
  return (
    <div aria-busy={loading}>
      <ol class="dream-runs">
        {runs.map((run) => (
          <RunCard key={run.id} run={run} />
        ))}
      </ol>
      <ErrorNote error={error} onRetry={() => void load(next ?? undefined, false)} />
      {next && (
        <button
          type="button"
          class="dream-more"
          disabled={loading}
          onClick={() => void load(next, false)}
        >
          Show older runs
        </button>
      )}
    </div>
  );
}

/** One run: a link to its diary, its state, its stages and its counts. */
function RunCard({ run }: { run: Run }) {
  const sum = totals(run);
  const duration = took(run.started_at, run.finished_at);
  return (
    <li class="dream-run-card">
      <div class="dream-run-top">
        <a href={`/dreams?run=${encodeURIComponent(run.id)}`} class="dream-run-link">
          Run of {new Date(run.started_at).toLocaleString()}
        </a>
        <Badge tone={stateTone(run.state)}>{stateText(run.state)}</Badge>
        {run.dry_run && <Badge tone="off">dry run</Badge>}
        {run.diary === 'partial' && <Badge tone="warn">partial diary</Badge>}
        {run.undone_at && <Badge tone="off">undone</Badge>}
      </div>
      <ul class="dream-stage-chips" aria-label="Stages">
        {run.stages.map((s) => (
          <li key={s.stage}>
            <Badge tone={stateTone(s.state)}>
              {s.stage}: {stateText(s.state)}
            </Badge>
          </li>
        ))}
      </ul>
      <p class="dream-run-counts">
        {sum.proposed} proposed · {sum.applied} applied · {sum.skipped} skipped ·{' '}
        <Time at={run.started_at} />
        {duration && `, took ${duration}`}
      </p>
      {run.reason && run.state !== 'completed' && <p class="dream-warn-text">{run.reason}</p>}
    </li>
  );
}
