/**
 * Dreams: consolidation runs (§10). The overview previews what a run would do (read-only), starts
 * a run (admin) and lists past runs; `?run=ID` opens a run's diary with its undo. Memories shown
 * in proposals and diaries are links with their current status, refreshed after a run or undo.
 */
import './dreams.css';

import { useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';

import { api, call, type Schemas } from '../lib/api';
import { useSession } from '../lib/session';
import { ErrorNote, Loading, Page, useAsync } from '../lib/ui';
import { RunReport } from './dreams/diary';
import { forgetItems, ItemsContext, type ItemsState } from './dreams/items';
import { PreviewPanel } from './dreams/preview';
import { RunPanel } from './dreams/run';
import { RunsList } from './dreams/runs';

/** The dreams page. */
export default function DreamsPage() {
  const { query } = useLocation();
  const [generation, setGeneration] = useState(0);
  const items = useMemo<ItemsState>(
    () => ({
      generation,
      refresh: () => {
        forgetItems();
        setGeneration((g) => g + 1);
      },
    }),
    [generation],
  );
  return (
    <ItemsContext.Provider value={items}>
      {query.run ? <DiaryPage id={query.run} /> : <Overview />}
    </ItemsContext.Provider>
  );
}

function Overview() {
  const { isAdmin, space } = useSession();
  const [version, setVersion] = useState(0);
  return (
    <Page title="Dreams">
      <p class="dream-lead muted">
        Consolidation keeps the store healthy: it merges near-duplicates, records which memory
        supersedes which, folds look-alike areas, archives stale memories and keeps the skill
        library small. Nothing is deleted; every change is logged with its reason and can be undone.
      </p>
      <section class="card dream-section" aria-labelledby="preview-title">
        <h2 id="preview-title">Preview</h2>
        <PreviewPanel version={version} key={space} />
      </section>
      <section class="card dream-section" aria-labelledby="run-title">
        <h2 id="run-title">Run now</h2>
        {isAdmin ? (
          <RunPanel onRan={() => setVersion((v) => v + 1)} key={space} />
        ) : (
          <p class="muted">Running and undoing a dream run need an admin token.</p>
        )}
      </section>
      <section class="dream-section" aria-labelledby="runs-title">
        <h2 id="runs-title">Past runs</h2>
        <RunsList version={version} />
      </section>
    </Page>
  );
}

function DiaryPage({ id }: { id: string }) {
  const { space } = useSession();
  const diary = useAsync<Schemas['DreamDiary']>(
    () => call(api.GET('/v1/spaces/{space}/dream/runs/{id}', { params: { path: { space, id } } })),
    [space, id],
  );
  return (
    <Page title="Dream run" actions={<a href="/dreams">All runs</a>}>
      {diary.error && !diary.data ? (
        <ErrorNote error={diary.error} onRetry={diary.reload} />
      ) : !diary.data ? (
        <Loading lines={5} label="Reading the diary" />
      ) : (
        <div aria-busy={diary.loading}>
          <ErrorNote error={diary.error} onRetry={diary.reload} />
          <RunReport diary={diary.data} level={2} onChanged={diary.reload} />
        </div>
      )}
    </Page>
  );
}
