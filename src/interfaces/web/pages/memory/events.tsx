/** A memory's status events, newest first: from which status to which, why, who, and when. */
import type { Schemas } from '../../lib/api';
import { StatusBadge } from '../../lib/memory-bits';
import { Empty, Time } from '../../lib/ui';

type Event = Schemas['History']['status_events'][number];

/** The status events of a memory. */
export function StatusEvents({ events }: { events: readonly Event[] }) {
  const ordered = [...events].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  return (
    <section class="card memory-events" aria-labelledby="events-title">
      <h2 id="events-title">Status events ({ordered.length})</h2>
      {ordered.length === 0 ? (
        <Empty title="Its status never changed." />
      ) : (
        <ol class="events">
          {ordered.map((e) => (
            <li key={e.id} class="event">
              <span class="event-change">
                {e.from_status ? <StatusBadge status={e.from_status} /> : <span>new</span>}
                <span aria-hidden="true">→</span>
                <span class="visually-hidden">to</span>
                <StatusBadge status={e.to_status} />
              </span>
              <span class="event-reason">{e.reason}</span>
              <span class="muted">
                {e.actor && `${e.actor} · `}
                <Time at={e.at} />
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
