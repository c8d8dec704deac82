/** Reading prom-client metrics in tests: one series' value by its labels. */
import type { Counter, Histogram } from 'prom-client';

/** The value of the series of a counter whose labels include `labels` (0 when there is none). */
export async function counterValue(metric: Counter<string>, labels: Record<string, string>): Promise<number> {
  const { values } = await metric.get();
  return values
    .filter((v) => Object.entries(labels).every(([key, value]) => v.labels[key] === value))
    .reduce((sum, v) => sum + v.value, 0);
}

/** How many observations a histogram holds for the series whose labels include `labels`. */
export async function histogramCount(
  metric: Histogram<string>,
  labels: Record<string, string>,
): Promise<number> {
  const { values } = await metric.get();
  return values
    .filter((v) => v.metricName?.endsWith('_count'))
    .filter((v) => Object.entries(labels).every(([key, value]) => v.labels[key] === value))
    .reduce((sum, v) => sum + v.value, 0);
}
