/**
 * The frame of each chart on the health page: a figure whose caption says what it shows and sums
 * its data up in words, the chart (or why there is none), and the numbers behind it as a table
 * that opens on demand, so every chart has a text alternative.
 */
import type { ComponentChildren } from 'preact';

/** A chart with its caption, its text summary and its data table. */
export function ChartFigure(props: {
  id: string;
  title: string;
  summary: ComponentChildren;
  children: ComponentChildren;
  table?: { caption: string; head: string[]; rows: (string | number)[][] };
}) {
  const { table } = props;
  return (
    <figure class="chart card" aria-labelledby={`${props.id}-title`}>
      <figcaption>
        <h3 id={`${props.id}-title`}>{props.title}</h3>
        <p class="muted chart-summary">{props.summary}</p>
      </figcaption>
      {props.children}
      {table && table.rows.length > 0 && (
        <details class="chart-data">
          <summary>Numbers: {props.title.toLowerCase()}</summary>
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">{table.caption}</caption>
              <thead>
                <tr>
                  {table.head.map((h) => (
                    <th key={h} scope="col">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row) => (
                  <tr key={String(row[0])}>
                    {row.map((cell, i) =>
                      i === 0 ? (
                        <th key={i} scope="row">
                          {cell}
                        </th>
                      ) : (
                        <td key={i} class="num">
                          {cell}
                        </td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      )}
    </figure>
  );
}

/** What stands in a chart's box when there is nothing to draw (same height: no layout shift). */
export function ChartEmpty(props: { title: string; children?: ComponentChildren }) {
  return (
    <div class="chart-box chart-empty">
      <p class="empty-title">{props.title}</p>
      {props.children && <p class="muted">{props.children}</p>}
    </div>
  );
}

const DAY_FORMAT = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/** `Jan 3` for a UTC day `YYYY-MM-DD`. */
export function shortDay(day: string): string {
  return DAY_FORMAT.format(new Date(`${day}T00:00:00Z`));
}

/** A number with the reader's grouping (`12,345`). */
export function count(n: number): string {
  return n.toLocaleString();
}

/** Milliseconds as shown: `12.3 ms`, `1.24 s`. */
export function duration(ms: number | null | undefined): string {
  if (ms == null) return '–';
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`;
}
