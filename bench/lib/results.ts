/**
 * What a benchmark reports: figures (each a measured value, the same-run baseline it is compared with,
 * their ratio and the target the ratio must meet) and plain notes. Absolute values are printed for
 * context; the ratio is the result.
 */

/** One row of the table. */
export interface Figure {
  /** What is measured, e.g. `ack p99 (ms)`. */
  metric: string;
  /** Deckhand's value. */
  value: number;
  /** The baseline measured (or derived) in the same run; undefined for a plain count. */
  baseline?: number;
  /** What the baseline is, e.g. `bare Bolt app`. */
  baselineLabel?: string;
  /** `value / baseline` (or the figure itself when there is no baseline). */
  ratio?: number;
  /** The target, e.g. `≤ 1.2`; undefined when the figure is informational. */
  target?: string;
  /** Whether the target was met (undefined when there is no target or it is not judged). */
  met?: boolean;
  unit?: string;
}

/** The outcome of one benchmark. */
export interface BenchResult {
  /** Short id (`ack`, `fanout`, …). */
  id: string;
  title: string;
  /** `ran`, `not run` (a prerequisite is missing) or `failed` (it broke). */
  status: 'ran' | 'not run' | 'failed';
  /** Why it did not run or how it failed. */
  reason?: string;
  figures: Figure[];
  /** Parameters actually used (rates, durations, counts), for the record. */
  params: Record<string, number | string | boolean>;
  /** Anything worth knowing about this run (429 counts, profiles written, …). */
  notes: string[];
  /** Wall time of the benchmark in seconds. */
  seconds: number;
}

/** `value ≤ limit` as a figure with a ratio against a baseline. */
export function ratioFigure(
  metric: string,
  value: number,
  baseline: number,
  baselineLabel: string,
  limit: number,
  unit?: string,
): Figure {
  const ratio = baseline > 0 ? value / baseline : value === 0 ? 1 : Number.POSITIVE_INFINITY;
  return {
    metric,
    value,
    baseline,
    baselineLabel,
    ratio,
    target: `≤ ${limit}`,
    met: ratio <= limit,
    ...(unit ? { unit } : {}),
  };
}

/** A figure checked against an absolute limit (`value ≤ limit`), e.g. a count of 429s. */
export function limitFigure(metric: string, value: number, limit: number, unit?: string): Figure {
  return {
    metric,
    value,
    target: `≤ ${limit}${unit ? ` ${unit}` : ''}`,
    met: value <= limit,
    ...(unit ? { unit } : {}),
  };
}

/** A figure checked to be at least `limit`. */
export function atLeastFigure(metric: string, value: number, limit: number, unit?: string): Figure {
  return {
    metric,
    value,
    target: `≥ ${limit}${unit ? ` ${unit}` : ''}`,
    met: value >= limit,
    ...(unit ? { unit } : {}),
  };
}

/** An informational figure (no target). */
export function infoFigure(metric: string, value: number, unit?: string): Figure {
  return { metric, value, ...(unit ? { unit } : {}) };
}

/** A figure compared with a baseline, without a target (context for the judged figures). */
export function compareFigure(
  metric: string,
  value: number,
  baseline: number,
  baselineLabel: string,
  unit?: string,
): Figure {
  return {
    metric,
    value,
    baseline,
    baselineLabel,
    ratio: baseline > 0 ? value / baseline : Number.NaN,
    ...(unit ? { unit } : {}),
  };
}
