/**
 * The health page's recall latency chart: p50 and p95 per time bucket (lines) of the recalls this
 * server process has served since it started, with the overall percentiles in its caption and the
 * busy buckets in its table. An empty state until the process serves its first recall.
 */
import type { ChartConfiguration } from 'chart.js';

import type { Schemas } from '../../lib/api';
import { baseOptions, ChartCanvas, type Palette } from './chart';
import { ChartEmpty, ChartFigure, count, duration } from './figure';

type Latency = Schemas['Insights']['recall_latency'];

const DAY_MS = 86_400_000;

/** How a bucket's start is labelled: the day for day-wide buckets, else the time (and the day). */
function bucketLabel(latency: Latency): (start: string) => string {
  const first = latency.buckets[0]?.start ?? latency.since;
  const last = latency.buckets.at(-1)?.start ?? latency.since;
  const days = Date.parse(last) - Date.parse(first) >= DAY_MS;
  const format = new Intl.DateTimeFormat(undefined, {
    ...(latency.bucket_ms >= DAY_MS || days ? { month: 'short', day: 'numeric' } : {}),
    ...(latency.bucket_ms < DAY_MS ? { hour: '2-digit', minute: '2-digit' } : {}),
  });
  return (start) => format.format(new Date(start));
}

/** A bucket width in words: `5 min`, `3 h`, `2 d`. */
function widthText(ms: number): string {
  if (ms >= DAY_MS) return `${ms / DAY_MS} d`;
  return ms >= 3_600_000 ? `${ms / 3_600_000} h` : `${ms / 60_000} min`;
}

/** Recall latency p50 and p95 over time. */
export function LatencyChart({ latency }: { latency: Latency }) {
  const label = bucketLabel(latency);
  const since = new Date(latency.since).toLocaleString();
  const overall = latency.overall;
  const width = widthText(latency.bucket_ms);
  const build = (p: Palette): ChartConfiguration<'line'> => {
    const base = baseOptions(p);
    const line = (name: string, key: 'p50' | 'p95', colour: string | undefined) => ({
      label: name,
      data: latency.buckets.map((b) => b[key]),
      borderColor: colour,
      backgroundColor: colour,
      pointRadius: 3,
      borderWidth: 2,
      spanGaps: false,
    });
    return {
      type: 'line',
      data: {
        labels: latency.buckets.map((b) => label(b.start)),
        datasets: [line('p50', 'p50', p.series[0]), line('p95', 'p95', p.series[1])],
      },
      options: {
        ...base,
        // Points sit in the middle of their bucket's slot (a lone bucket is not drawn on the edge).
        scales: {
          x: { ...base.axis(''), offset: true },
          y: { ...base.axis('milliseconds'), beginAtZero: true },
        },
      },
    };
  };
  return (
    <ChartFigure
      id="chart-latency"
      title="Recall latency"
      summary={
        overall
          ? `${count(latency.served)} recalls served by this server process since it started (${since}); of the last ${count(latency.count)}: p50 ${duration(overall.p50)}, p95 ${duration(overall.p95)}, p99 ${duration(overall.p99)}. Buckets of ${width}.`
          : `Measured by this server process since it started (${since}); not kept across restarts.`
      }
      table={{
        caption: 'Recall latency per time bucket with at least one recall',
        head: ['Bucket start', 'Recalls', 'p50', 'p95', 'p99'],
        rows: latency.buckets
          .filter((b) => b.count > 0)
          .map((b) => [label(b.start), b.count, duration(b.p50), duration(b.p95), duration(b.p99)]),
      }}
    >
      {overall ? (
        <ChartCanvas
          label="Line chart of recall latency p50 and p95 in milliseconds over time"
          build={build}
          data={latency}
        />
      ) : (
        <ChartEmpty title="No recalls served yet by this process.">
          Search on the Search page (or recall through the API), then refresh: each recall's time
          shows here.
        </ChartEmpty>
      )}
    </ChartFigure>
  );
}
