/**
 * One dormant-recall event: when, what it found (scores, dormancy, overlap), whether it was shown
 * and what feedback it got; it opens to its inspection (the memory as it is now and the evidence,
 * which marks it shown) and takes one feedback category: useful, irrelevant or dismissed.
 */
import { useState } from 'preact/hooks';

import { api, call, errorText, type Schemas } from '../../lib/api';
import { KindBadge, memoryHref, StatusBadge } from '../../lib/memory-bits';
import { useSession } from '../../lib/session';
import { Badge, ErrorNote, Loading, Notice, Time } from '../../lib/ui';

type DormantEvent = Schemas['DormantEvent'];
/** The generated type reads the nullable memory as `Memory & (Record<string, never> | null)`. */
type Inspection = Omit<Schemas['DormantInspection'], 'memory'> & {
  memory: Schemas['Memory'] | null;
};
type Category = NonNullable<DormantEvent['feedback']>;

/** The feedback categories of §9.4, with what each means. */
const FEEDBACK: readonly { category: Category; label: string; hint: string }[] = [
  { category: 'useful', label: 'Useful', hint: 'It helped: its dormancy restarts' },
  { category: 'irrelevant', label: 'Irrelevant', hint: 'It did not fit the search' },
  { category: 'dismissed', label: 'Dismissed', hint: 'Not now, without judging it' },
];

/** A dormant event; `onChange` receives the event after feedback. */
export function DormantEventRow(props: {
  event: DormantEvent;
  onChange: (event: DormantEvent) => void;
}) {
  const { event } = props;
  const { space, canWrite } = useSession();
  const [open, setOpen] = useState(false);
  const [inspection, setInspection] = useState<Inspection | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);
  const panel = `inspect-${event.id}`;
  const inspect = async () => {
    setOpen(!open);
    if (open || inspection) return;
    setLoading(true);
    setError(null);
    try {
      const result = (await call(
        api.POST('/v1/spaces/{space}/dormant/events/{event_id}/inspect', {
          params: { path: { space, event_id: event.id } },
        }),
      )) as Inspection;
      setInspection(result);
      props.onChange(result.event);
    } catch (err) {
      setError(err);
    } finally {
      setLoading(false);
    }
  };
  return (
    <li class="dormant-event">
      <div class="dormant-top">
        <Time at={event.at} />
        <Badge
          tone={event.outcome === 'selected' ? 'ok' : event.outcome === 'failed' ? 'warn' : 'off'}
        >
          {event.outcome}
        </Badge>
        {event.candidate_id && (
          <a href={memoryHref(event.candidate_id)} class="mono">
            memory {event.candidate_id.slice(-8)}
          </a>
        )}
        {event.feedback && <Badge tone="kind">feedback: {event.feedback}</Badge>}
        {event.shown_at && (
          <span class="muted">
            shown <Time at={event.shown_at} />
          </span>
        )}
      </div>
      <EventFacts event={event} />
      {event.candidate_id && canWrite && (
        <div class="dormant-actions">
          <button
            type="button"
            aria-expanded={open}
            aria-controls={panel}
            onClick={() => void inspect()}
          >
            {open ? 'Hide inspection' : 'Inspect'}
          </button>
          <Feedback event={event} onChange={props.onChange} />
        </div>
      )}
      {open && (
        <div id={panel} class="dormant-inspection">
          <ErrorNote error={error} />
          {loading && <Loading lines={2} label="Inspecting" />}
          {inspection && <InspectionView inspection={inspection} />}
        </div>
      )}
    </li>
  );
}

/** The event's numbers, as a definition list. */
function EventFacts({ event }: { event: DormantEvent }) {
  const n = (x: number | null, digits = 3) => (x === null ? '–' : x.toFixed(digits));
  const facts: [string, string][] =
    event.outcome === 'failed'
      ? [['failure', event.error_type ?? 'unknown']]
      : [
          ['raw relevance', n(event.raw_relevance)],
          ['relevance check', n(event.relevance_score)],
          ['dormancy bonus', n(event.bonus)],
          [
            'unused for',
            event.dormant_days === null ? '–' : `${Math.floor(event.dormant_days)} days`,
          ],
          [
            'word overlap',
            event.overlap_terms === null
              ? '–'
              : `${event.overlap_terms} of ${event.query_terms ?? '?'} words`,
          ],
          [
            'candidates',
            `${event.candidate_count} eligible, ${event.above_floor} above the floor, ${event.passed} of ${event.checked} passed the check`,
          ],
        ];
  return (
    <dl class="dormant-facts">
      {facts.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
      <div>
        <dt>algorithm</dt>
        <dd class="mono">{event.algorithm}</dd>
      </div>
    </dl>
  );
}

/** The feedback buttons, or the feedback given. */
function Feedback(props: { event: DormantEvent; onChange: (event: DormantEvent) => void }) {
  const { event } = props;
  const { space } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [until, setUntil] = useState<string | null>(null);
  const give = async (category: Category) => {
    setBusy(true);
    setError(null);
    try {
      const result = await call(
        api.POST('/v1/spaces/{space}/dormant/events/{event_id}/feedback', {
          params: { path: { space, event_id: event.id } },
          body: { category },
        }),
      );
      setUntil(result.cooldown_until);
      props.onChange(result.event);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  if (event.feedback)
    return (
      <Notice>
        Feedback: <strong>{event.feedback}</strong> (given <Time at={event.feedback_at} />)
        {until && <>; the memory is paused until {new Date(until).toLocaleDateString()}</>}.
      </Notice>
    );
  return (
    <>
      <div class="dormant-feedback" role="group" aria-label="Feedback">
        {FEEDBACK.map((f) => (
          <button
            key={f.category}
            type="button"
            title={f.hint}
            disabled={busy}
            onClick={() => void give(f.category)}
          >
            {f.label}
          </button>
        ))}
      </div>
      {error && (
        <div class="note note-error" role="alert">
          {error}
        </div>
      )}
    </>
  );
}

const REASONS: Record<string, string> = {
  no_candidate: 'this evaluation selected no memory',
  not_found: 'the memory no longer exists',
};

/** What inspecting found: the memory as it is now, or why not, and the evidence. */
function InspectionView({ inspection }: { inspection: Inspection }) {
  const { memory, evidence } = inspection;
  return (
    <div class="dormant-inspection-body">
      {memory ? (
        <div class="dormant-inspected">
          <a class="review-title" href={memoryHref(memory.id)}>
            {memory.title ?? memory.body.split('\n')[0]}
          </a>
          {(memory.title || memory.body.includes('\n')) && <p class="review-body">{memory.body}</p>}
          <div class="review-meta">
            <KindBadge kind={memory.kind} />
            <StatusBadge status={memory.status} />
            <span class="muted">{memory.area}</span>
            <span class="muted">
              created <Time at={memory.created_at} />
            </span>
          </div>
        </div>
      ) : (
        <p>Not shown: {REASONS[inspection.reason ?? ''] ?? describe(inspection.reason)}.</p>
      )}
      {inspection.changed_since_selection && (
        <p class="review-warn">
          It was revised after it was scored: the scores describe an earlier version.
        </p>
      )}
      <p class="dormant-evidence">
        {evidence.literal_overlap !== null && (
          <Badge tone={evidence.literal_overlap ? 'ok' : 'off'}>
            {evidence.literal_overlap ? 'literal overlap' : 'semantic only'}
          </Badge>
        )}{' '}
        {evidence.summary}
      </p>
    </div>
  );
}

function describe(reason: string | null): string {
  if (!reason) return 'it is no longer eligible';
  const [what, value] = reason.split(':');
  if (what === 'status') return `the memory is now ${value}`;
  if (what === 'kind') return `its kind (${value}) is not looked at by dormant recall`;
  return reason;
}
