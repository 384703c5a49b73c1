/**
 * The health page's components: the service, store, embedder, knowledge graph and job worker as
 * `/v1/health` reports them (each with a status badge), and the space's items, vectors and
 * published model from `/v1/spaces/{space}/status`.
 */
import type { ComponentChildren } from 'preact';

import type { Schemas } from '../../lib/api';
import { Badge, Time } from '../../lib/ui';
import { count, duration } from './figure';

type Health = Schemas['Health'];
type Status = Schemas['Status'];
type Component = { status: string } & Record<string, unknown>;

const TONES: Record<string, string> = {
  ok: 'ok',
  loading: 'warn',
  degraded: 'warn',
  unavailable: 'danger',
  down: 'danger',
  off: 'off',
  pending: 'warn',
};

/** A component's state as a coloured badge whose text says it. */
export function StateBadge({ state }: { state: string }) {
  return (
    <Badge tone={TONES[state] ?? 'off'} title={`status: ${state}`}>
      {state}
    </Badge>
  );
}

/** `3 d 4 h`, `12 min`: how long the server has run. */
export function uptime(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  if (d > 0) return `${d} d ${h} h`;
  if (h > 0) return `${h} h ${m} min`;
  return m > 0 ? `${m} min` : `${seconds} s`;
}

function Card(props: { title: string; state?: string; children: ComponentChildren }) {
  return (
    <section class="card component" aria-label={props.title}>
      <header class="component-head">
        <h3>{props.title}</h3>
        {props.state && <StateBadge state={props.state} />}
      </header>
      <dl class="facts">{props.children}</dl>
    </section>
  );
}

function Fact(props: { name: string; children: ComponentChildren }) {
  return (
    <div>
      <dt>{props.name}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}

const text = (value: unknown) => (value == null || value === '' ? '–' : String(value));

function EmbedderCard({ part }: { part: Component }) {
  return (
    <Card title="Embedder" state={part.status}>
      <Fact name="Model">{text(part.model_id)}</Fact>
      {part.dimension != null && <Fact name="Dimension">{text(part.dimension)}</Fact>}
      {part.loaded != null && <Fact name="Loaded">{part.loaded ? 'yes' : 'not yet'}</Fact>}
      {part.reason != null && <Fact name="Why">{text(part.reason)}</Fact>}
    </Card>
  );
}

function WorkerCard({ part }: { part: Component }) {
  const jobs = part.jobs as Record<string, number> | undefined;
  return (
    <Card title="Job worker" state={part.status}>
      <Fact name="State">{text(part.state ?? 'not running in this process')}</Fact>
      {part.runs != null && (
        <Fact name="Runs">
          {text(part.runs)} ({text(part.failed_runs)} failed)
        </Fact>
      )}
      {part.last_run_at != null && (
        <Fact name="Last run">
          <Time at={part.last_run_at as string} />
        </Fact>
      )}
      {part.last_error != null && <Fact name="Last error">{text(part.last_error)}</Fact>}
      {jobs && (
        <Fact name="Jobs">
          {count(jobs.queued ?? 0)} queued, {count(jobs.running ?? 0)} running,{' '}
          {count(jobs.failed ?? 0)} failed
        </Fact>
      )}
    </Card>
  );
}

/** The service's components, from `/v1/health`. */
export function ServiceComponents({ health }: { health: Health }) {
  const { store, graph, embedder, worker } = health.components;
  return (
    <div class="components">
      <Card title="Service" state={health.status}>
        <Fact name="Version">{health.version}</Fact>
        <Fact name="Up for">{uptime(health.uptime_s)}</Fact>
        <Fact name="Tokens">{health.auth ? 'required' : 'not configured (loopback only)'}</Fact>
      </Card>
      <Card title="Store" state={store.status}>
        <Fact name="Backend">{text(store.backend)}</Fact>
        {store.latency_ms != null && (
          <Fact name="Answered in">{duration(store.latency_ms as number)}</Fact>
        )}
        {store.reason != null && <Fact name="Why">{text(store.reason)}</Fact>}
      </Card>
      <EmbedderCard part={embedder} />
      <Card title="Knowledge graph" state={graph.status}>
        <Fact name="Configured">{graph.enabled ? 'on' : 'off (graph.enabled)'}</Fact>
        <Fact name="Store keeps a graph">{graph.supported ? 'yes' : 'no'}</Fact>
      </Card>
      <WorkerCard part={worker} />
    </div>
  );
}

/** The space's items, vectors and published model, from `/v1/spaces/{space}/status`. */
export function SpaceComponents({ status }: { status: Status }) {
  const { store, published_model: model } = status;
  const { ready, pending, empty } = store.vectors;
  const vectorState = pending > 0 ? 'pending' : 'ok';
  return (
    <div class="components">
      <Card title="Contents">
        <Fact name="Memories">{count(store.items_total)}</Fact>
        <Fact name="Relations">{count(store.relations)}</Fact>
        {store.size_bytes != null && (
          <Fact name="Store size">{(store.size_bytes / 1_048_576).toFixed(1)} MiB</Fact>
        )}
        <Fact name="Schema">version {store.schema_version}</Fact>
      </Card>
      <Card title="Vectors" state={vectorState}>
        <Fact name="Ready">{count(ready)}</Fact>
        <Fact name="Pending">{count(pending)}</Fact>
        <Fact name="Nothing to embed">{count(empty)}</Fact>
      </Card>
      <Card title="Published model" state={model ? 'ok' : 'off'}>
        {model ? (
          <>
            <Fact name="Model">{model.id}</Fact>
            <Fact name="Dimension">{model.dimension}</Fact>
            <Fact name="Published">
              <Time at={model.published_at} />
            </Fact>
          </>
        ) : (
          <Fact name="Model">none yet: the first vectors publish one</Fact>
        )}
      </Card>
    </div>
  );
}
