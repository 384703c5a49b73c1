/**
 * The embedder: whether this server's model is loaded, loading or unavailable and why (from
 * `/v1/health`), each model's provider availability, the memories of the space waiting for a
 * vector, the live queue, and the memories whose embedding failed, with their reasons.
 */
import { memoryHref } from '../../lib/memory-bits';
import { Badge, Time } from '../../lib/ui';
import type { EmbedderHealth, EmbedderStatus } from './data';
import { Fact } from './published';

const HEALTH_TEXT: Record<EmbedderHealth['status'], [string, string]> = {
  ok: ['loaded', 'ok'],
  loading: ['loading', 'warn'],
  degraded: ['degraded', 'warn'],
  unavailable: ['unavailable', 'danger'],
  off: ['off', 'off'],
  down: ['down', 'danger'],
};

/** The embedder's card. */
export function EmbedderPanel(props: {
  health: EmbedderHealth | undefined;
  status: EmbedderStatus | undefined;
  space: string;
}) {
  const { health, status } = props;
  return (
    <section class="card model-card" aria-labelledby="embedder-title">
      <h2 id="embedder-title">Embedder</h2>
      {health && <HealthLine health={health} />}
      {status && (
        <>
          <dl class="model-facts">
            <Fact name={`Waiting for a vector in ${props.space}`}>
              {status.pending.toLocaleString()} {status.pending === 1 ? 'memory' : 'memories'}
            </Fact>
            {status.queue && (
              <Fact name="Live queue">
                <QueueLine queue={status.queue} />
              </Fact>
            )}
          </dl>
          {status.queue?.last_error && (
            <p class="model-warn">Last embedding error: {status.queue.last_error}</p>
          )}
          <Providers providers={status.providers} />
        </>
      )}
    </section>
  );
}

function QueueLine({ queue }: { queue: NonNullable<EmbedderStatus['queue']> }) {
  const { query, write, background } = queue.queued;
  const queued = query + write + background;
  return (
    <>
      {queued} queued, {queue.in_flight} in flight
      {queued > 0 && (
        <span class="muted">
          {' '}
          (query {query}, write {write}, background {background})
        </span>
      )}
      <br />
      <span class="muted">
        {queue.completed.toLocaleString()} {queue.completed === 1 ? 'call' : 'calls'} done,{' '}
        {queue.failed} failed since start
      </span>
    </>
  );
}

function HealthLine({ health }: { health: EmbedderHealth }) {
  const [word, tone] = HEALTH_TEXT[health.status];
  const model = typeof health.model_id === 'string' ? health.model_id : null;
  const reason = typeof health.reason === 'string' ? health.reason : null;
  return (
    <p class="model-health">
      <span>This server's embedder</span> <Badge tone={tone}>{word}</Badge>
      {model && <code class="model-id">{model}</code>}
      {reason && <span class="model-reason">{reason}</span>}
    </p>
  );
}

function Providers({ providers }: { providers: EmbedderStatus['providers'] }) {
  if (providers.length === 0) return null;
  return (
    <ul class="providers" aria-label="Models this server may need">
      {providers.map((p) => (
        <li key={p.model}>
          <code class="model-id">{p.model}</code> <span class="muted">{p.role}</span>{' '}
          <Badge tone={p.available ? 'ok' : 'danger'}>
            {p.available ? 'available' : 'unavailable'}
          </Badge>
          {p.reason && <span class="model-reason"> {p.reason}</span>}
        </li>
      ))}
    </ul>
  );
}

/** Memories of the space whose embedding failed; nothing when none did. */
export function EmbedFailures(props: { status: EmbedderStatus | undefined; space: string }) {
  const failures = props.status?.failures ?? [];
  if (failures.length === 0) return null;
  return (
    <section aria-labelledby="embed-failures-title">
      <h2 id="embed-failures-title">Embedding failures in {props.space}</h2>
      <p class="muted">
        A failure never stops the work of the others; these are retried with back-off. To retry them
        now, use the Failures on the <a href="/jobs">Jobs</a> page.
      </p>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Memory</th>
              <th scope="col">Work</th>
              <th scope="col">Attempts</th>
              <th scope="col">Error</th>
              <th scope="col">Next attempt</th>
            </tr>
          </thead>
          <tbody>
            {failures.map((f) => (
              <tr key={`${f.item_id}:${f.work}`}>
                <td>
                  <a href={memoryHref(f.item_id)} class="mono">
                    {f.item_id}
                  </a>
                </td>
                <td>{f.work === 'vector' ? 'embedding' : 'model rebuild'}</td>
                <td>{f.attempts}</td>
                <td class="model-reason">{f.last_error}</td>
                <td>
                  {f.next_attempt_at ? <Time at={f.next_attempt_at} /> : 'none (out of attempts)'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
