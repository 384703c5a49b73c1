/**
 * Search: a query with filters (kind, area, tag, status, dates) through the recall API; each hit
 * shows which channels found it and at what rank, its score and relevance, and recall's
 * `degraded` reasons; a hit opens its memory. The query is kept in the URL (`?q=`), so a search can
 * be reloaded and shared, and typing never blocks on the network.
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';

import { api, call, type Schemas } from '../lib/api';
import { KindBadge, KINDS, memoryHref, StatusBadge, STATUSES } from '../lib/memory-bits';
import { memoryLabel } from '../lib/memory-form';
import { useSession } from '../lib/session';
import { Badge, Empty, ErrorNote, Field, Loading, Page, Time, useAsync } from '../lib/ui';

type Recall = Schemas['RecallResponse'];
type Hit = Recall['hits'][number];
type Body = Schemas['RecallBody'];

/** The channels of recall, in the order the hits show them. */
const CHANNELS = ['keyword', 'vector', 'graph', 'time'] as const;

interface Filters {
  kind: string;
  area: string;
  tag: string;
  status: string;
  after: string;
  before: string;
}

const NO_FILTERS: Filters = { kind: '', area: '', tag: '', status: '', after: '', before: '' };

/** The recall request of a query and its filters. */
export function recallBody(query: string, f: Filters, k: number): Body {
  const body: Body = { query, k };
  if (f.kind) body.kinds = [f.kind as NonNullable<Body['kinds']>[number]];
  if (f.area) body.areas = [f.area];
  if (f.tag) body.tags = [f.tag];
  if (f.status) body.statuses = [f.status as NonNullable<Body['statuses']>[number]];
  if (f.after) body.created_after = new Date(`${f.after}T00:00:00`).toISOString();
  if (f.before) body.created_before = new Date(`${f.before}T23:59:59.999`).toISOString();
  return body;
}

function filtersFrom(query: Record<string, string>): Filters {
  return {
    ...NO_FILTERS,
    ...Object.fromEntries(
      Object.keys(NO_FILTERS).flatMap((k) => (query[k] ? [[k, query[k]]] : [])),
    ),
  };
}

function searchUrl(q: string, f: Filters): string {
  const params = new URLSearchParams();
  if (q) params.set('q', q);
  for (const [k, v] of Object.entries(f)) if (v) params.set(k, v);
  const text = params.toString();
  return text ? `/?${text}` : '/';
}

/** The search page. */
export default function SearchPage() {
  const { space } = useSession();
  const location = useLocation();
  const q = location.query.q ?? '';
  const filters = filtersFrom(location.query);
  const [draft, setDraft] = useState(q);
  const [draftFilters, setDraftFilters] = useState<Filters>(filters);
  const result = useAsync<Recall | null>(
    async () =>
      q.trim() === ''
        ? null
        : call(
            api.POST('/v1/spaces/{space}/recall', {
              params: { path: { space } },
              body: recallBody(q, filters, 20),
            }),
          ),
    [space, location.url],
  );
  const set = (key: keyof Filters) => (e: Event) =>
    setDraftFilters({ ...draftFilters, [key]: (e.currentTarget as HTMLInputElement).value });
  return (
    <Page title="Search">
      <form
        class="search-form"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          location.route(searchUrl(draft.trim(), draftFilters));
        }}
      >
        <div class="search-row">
          <label for="q" class="visually-hidden">
            Query
          </label>
          <input
            id="q"
            type="search"
            placeholder={`Search the memories of ${space}`}
            value={draft}
            onInput={(e) => setDraft(e.currentTarget.value)}
            autoFocus
          />
          <button type="submit" class="primary">
            Search
          </button>
        </div>
        <details class="filters" open={Object.values(filters).some(Boolean)}>
          <summary>Filters</summary>
          <div class="filter-grid">
            <Field id="f-kind" label="Kind">
              <select id="f-kind" value={draftFilters.kind} onChange={set('kind')}>
                <option value="">any</option>
                {KINDS.map((k) => (
                  <option key={k}>{k}</option>
                ))}
              </select>
            </Field>
            <Field id="f-status" label="Status">
              <select id="f-status" value={draftFilters.status} onChange={set('status')}>
                <option value="">recall's default</option>
                {STATUSES.map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </Field>
            <Field id="f-area" label="Area">
              <input
                id="f-area"
                value={draftFilters.area}
                onInput={set('area')}
                placeholder="projects/billing"
              />
            </Field>
            <Field id="f-tag" label="Tag">
              <input id="f-tag" value={draftFilters.tag} onInput={set('tag')} />
            </Field>
            <Field id="f-after" label="Created from">
              <input id="f-after" type="date" value={draftFilters.after} onInput={set('after')} />
            </Field>
            <Field id="f-before" label="Created until">
              <input
                id="f-before"
                type="date"
                value={draftFilters.before}
                onInput={set('before')}
              />
            </Field>
          </div>
        </details>
      </form>
      <Results q={q} result={result} />
    </Page>
  );
}

function Results(props: { q: string; result: ReturnType<typeof useAsync<Recall | null>> }) {
  const { result } = props;
  if (props.q.trim() === '')
    return (
      <Empty title="Type what you want to remember.">
        Recall combines keyword, meaning, knowledge-graph and time channels; each hit shows which of
        them found it.
      </Empty>
    );
  if (result.error) return <ErrorNote error={result.error} onRetry={result.reload} />;
  if (result.loading && !result.data) return <Loading lines={5} label="Searching" />;
  const data = result.data;
  if (!data) return null;
  return (
    <div aria-busy={result.loading} data-results-for={result.loading ? undefined : props.q}>
      <SearchSummary data={data} />
      {data.hits.length === 0 ? (
        <Empty title="Nothing matched.">Try other words, or fewer filters.</Empty>
      ) : (
        <ol class="hits">
          {data.hits.map((hit) => (
            <HitRow key={hit.id} hit={hit} />
          ))}
        </ol>
      )}
    </div>
  );
}

function SearchSummary({ data }: { data: Recall }) {
  const total = data.timings_ms.total;
  return (
    <div class="summary" aria-live="polite">
      <span>
        {data.hits.length} {data.hits.length === 1 ? 'hit' : 'hits'}
        {total !== undefined && <span class="muted"> in {Math.round(total)} ms</span>}
      </span>
      {data.decision.state !== 'off' && (
        <Badge
          tone={data.decision.state === 'applied' ? 'ok' : 'warn'}
          title={data.decision.reason}
        >
          decision {data.decision.state}
          {data.decision.low_confidence ? ' · low confidence' : ''}
        </Badge>
      )}
      {data.degraded.map((d) => (
        <Badge
          key={d.channel}
          tone="warn"
          title={`The ${d.channel} channel did not take part fully`}
        >
          {d.channel}: {d.reason.replaceAll('_', ' ')}
        </Badge>
      ))}
    </div>
  );
}

function HitRow({ hit }: { hit: Hit }) {
  return (
    <li class="hit">
      <div class="hit-main">
        <a class="hit-title" href={memoryHref(hit.id)}>
          {memoryLabel(hit)}
        </a>
        {hit.title && <p class="hit-body">{hit.body}</p>}
        <div class="hit-meta">
          <KindBadge kind={hit.kind} />
          <StatusBadge status={hit.status} />
          <span class="muted">{hit.area}</span>
          <span class="muted">
            updated <Time at={hit.updated_at} />
          </span>
        </div>
      </div>
      <div class="hit-side">
        <ChannelRanks channels={hit.channels} />
        <div class="scores">
          <span title="Fused score of the channels">score {hit.score.toFixed(3)}</span>
          {hit.relevance !== undefined && (
            <span title="Relevance judged by the decision stage">
              relevance {hit.relevance.toFixed(2)}
            </span>
          )}
        </div>
      </div>
    </li>
  );
}

/**
 * Which channels found a hit and at what rank: one cell per channel, filled darker the better the
 * rank (graph: by hops), with the rank as text for screen readers and on hover.
 */
export function ChannelRanks({ channels }: { channels: Hit['channels'] }) {
  return (
    <ul class="channels" aria-label="Channels that found it">
      {CHANNELS.map((name) => {
        const rank = channels[name];
        const found = rank !== undefined;
        const strength = !found
          ? 0
          : name === 'graph'
            ? 1 / rank
            : Math.max(0.15, 1 - Math.log10(rank) / 2);
        const label = !found
          ? `${name}: not found`
          : name === 'graph'
            ? `graph: ${rank} ${rank === 1 ? 'hop' : 'hops'}${channels.graph_path ? ` (${channels.graph_path.join(' → ')})` : ''}`
            : `${name}: rank ${rank}`;
        return (
          <li
            key={name}
            class={`channel ${found ? 'found' : ''}`}
            title={label}
            style={{ '--strength': strength }}
          >
            <span class="channel-name" aria-hidden="true">
              {name[0]!.toUpperCase()}
            </span>
            <span class="channel-rank" aria-hidden="true">
              {found ? `#${rank}` : '–'}
            </span>
            <span class="visually-hidden">{label}</span>
          </li>
        );
      })}
    </ul>
  );
}
