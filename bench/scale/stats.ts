/** Small statistics helpers of the scale benchmark. */

/** The q-quantile (0..1) of a sample by nearest rank, rounded to 0.01 ms; 0 for no data. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return Math.round(sorted[rank]! * 100) / 100;
}

/** The median of a sample (the mean of the middle two for an even count), rounded to 0.01. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const half = sorted.length >> 1;
  const mid = sorted.length % 2 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2;
  return Math.round(mid * 100) / 100;
}

/** a / b rounded to two decimals, or null when b is zero. */
export function ratio(a: number, b: number): number | null {
  return b === 0 ? null : Math.round((a / b) * 100) / 100;
}
