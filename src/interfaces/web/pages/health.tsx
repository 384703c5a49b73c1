/**
 * Health: the service's components (store, embedder, knowledge graph, job worker, version,
 * uptime) with status badges, the space's items, vectors and published model, and charts of its
 * memories by kind and status changes over time, the strength of live memories and the recall
 * latency this server process measured. The period is kept in the URL (`?days=`).
 */
import './health.css';

import { useLocation } from 'preact-iso';

import { api, call, type Schemas } from '../lib/api';
import { useSession } from '../lib/session';
import { ErrorNote, Field, Loading, Page, useAsync } from '../lib/ui';
import { ServiceComponents, SpaceComponents } from './health/components';
import { LatencyChart } from './health/latency-chart';
import { KindsChart, StatusChart, StrengthChart } from './health/memory-charts';

type Health = Schemas['Health'];

/** Periods offered, in days. */
const PERIODS = [7, 30, 90, 365] as const;
const DEFAULT_DAYS = 90;

/** `/v1/health`: a 503 still carries the components (the store is down), so it is shown too. */
async function loadHealth(): Promise<Health> {
  const result = await api.GET('/v1/health');
  const body = result.error as unknown as Health | undefined;
  if (result.response.status === 503 && body && 'components' in body) return body;
  return call(Promise.resolve(result));
}

/** The period of the URL, when it is one the page offers. */
function daysFrom(query: Record<string, string>): number {
  const days = Number(query.days);
  return (PERIODS as readonly number[]).includes(days) ? days : DEFAULT_DAYS;
}

/** The health page. */
export default function HealthPage() {
  const { space } = useSession();
  const location = useLocation();
  const days = daysFrom(location.query);
  const health = useAsync(loadHealth, []);
  const status = useAsync(
    () => call(api.GET('/v1/spaces/{space}/status', { params: { path: { space } } })),
    [space],
  );
  const insights = useAsync(
    () =>
      call(
        api.GET('/v1/spaces/{space}/insights', { params: { path: { space }, query: { days } } }),
      ),
    [space, days],
  );
  const refresh = () => {
    health.reload();
    status.reload();
    insights.reload();
  };
  const busy = health.loading || status.loading || insights.loading;
  return (
    <Page
      title="Health"
      actions={
        <div class="health-actions">
          <Field id="health-days" label="Period">
            <select
              id="health-days"
              value={days}
              onChange={(e) => location.route(`/health?days=${e.currentTarget.value}`)}
            >
              {PERIODS.map((d) => (
                <option key={d} value={d}>
                  last {d} days
                </option>
              ))}
            </select>
          </Field>
          <button type="button" onClick={refresh} disabled={busy}>
            Refresh
          </button>
        </div>
      }
    >
      <div class="health">
        <h2>Service</h2>
        {health.error ? (
          <ErrorNote error={health.error} onRetry={health.reload} />
        ) : health.data ? (
          <ServiceComponents health={health.data} />
        ) : (
          <Loading lines={1} label="Checking the service" />
        )}
        <h2>Space {space}</h2>
        {status.error ? (
          <ErrorNote error={status.error} onRetry={status.reload} />
        ) : status.data ? (
          <SpaceComponents status={status.data} />
        ) : (
          <Loading lines={1} label="Reading the space's status" />
        )}
        <Charts insights={insights} />
      </div>
    </Page>
  );
}

function Charts({ insights }: { insights: ReturnType<typeof useAsync<Schemas['Insights']>> }) {
  const data = insights.data;
  return (
    <>
      <h2>Memories and recall</h2>
      {insights.error ? (
        <ErrorNote error={insights.error} onRetry={insights.reload} />
      ) : (
        <div class="charts" aria-busy={insights.loading}>
          {data ? (
            <>
              <KindsChart insights={data} />
              <StatusChart insights={data} />
              <StrengthChart insights={data} />
              <LatencyChart latency={data.recall_latency} />
            </>
          ) : (
            <ChartSkeletons n={4} />
          )}
        </div>
      )}
    </>
  );
}

/** Placeholders the size of the charts while they load (no layout shift when they arrive). */
function ChartSkeletons({ n }: { n: number }) {
  return (
    <>
      {Array.from({ length: n }, (_, i) => (
        <div key={i} class="card chart chart-loading" role="status" aria-label="Loading a chart">
          <div class="skeleton" aria-hidden="true" />
        </div>
      ))}
    </>
  );
}
