/**
 * The health page's charts of a space's memories (from `/v1/spaces/{space}/insights`): memories
 * by kind over time (stacked areas), status changes per day (stacked bars) and the strength of
 * live memories (bars). Each has a caption summing it up and a table of its numbers.
 */
import type { ChartConfiguration } from 'chart.js';

import type { Schemas } from '../../lib/api';
import { KINDS, STATUSES } from '../../lib/memory-bits';
import { baseOptions, ChartCanvas, type Palette, translucent } from './chart';
import { ChartEmpty, ChartFigure, count, shortDay } from './figure';

type Insights = Schemas['Insights'];

/** The series colour of a kind or status: by its place in the list, so it never changes. */
function colourOf(p: Palette, list: readonly string[], key: string): string {
  const index = list.indexOf(key);
  return p.series[(index < 0 ? list.length : index) % p.series.length] ?? p.text;
}

/** Keys of a record in the order of `list` (unknown ones last, by name). */
function ordered(keys: string[], list: readonly string[]): string[] {
  const rank = (k: string) => (list.includes(k) ? list.indexOf(k) : list.length);
  return [...keys].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The empty state of a space without memories. */
function NoMemories() {
  return (
    <ChartEmpty title="No memories yet.">
      They appear here once an agent remembers something (or after an import).
    </ChartEmpty>
  );
}

/** Memories of each kind day by day, stacked. */
export function KindsChart({ insights }: { insights: Insights }) {
  const { timeline, totals } = insights;
  const kinds = ordered(Object.keys(totals.by_kind), KINDS);
  const first = timeline[0];
  const last = timeline.at(-1);
  const total = (day: (typeof timeline)[number] | undefined) =>
    Object.values(day?.kinds ?? {}).reduce((a, b) => a + b, 0);
  const build = (p: Palette): ChartConfiguration<'line'> => {
    const base = baseOptions(p, true);
    return {
      type: 'line',
      data: {
        labels: timeline.map((d) => shortDay(d.day)),
        datasets: kinds.map((kind, i) => {
          const colour = colourOf(p, KINDS, kind);
          return {
            label: kind,
            data: timeline.map((d) => d.kinds[kind] ?? 0),
            borderColor: colour,
            backgroundColor: translucent(colour, 0.35),
            fill: i === 0 ? 'origin' : '-1',
            pointRadius: 0,
            borderWidth: 1.5,
          };
        }),
      },
      options: {
        ...base,
        scales: {
          x: base.axis(''),
          y: {
            ...base.axis('memories'),
            beginAtZero: true,
            ticks: { color: p.muted, precision: 0 },
          },
        },
      },
    };
  };
  const changed = timeline.filter(
    (d, i) => i === 0 || kinds.some((k) => d.kinds[k] !== timeline[i - 1]?.kinds[k]),
  );
  return (
    <ChartFigure
      id="chart-kinds"
      title="Memories by kind"
      summary={`${count(totals.items)} memories now (${kinds.map((k) => `${k} ${count(totals.by_kind[k] ?? 0)}`).join(', ')}). At the end of ${insights.from}: ${count(total(first))}; at the end of ${insights.to}: ${count(total(last))} (UTC days, any status).`}
      table={{
        caption: 'Memories of each kind at the end of each day on which the count changed',
        head: ['Day', ...kinds, 'total'],
        rows:
          totals.items === 0
            ? []
            : changed.map((d) => [d.day, ...kinds.map((k) => d.kinds[k] ?? 0), total(d)]),
      }}
    >
      {totals.items === 0 ? (
        <NoMemories />
      ) : (
        <ChartCanvas
          label={`Stacked area chart of memories by kind per day, ${insights.from} to ${insights.to}`}
          build={build}
          data={insights}
        />
      )}
    </ChartFigure>
  );
}

/** How many memories changed to each status per day, stacked. */
export function StatusChart({ insights }: { insights: Insights }) {
  const { timeline } = insights;
  const statuses = ordered(Object.keys(timeline[0]?.status_changes ?? {}), STATUSES);
  const days = timeline.filter((d) => statuses.some((s) => (d.status_changes[s] ?? 0) > 0));
  const sum = (s: string) => timeline.reduce((a, d) => a + (d.status_changes[s] ?? 0), 0);
  const build = (p: Palette): ChartConfiguration<'bar'> => {
    const base = baseOptions(p, true);
    return {
      type: 'bar',
      data: {
        labels: timeline.map((d) => shortDay(d.day)),
        datasets: statuses.map((status) => ({
          label: status,
          data: timeline.map((d) => d.status_changes[status] ?? 0),
          backgroundColor: colourOf(p, STATUSES, status),
          // Up to a year of days: bars fill their slot so a single change stays visible.
          barPercentage: 1,
          categoryPercentage: 0.9,
        })),
      },
      options: {
        ...base,
        scales: {
          x: base.axis(''),
          y: {
            ...base.axis('changes'),
            beginAtZero: true,
            ticks: { color: p.muted, precision: 0 },
          },
        },
      },
    };
  };
  return (
    <ChartFigure
      id="chart-status"
      title="Status changes"
      summary={
        statuses.length === 0
          ? `No memory changed status from ${insights.from} to ${insights.to}.`
          : `Changes to each status from ${insights.from} to ${insights.to} (UTC days): ${statuses.map((s) => `${s} ${count(sum(s))}`).join(', ')}.`
      }
      table={{
        caption: 'Memories that changed to each status, on the days with a change',
        head: ['Day', ...statuses],
        rows: days.map((d) => [d.day, ...statuses.map((s) => d.status_changes[s] ?? 0)]),
      }}
    >
      {statuses.length === 0 ? (
        <ChartEmpty title="No status changes in this period.">
          Forgetting, archiving, superseding or restoring a memory shows here.
        </ChartEmpty>
      ) : (
        <ChartCanvas
          label={`Stacked bar chart of status changes per day, ${insights.from} to ${insights.to}`}
          build={build}
          data={insights}
        />
      )}
    </ChartFigure>
  );
}

/** Live memories by tenth of strength. */
export function StrengthChart({ insights }: { insights: Insights }) {
  const { buckets, live } = insights.strength;
  const range = (b: (typeof buckets)[number]) => `${b.from.toFixed(1)}–${b.to.toFixed(1)}`;
  const weak = buckets.filter((b) => b.to <= 0.3).reduce((a, b) => a + b.count, 0);
  const build = (p: Palette): ChartConfiguration<'bar'> => {
    const base = baseOptions(p);
    return {
      type: 'bar',
      data: {
        labels: buckets.map(range),
        datasets: [
          {
            label: 'live memories',
            data: buckets.map((b) => b.count),
            backgroundColor: p.series[0],
          },
        ],
      },
      options: {
        ...base,
        plugins: { ...base.plugins, legend: { display: false } },
        scales: {
          x: base.axis('strength'),
          y: {
            ...base.axis('memories'),
            beginAtZero: true,
            ticks: { color: p.muted, precision: 0 },
          },
        },
      },
    };
  };
  return (
    <ChartFigure
      id="chart-strength"
      title="Strength of live memories"
      summary={
        live === 0
          ? 'No live memories (forgotten, merged and superseded ones are left out).'
          : `${count(live)} live memories; ${count(weak)} below strength 0.3, which decay will archive first.`
      }
      table={{
        caption: 'Live memories per strength range',
        head: ['Strength', 'Live memories'],
        rows: live === 0 ? [] : buckets.map((b) => [range(b), b.count]),
      }}
    >
      {insights.totals.items === 0 ? (
        <NoMemories />
      ) : live === 0 ? (
        <ChartEmpty title="No live memories.">
          Every memory of the space is forgotten, merged or superseded.
        </ChartEmpty>
      ) : (
        <ChartCanvas
          label="Bar chart of live memories per strength range from 0 to 1"
          build={build}
          data={insights}
        />
      )}
    </ChartFigure>
  );
}
