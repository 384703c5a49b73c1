/**
 * Chart.js for the health page: only the controllers, elements, scales and plugins its charts use
 * are registered (this module is imported from the health page alone, so Chart.js stays out of the
 * main bundle). A chart draws in a container of fixed height with colours read from the page's
 * CSS variables, and is drawn again when the system switches between light and dark.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  type ChartType,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef, useState } from 'preact/hooks';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);

/** Colours of the current theme, read from CSS variables. */
export interface Palette {
  text: string;
  muted: string;
  line: string;
  panel: string;
  /** The series colours `--chart-1` ... `--chart-9`. */
  series: string[];
}

const SERIES = 9;

/** The palette as the CSS variables of `element` resolve now (light or dark theme). */
export function readPalette(element: Element): Palette {
  const style = getComputedStyle(element);
  const css = (name: string) => style.getPropertyValue(name).trim();
  return {
    text: css('--text'),
    muted: css('--muted'),
    line: css('--line'),
    panel: css('--panel'),
    series: Array.from({ length: SERIES }, (_, i) => css(`--chart-${i + 1}`)),
  };
}

/** A colour with an alpha (for filled areas), from a `#rrggbb` variable. */
export function translucent(colour: string, alpha: number): string {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour)?.[1];
  if (!hex) return colour;
  const n = Number.parseInt(hex, 16);
  return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/** Axis and legend options shared by every chart, in the palette's colours. */
export function baseOptions(p: Palette, stacked = false) {
  const axis = (title: string) => ({
    stacked,
    ticks: { color: p.muted },
    grid: { color: p.line },
    border: { color: p.line },
    title: { display: title !== '', text: title, color: p.muted },
  });
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false as const,
    interaction: { mode: 'index' as const, intersect: false },
    plugins: {
      legend: { labels: { color: p.text, boxWidth: 12 } },
      tooltip: { backgroundColor: p.panel, titleColor: p.text, bodyColor: p.text },
    },
    axis,
  };
}

const DARK = '(prefers-color-scheme: dark)';

/** Tracks the system theme, so charts redraw in the other palette when it changes. */
function useColourScheme(): boolean {
  const [dark, setDark] = useState(() => globalThis.matchMedia?.(DARK).matches ?? false);
  useEffect(() => {
    const query = globalThis.matchMedia?.(DARK);
    if (!query) return undefined;
    const change = () => setDark(query.matches);
    query.addEventListener('change', change);
    return () => query.removeEventListener('change', change);
  }, []);
  return dark;
}

/**
 * A chart on a canvas in a fixed-height box. `build` makes its configuration from the palette;
 * `label` names it for assistive technology (the figure around it carries the data as text).
 */
export function ChartCanvas<T extends ChartType>(props: {
  label: string;
  build: (palette: Palette) => ChartConfiguration<T>;
  /** Anything whose change should redraw the chart (its data). */
  data: unknown;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const dark = useColourScheme();
  useEffect(() => {
    const element = canvas.current;
    if (!element) return undefined;
    const chart = new Chart(element, props.build(readPalette(element)));
    return () => chart.destroy();
  }, [props.data, dark]);
  return (
    <div class="chart-box">
      <canvas ref={canvas} role="img" aria-label={props.label} />
    </div>
  );
}
