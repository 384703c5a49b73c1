/**
 * Graph: the knowledge graph of the space (§4). The top entities with their counts and a search
 * to pick one; the picked entity's neighbourhood drawn (click a node to re-centre, depth 1 or 2)
 * with a table of the same neighbours beside it; the memories that mention it; and the hub report.
 * The entity and depth live in the URL (`/graph?entity=KEY&depth=2`), so a view can be reloaded,
 * shared and walked back with the browser. Empty states say why: graph off, or nothing named yet.
 */
import './graph.css';

import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';

import { api, call, type Schemas } from '../lib/api';
import { useSession } from '../lib/session';
import { Badge, Empty, ErrorNote, Loading, Page, useAsync } from '../lib/ui';
import { EntityPicker, type Order } from './graph/entities';
import { Hubs } from './graph/hubs';
import { depthOf, type Entity, graphHref } from './graph/model';
import { Neighbors } from './graph/neighbors';

type Stats = Schemas['GraphStats'];

/** The graph page. */
export default function GraphPage() {
  const { space } = useSession();
  const stats = useAsync<Stats>(
    () => call(api.GET('/v1/spaces/{space}/graph', { params: { path: { space } } })),
    [space],
  );
  return (
    <Page title="Graph">
      {stats.error ? (
        <ErrorNote error={stats.error} onRetry={stats.reload} />
      ) : !stats.data ? (
        <Loading lines={6} label="Loading the graph" />
      ) : (
        <GraphContent stats={stats.data} />
      )}
    </Page>
  );
}

function GraphContent({ stats }: { stats: Stats }) {
  if (!stats.enabled && stats.entities === 0)
    return (
      <Empty title="The knowledge graph is off.">
        With <code>graph.enabled: true</code> in the configuration, engram reads the people, places,
        projects and tools each memory names and links them; then run{' '}
        <code>engram graph rebuild</code> to read the memories already stored.
      </Empty>
    );
  if (stats.entities === 0)
    return (
      <Empty title="No entities yet.">
        The graph fills by itself as memories name people, places, projects, tools, files or
        addresses: “Alice leads Project Phoenix” links Alice to Project Phoenix.
      </Empty>
    );
  return (
    <>
      <StatsLine stats={stats} />
      <Explorer />
      <Hubs />
    </>
  );
}

function StatsLine({ stats }: { stats: Stats }) {
  return (
    <div class="summary graph-stats">
      <span>
        {stats.entities} entities · {stats.edges} edges · from {stats.items_extracted} memories
      </span>
      {!stats.enabled && (
        <Badge tone="warn" title="graph.enabled is false: new memories are not added">
          graph off: not kept current
        </Badge>
      )}
      {stats.items_stale > 0 && (
        <Badge tone="warn" title="engram graph rebuild --stale-only reads them now">
          {stats.items_stale} memories not read yet
        </Badge>
      )}
    </div>
  );
}

function Explorer() {
  const { space } = useSession();
  const location = useLocation();
  const [order, setOrder] = useState<Order>('mentions');
  const entities = useAsync<Entity[]>(
    async () =>
      (
        await call(
          api.GET('/v1/spaces/{space}/graph/entities', {
            params: { path: { space }, query: { top: 100, by: order } },
          }),
        )
      ).entities,
    [space, order],
  );
  const depth = depthOf(location.query.depth);
  const asked = location.query.entity;
  const selected = asked || entities.data?.[0]?.key;
  return (
    <div class="graph-layout">
      <EntityPicker
        entities={entities.data}
        error={entities.error}
        onRetry={entities.reload}
        order={order}
        onOrder={setOrder}
        selected={selected}
        depth={depth}
        onLookUp={(text) => location.route(graphHref(text, depth))}
      />
      {selected ? (
        <Neighbors
          entity={selected}
          depth={depth}
          onDepth={(d) => location.route(graphHref(selected, d), true)}
          onPick={(key) => location.route(graphHref(key, depth))}
        />
      ) : (
        <div class="graph-focus">
          {!entities.error && <Loading lines={4} label="Loading the neighbourhood" />}
        </div>
      )}
    </div>
  );
}
