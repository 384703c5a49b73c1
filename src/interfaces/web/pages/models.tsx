/**
 * Models (§8): the embedding model recall uses and the others the store knows, for an admin. The
 * published model and the embedder's state (loaded, loading, unavailable and why), a transition
 * in progress with its re-embedding progress (refreshed every few seconds while it runs, and said
 * when it completes), switching to a model, rolling back, and pruning the standby models' vectors,
 * each confirmed first with what stays and what is deleted.
 */
import './models.css';

import { useEffect, useRef, useState } from 'preact/hooks';

import { ActionToast, POLL_MS, useAction, usePoll } from '../lib/actions';
import { useSession } from '../lib/session';
import { ErrorNote, Loading, Notice, Page, useAsync } from '../lib/ui';
import { loadEmbedder, loadEmbedderHealth, loadModels, type ModelsStatus } from './models/data';
import { EmbedderPanel, EmbedFailures } from './models/embedder';
import { OtherModels } from './models/others';
import { PublishedModel } from './models/published';
import { SwitchModel } from './models/switch';
import { TransitionPanel } from './models/transition';

/** The model whose transition just completed (seen running, then published), if any. */
function useCompleted(status: ModelsStatus | undefined): string | null {
  const last = useRef<string | null>(null);
  const [completed, setCompleted] = useState<string | null>(null);
  useEffect(() => {
    if (!status) return;
    const target = status.target?.model?.id ?? null;
    if (target) setCompleted(null);
    else if (last.current && status.published?.id === last.current) setCompleted(last.current);
    last.current = target;
  }, [status]);
  return completed;
}

/** The models page. */
export default function ModelsPage() {
  const { space } = useSession();
  const [version, setVersion] = useState(0);
  const changes = useAction();
  const models = useAsync(loadModels, [version]);
  const embedder = useAsync(() => loadEmbedder(space), [space, version]);
  const health = useAsync(loadEmbedderHealth, [version]);
  const refresh = () => setVersion((v) => v + 1);
  const running = models.data?.target != null || health.data?.status === 'loading';
  usePoll(running, refresh);
  const completed = useCompleted(models.data);
  return (
    <Page
      title="Models"
      actions={
        <>
          <span class="muted refresh-note">
            {running ? `Refreshing every ${POLL_MS / 1000} s while the transition runs` : ''}
          </span>
          <button type="button" onClick={refresh}>
            Refresh
          </button>
        </>
      }
    >
      {completed && (
        <Notice>
          The transition to <code>{completed}</code> is complete: it is published and recall uses
          it.
        </Notice>
      )}
      {models.error && <ErrorNote error={models.error} onRetry={models.reload} />}
      {embedder.error && <ErrorNote error={embedder.error} onRetry={embedder.reload} />}
      {health.error && <ErrorNote error={health.error} onRetry={health.reload} />}
      <div class="model-grid">
        {models.data ? (
          <PublishedModel status={models.data} />
        ) : (
          !models.error && <Loading lines={3} label="Loading the models" />
        )}
        {embedder.data || health.data ? (
          <EmbedderPanel health={health.data} status={embedder.data} space={space} />
        ) : (
          !embedder.error && <Loading lines={3} label="Loading the embedder status" />
        )}
      </div>
      {models.data && (
        <>
          <TransitionPanel status={models.data} action={changes} onChanged={refresh} />
          <SwitchModel status={models.data} action={changes} onChanged={refresh} />
          <OtherModels status={models.data} action={changes} onChanged={refresh} />
        </>
      )}
      <EmbedFailures status={embedder.data} space={space} />
      <ActionToast action={changes} />
    </Page>
  );
}
