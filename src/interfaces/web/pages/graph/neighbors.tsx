/**
 * The selected entity's neighbourhood: its name, type and aliases, the depth control, the drawing
 * and, beside it, the same neighbours and edges as a table (the text alternative keyboard and
 * screen-reader users rely on), the legend of edge types, then the memories that mention it.
 */
import { useMemo } from 'preact/hooks';

import { api, call } from '../../lib/api';
import { useSession } from '../../lib/session';
import { Badge, Empty, ErrorNote, Loading, useAsync } from '../../lib/ui';
import { Drawing } from './drawing';
import { Mentions } from './mentions';
import {
  DEPTHS,
  EDGE_LOOKS,
  edgeText,
  type EdgeType,
  graphHref,
  mainEdge,
  type Neighborhood,
  summary,
  toGraph,
} from './model';

/** The neighbourhood of `entity` (a key, name or alias) at `depth`. */
export function Neighbors(props: {
  entity: string;
  depth: number;
  onDepth: (depth: number) => void;
  onPick: (key: string) => void;
}) {
  const { space } = useSession();
  const result = useAsync<Neighborhood>(
    () =>
      call(
        api.GET('/v1/spaces/{space}/graph/neighbors', {
          params: { path: { space }, query: { entity: props.entity, depth: props.depth } },
        }),
      ),
    [space, props.entity, props.depth],
  );
  const data = result.data;
  return (
    <section class="graph-focus" aria-labelledby="graph-focus-title" aria-busy={result.loading}>
      <div class="graph-focus-head">
        <h2 id="graph-focus-title">{data ? data.entity.name : props.entity}</h2>
        {data && <EntityFacts entity={data.entity} />}
        <DepthControl depth={props.depth} onDepth={props.onDepth} />
      </div>
      {result.error ? (
        <ErrorNote error={result.error} onRetry={result.reload} />
      ) : !data ? (
        <div class="graph-view">
          <Loading lines={4} label="Loading the neighbourhood" />
        </div>
      ) : (
        <View data={data} depth={props.depth} onPick={props.onPick} />
      )}
      {!result.error && <Mentions entity={props.entity} />}
    </section>
  );
}

function EntityFacts({ entity }: { entity: Neighborhood['entity'] }) {
  return (
    <p class="graph-facts">
      <Badge tone="kind">{entity.type}</Badge>
      <span>
        {entity.mentions} {entity.mentions === 1 ? 'memory' : 'memories'} · {entity.degree}{' '}
        {entity.degree === 1 ? 'neighbour' : 'neighbours'}
      </span>
      {!entity.confirmed && (
        <Badge tone="warn" title="Only named at sentence starts: recall does not traverse it yet">
          unconfirmed
        </Badge>
      )}
      {entity.aliases.length > 0 && (
        <span class="muted">also: {entity.aliases.slice(0, 6).join(', ')}</span>
      )}
    </p>
  );
}

function DepthControl(props: { depth: number; onDepth: (depth: number) => void }) {
  return (
    <fieldset class="graph-depth">
      <legend>Depth</legend>
      {DEPTHS.map((d) => (
        <label key={d}>
          <input
            type="radio"
            name="graph-depth"
            value={d}
            checked={props.depth === d}
            onChange={() => props.onDepth(d)}
          />
          {d === 1 ? '1 edge' : `${d} edges`}
        </label>
      ))}
    </fieldset>
  );
}

function View(props: { data: Neighborhood; depth: number; onPick: (key: string) => void }) {
  const { data, depth } = props;
  const graph = useMemo(() => toGraph(data), [data]);
  if (data.neighbors.length === 0)
    return (
      <Empty title={`${data.entity.name} has no neighbours yet.`}>
        An entity gets neighbours when a memory names it together with another person, place,
        project or tool, or when related memories name them.
      </Empty>
    );
  const types = [...new Set(graph.links.map((l) => l.type))];
  return (
    <div class="graph-view">
      <div class="graph-draw-col">
        <Drawing
          nodes={graph.nodes}
          links={graph.links}
          label={summary(data, depth)}
          onPick={props.onPick}
        />
        <Legend types={types} />
      </div>
      <NeighborTable data={data} depth={depth} />
    </div>
  );
}

function Legend({ types }: { types: EdgeType[] }) {
  return (
    <ul class="graph-legend" aria-label="Edge types in the drawing">
      {types.map((t) => (
        <li key={t}>
          <span class={`edge-swatch edge-${t}`} aria-hidden="true" />
          {EDGE_LOOKS[t].label}
        </li>
      ))}
    </ul>
  );
}

function NeighborTable({ data, depth }: { data: Neighborhood; depth: number }) {
  return (
    <div class="table-wrap graph-table">
      <table>
        <caption>
          Neighbours of {data.entity.name} ({data.neighbors.length})
        </caption>
        <thead>
          <tr>
            <th scope="col">Entity</th>
            <th scope="col">Steps</th>
            <th scope="col">Edges</th>
          </tr>
        </thead>
        <tbody>
          {data.neighbors.map((n) => (
            <tr key={n.entity.key}>
              <td>
                <a href={graphHref(n.entity.key, depth)}>{n.entity.name}</a>
                <span class="muted graph-type"> {n.entity.type}</span>
                {n.distance > 1 && (
                  <div class="muted graph-path">via {n.path.slice(1, -1).join(' → ')}</div>
                )}
              </td>
              <td>{n.distance}</td>
              <td>
                <span class={`edge-swatch edge-${mainEdge(n.edges)}`} aria-hidden="true" />
                {edgeText(n.edges)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
