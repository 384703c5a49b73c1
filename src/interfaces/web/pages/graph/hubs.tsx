/**
 * The hub report (§4): the entities tied to the most, whether recall still traverses them, why
 * they are hubs (structure or one source), and what could be done; suggestions only.
 */
import { api, call, type Schemas } from '../../lib/api';
import { useSession } from '../../lib/session';
import { Badge, Empty, ErrorNote, Loading, useAsync } from '../../lib/ui';
import { graphHref } from './model';

type Report = Schemas['GraphHubReport'];
type Hub = Report['hubs'][number];

/** The hub report of the space. */
export function Hubs() {
  const { space } = useSession();
  const result = useAsync<Report>(
    () =>
      call(
        api.GET('/v1/spaces/{space}/graph/hubs', {
          params: { path: { space }, query: { limit: 10 } },
        }),
      ),
    [space],
  );
  const data = result.data;
  return (
    <section class="graph-hubs" aria-labelledby="graph-hubs-title">
      <h2 id="graph-hubs-title">Hubs</h2>
      <p class="muted">
        The entities tied to the most. Above {data?.hub_threshold ?? '…'} mentions an entity is
        congested: recall no longer walks through it. These are suggestions; nothing changes.
      </p>
      {result.error ? (
        <ErrorNote error={result.error} onRetry={result.reload} />
      ) : !data ? (
        <Loading lines={2} label="Loading the hub report" />
      ) : data.hubs.length === 0 ? (
        <Empty title="No hubs yet.">
          An entity becomes a hub once at least three memories name it or it ties to three others.
        </Empty>
      ) : (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Entity</th>
                <th scope="col">Memories</th>
                <th scope="col">Neighbours</th>
                <th scope="col">Share</th>
                <th scope="col">Cause</th>
                <th scope="col">Suggestion</th>
              </tr>
            </thead>
            <tbody>
              {data.hubs.map((h) => (
                <HubRow key={h.entity.key} hub={h} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function HubRow({ hub: h }: { hub: Hub }) {
  return (
    <tr>
      <td>
        <a href={graphHref(h.entity.key)}>{h.entity.name}</a>{' '}
        {h.congested && (
          <Badge tone="warn" title="Above the hub threshold: recall does not traverse it">
            congested
          </Badge>
        )}
      </td>
      <td>{h.entity.mentions}</td>
      <td>{h.entity.degree}</td>
      <td>{Math.round(h.share * 100)}%</td>
      <td>
        {h.diagnosis === 'provenance'
          ? `one source (${h.provenance.top_source || 'unknown'})`
          : 'many topics'}
      </td>
      <td class="graph-suggestion">
        {h.suggestion}
        {h.clusters.length > 0 && (
          <ul>
            {h.clusters.map((c) => (
              <li key={c.suggested_area}>
                <code>{c.suggested_area}</code>: {c.entities.join(', ')} ({c.items})
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}
