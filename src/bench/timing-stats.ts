/** Median, minimum and maximum of a set of timings, in milliseconds. */
export interface TimingStats {
  medianMs: number;
  minMs: number;
  maxMs: number;
  runs: number;
}

export function timingStats(timesMs: readonly number[]): TimingStats {
  const sorted = [...timesMs].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const medianMs =
    sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return { medianMs, minMs: sorted[0] ?? 0, maxMs: sorted.at(-1) ?? 0, runs: sorted.length };
}

/** "median (min-max)" with one decimal. */
export function formatStats(stats: TimingStats): string {
  return `${stats.medianMs.toFixed(1)} ms (${stats.minMs.toFixed(1)}-${stats.maxMs.toFixed(1)})`;
}

/**
 * The growth exponent k in time ~ size^k: the least-squares slope of log(time) over log(size).
 * 1 is linear, 2 quadratic.
 */
export function growthExponent(points: ReadonlyArray<{ size: number; ms: number }>): number {
  const xs = points.map((point) => Math.log(point.size));
  const ys = points.map((point) => Math.log(Math.max(point.ms, 1e-6)));
  const meanX = xs.reduce((sum, x) => sum + x, 0) / xs.length;
  const meanY = ys.reduce((sum, y) => sum + y, 0) / ys.length;
  let covariance = 0;
  let variance = 0;
  for (let index = 0; index < xs.length; index++) {
    covariance += ((xs[index] ?? 0) - meanX) * ((ys[index] ?? 0) - meanY);
    variance += ((xs[index] ?? 0) - meanX) ** 2;
  }
  return variance === 0 ? Number.NaN : covariance / variance;
}
