/**
 * The dormant review (§9.4): what dormant recall logged in shadow mode, newest first. Each event is
 * metadata only (scores, counts, times, feedback); one that selected a memory opens to its
 * inspection and takes feedback. Evaluations that selected nothing are hidden unless asked for.
 */
import { useState } from 'preact/hooks';

import { type Schemas } from '../../lib/api';
import { useSession } from '../../lib/session';
import { type Async, Badge, Empty, ErrorNote, Loading } from '../../lib/ui';
import { DormantEventRow } from './dormant-event';

type Review = Schemas['DormantReview'];
type DormantEvent = Schemas['DormantEvent'];

/** The dormant review tab. */
export function DormantPanel(props: { review: Async<Review> }) {
  const { review } = props;
  const { canWrite } = useSession();
  const [all, setAll] = useState(false);
  const [changed, setChanged] = useState<Record<string, DormantEvent>>({});
  if (review.error && !review.data)
    return <ErrorNote error={review.error} onRetry={review.reload} />;
  if (!review.data) return <Loading lines={4} label="Reading the dormant review log" />;
  const { mode } = review.data;
  const events = review.data.events.map((e) => changed[e.id] ?? e);
  const selected = events.filter((e) => e.candidate_id !== null);
  const shown = all ? events : selected;
  const update = (next: DormantEvent) => setChanged((c) => ({ ...c, [next.id]: next }));
  return (
    <div aria-busy={review.loading}>
      <div class="dormant-head">
        <Badge tone={mode === 'off' ? 'off' : 'ok'} title="dormant_recall.mode of the server">
          dormant recall: {mode}
        </Badge>
        {events.length > 0 && (
          <>
            <span class="muted">
              {selected.length} of the last {events.length} evaluations selected a memory.
            </span>
            <label class="review-check">
              <input
                type="checkbox"
                checked={all}
                onChange={(e) => setAll(e.currentTarget.checked)}
              />
              Show evaluations that selected nothing
            </label>
          </>
        )}
      </div>
      <ErrorNote error={review.error} onRetry={review.reload} />
      {mode === 'off' && events.length > 0 && (
        <p class="muted">Dormant recall is off now: these events were logged while it was on.</p>
      )}
      {shown.length === 0 ? (
        <DormantEmpty mode={mode} evaluations={events.length} />
      ) : (
        <>
          {!canWrite && (
            <p class="muted">Inspecting an event and giving feedback need a write token.</p>
          )}
          <ol class="dormant-list">
            {shown.map((event) => (
              <DormantEventRow key={event.id} event={event} onChange={update} />
            ))}
          </ol>
        </>
      )}
    </div>
  );
}

function DormantEmpty(props: { mode: Review['mode']; evaluations: number }) {
  if (props.mode === 'off')
    return (
      <Empty title="Dormant recall is off.">
        When it is on (<code>dormant_recall.mode: shadow</code> in the configuration), each search
        looks for one relevant memory that has not been used for a long time and that ordinary
        recall left out, and logs it here for review. It never changes search results.
      </Empty>
    );
  return (
    <Empty title="No dormant memory to review.">
      {props.evaluations === 0
        ? 'Dormant recall runs in shadow mode, but no search has been evaluated yet. '
        : `None of the last ${props.evaluations} searches found a long-unused memory relevant enough. `}
      Each search may log at most one memory here; search results never change.
    </Empty>
  );
}
