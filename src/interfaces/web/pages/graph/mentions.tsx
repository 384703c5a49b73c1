/** The memories that mention the selected entity, newest first, each a link to its memory page. */
import { api, call, type Schemas } from '../../lib/api';
import { KindBadge, memoryHref, StatusBadge } from '../../lib/memory-bits';
import { memoryLabel } from '../../lib/memory-form';
import { useSession } from '../../lib/session';
import { Empty, ErrorNote, Loading, Time, useAsync } from '../../lib/ui';

type Result = Schemas['GraphMentions'];
type Memory = Schemas['Memory'];

/** How many memories the list shows at most. */
const SHOWN = 20;

/** The memories naming `entity` (a key, name or alias). */
export function Mentions({ entity }: { entity: string }) {
  const { space } = useSession();
  const result = useAsync<Result>(
    () =>
      call(
        api.GET('/v1/spaces/{space}/graph/mentions', {
          params: { path: { space }, query: { entity, limit: SHOWN } },
        }),
      ),
    [space, entity],
  );
  const data = result.data;
  return (
    <section class="graph-mentions" aria-labelledby="graph-mentions-title">
      <h2 id="graph-mentions-title">
        Memories that mention {data ? data.entity.name : 'this entity'}
      </h2>
      {result.error ? (
        <ErrorNote error={result.error} onRetry={result.reload} />
      ) : !data ? (
        <Loading lines={3} label="Loading the memories" />
      ) : data.memories.length === 0 ? (
        <Empty title="No memory mentions it any more.">
          Memories that were forgotten leave the graph.
        </Empty>
      ) : (
        <>
          <ul class="graph-memory-list" aria-busy={result.loading}>
            {data.memories.map((m) => (
              <MemoryRow key={m.id} memory={m} />
            ))}
          </ul>
          {data.entity.mentions > data.memories.length && (
            <p class="muted">
              The {data.memories.length} newest of {data.entity.mentions}.{' '}
              <a href={`/?q=${encodeURIComponent(data.entity.name)}`}>
                Search for {data.entity.name}
              </a>{' '}
              to see the others.
            </p>
          )}
        </>
      )}
    </section>
  );
}

function MemoryRow({ memory: m }: { memory: Memory }) {
  return (
    <li>
      <a href={memoryHref(m.id)}>{memoryLabel(m)}</a>
      <div class="graph-memory-meta">
        <KindBadge kind={m.kind} />
        <StatusBadge status={m.status} />
        <span class="muted">{m.area}</span>
        <span class="muted">
          updated <Time at={m.updated_at} />
        </span>
      </div>
    </li>
  );
}
