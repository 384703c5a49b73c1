/**
 * The memory page (`/memories/:id`, in the session's space): the memory's text, fields, version
 * history with word diffs and restore, status events and navigable relations, and (for a writer)
 * every change an owner makes by hand, each reloading the memory and saying how it went.
 */
import './memory.css';

import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';

import { api, ApiError, call, type Schemas } from '../lib/api';
import { KindBadge, StatusBadge } from '../lib/memory-bits';
import { memoryLabel, useAreas } from '../lib/memory-form';
import { useSession } from '../lib/session';
import { Badge, Empty, ErrorNote, Loading, Page, useAsync } from '../lib/ui';
import { MemoryActions } from './memory/actions';
import { MemoryBody } from './memory/body';
import { StatusEvents } from './memory/events';
import { MemoryFields } from './memory/fields';
import { Relations } from './memory/relations';
import { useRunner } from './memory/runner';
import { Versions } from './memory/versions';

type History = Schemas['History'];

/** The memory page. */
export default function MemoryPage() {
  const { space } = useSession();
  const id = useRoute().params.id ?? '';
  const [purged, setPurged] = useState<string | null>(null);
  const history = useAsync<History>(
    () =>
      call(
        api.GET('/v1/spaces/{space}/memories/{id}/history', { params: { path: { space, id } } }),
      ),
    [space, id],
  );
  if (purged === id) return <Purged id={id} />;
  if (history.error && !history.loading && isMissing(history.error))
    return <Missing id={id} space={space} />;
  if (history.error && !history.data)
    return (
      <Page title="Memory">
        <ErrorNote error={history.error} onRetry={history.reload} />
      </Page>
    );
  if (!history.data || history.data.item.id !== id)
    return (
      <Page title="Memory">
        <div class="memory-loading">
          <Loading lines={4} label="Loading the memory" />
        </div>
      </Page>
    );
  return (
    <Loaded
      key={id}
      history={history.data}
      reload={history.reload}
      error={history.error}
      onPurged={() => setPurged(id)}
    />
  );
}

function isMissing(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

function Loaded(props: {
  history: History;
  reload: () => void;
  error: unknown;
  onPurged: () => void;
}) {
  const { history } = props;
  const memory = history.item;
  const session = useSession();
  const runner = useRunner(props.reload);
  const areas = useAreas(session.space);
  return (
    <Page
      title={memoryLabel(memory, 90)}
      actions={
        <div class="memory-badges">
          <KindBadge kind={memory.kind} />
          <StatusBadge status={memory.status} />
          {memory.pinned && <Badge tone="ok">pinned</Badge>}
        </div>
      }
    >
      {props.error != null && <ErrorNote error={props.error} onRetry={props.reload} />}
      <div class="memory-layout">
        <div class="memory-main">
          <MemoryBody memory={memory} canWrite={session.canWrite} runner={runner} />
        </div>
        <div class="memory-side">
          <MemoryFields memory={memory} />
          {session.canWrite && (
            <MemoryActions
              memory={memory}
              runner={runner}
              areas={areas}
              isAdmin={session.isAdmin}
              onPurged={props.onPurged}
            />
          )}
        </div>
        <div class="memory-history">
          <Versions history={history} canWrite={session.canWrite} runner={runner} />
          <StatusEvents events={history.status_events} />
          <Relations
            memory={memory}
            relations={history.relations}
            canWrite={session.canWrite}
            runner={runner}
          />
        </div>
      </div>
    </Page>
  );
}

function Missing({ id, space }: { id: string; space: string }) {
  return (
    <Page title="Memory not found">
      <Empty title={`No memory with this id in space ${space}.`}>
        <span class="memory-id-line">
          <code>{id}</code> may belong to another space (pick it above), or have been purged.
        </span>{' '}
        <a href="/">Go to search</a> or <a href="/browse">browse the memories</a>.
      </Empty>
    </Page>
  );
}

function Purged({ id }: { id: string }) {
  return (
    <Page title="Memory purged">
      <div class="note note-ok" role="status">
        Memory <code>{id}</code> was purged: its text and versions are gone; an audit record
        remains.
      </div>
      <p>
        <a href="/browse">Browse the memories</a> or <a href="/">go to search</a>.
      </p>
    </Page>
  );
}
