/** The figures of the ack benchmark (bench/ack.ts) from its measured runs. */
import type { Sizes } from '../ack';
import type { LoadRun, Replies } from './command-load';
import { compareFigure, type Figure, infoFigure, limitFigure, ratioFigure } from './results';
import type { SchedTimes } from './schedstat';
import { maxOf, percentile } from './stats';

/** Slack's deadline for an acknowledgement. */
const SLACK_DEADLINE_MS = 3000;

/** What the ack benchmark measured. */
export interface Measured {
  sizes: Sizes;
  baseline: LoadRun;
  split: LoadRun;
  splitReplies: Replies;
  splitSlowReplies: Replies;
  /** The 200/s run with every process at the normal priority. */
  samePriority: LoadRun;
  /** The 200/s run with the worker paused: the web process's tail without the worker's load. */
  workerPaused: LoadRun;
  inProcess: LoadRun;
  inProcessReplies: Replies;
  inProcessSlowReplies: Replies;
  idleRss: number;
  peakRss: number;
  /** Main-thread scheduler times over the fast rounds (undefined without /proc). */
  baselineSched?: SchedTimes | undefined;
  splitSched?: SchedTimes | undefined;
  /** CPU seconds of the worker process over the fast web + worker rounds (their cards included). */
  workerCpuSeconds?: number | undefined;
}

/** Microseconds of `pick` per command sent. */
function perCommand(times: SchedTimes | undefined, sent: number, pick: keyof SchedTimes): number {
  return times && sent > 0 ? times[pick] / 1000 / sent : Number.NaN;
}

/** Where the web process's main thread spent the fast rounds, per command, against bare Bolt's. */
function schedFigures(m: Measured): Figure[] {
  if (!m.splitSched || !m.baselineSched) return [];
  const figure = (metric: string, pick: keyof SchedTimes) =>
    compareFigure(
      metric,
      perCommand(m.splitSched, m.split.sent, pick),
      perCommand(m.baselineSched, m.baseline.sent, pick),
      'bare Bolt',
      'µs',
    );
  return [
    figure('web main thread on a CPU, per command', 'runNs'),
    figure('web main thread waiting for a CPU, per command', 'waitNs'),
  ];
}

/** The table rows of the ack benchmark. */
export function figures(m: Measured): Figure[] {
  const p = (values: number[], q: number) => percentile(values, q);
  const { fast, slow } = m.sizes;
  /** An info row: the ack p99 of another set-up against bare Bolt's. */
  const p99VsBolt = (metric: string, acks: number[]) =>
    compareFigure(metric, p(acks, 99), p(m.baseline.acks, 99), 'bare Bolt', 'ms');
  const over = m.split.acks.filter((ms) => ms > SLACK_DEADLINE_MS).length + m.split.timeouts + m.split.errors;
  return [
    ratioFigure(
      'ack p99 (web + worker)',
      p(m.split.acks, 99),
      p(m.baseline.acks, 99),
      'bare Bolt',
      1.2,
      'ms',
    ),
    compareFigure('ack p50 (web + worker)', p(m.split.acks, 50), p(m.baseline.acks, 50), 'bare Bolt', 'ms'),
    limitFigure('acks over 3 s (or failed)', over, 0),
    ratioFigure(
      `first reply p50 at ${slow}/s`,
      p(m.splitSlowReplies.latencies, 50),
      p(m.inProcessSlowReplies.latencies, 50),
      'one process',
      1.2,
      'ms',
    ),
    ratioFigure(
      `first reply p99 at ${slow}/s`,
      p(m.splitSlowReplies.latencies, 99),
      p(m.inProcessSlowReplies.latencies, 99),
      'one process',
      1.2,
      'ms',
    ),
    limitFigure(`first reply p99 at ${fast}/s`, p(m.splitReplies.latencies, 99), 2000, 'ms'),
    compareFigure(
      `first reply p50 at ${fast}/s`,
      p(m.splitReplies.latencies, 50),
      p(m.inProcessReplies.latencies, 50),
      'one process',
      'ms',
    ),
    limitFigure(`commands at ${fast}/s without a card`, m.splitReplies.sent - m.splitReplies.answered, 0),
    limitFigure(
      'commands answered more than once',
      m.splitReplies.answeredTwice + m.splitSlowReplies.answeredTwice,
      0,
    ),
    ratioFigure(
      'web process peak RSS under load',
      m.peakRss / 2 ** 20,
      m.idleRss / 2 ** 20,
      'idle',
      1.3,
      'MB',
    ),
    p99VsBolt('ack p99 (one process)', m.inProcess.acks),
    p99VsBolt('ack p99 (web, the worker paused)', m.workerPaused.acks),
    p99VsBolt('ack p99 (web + worker, one priority)', m.samePriority.acks),
    infoFigure('ack max (web + worker)', maxOf(m.split.acks), 'ms'),
    ...schedFigures(m),
    // What limits the first reply at the fast rate: one worker process's CPU per command it answers
    // (all its threads, from /proc; the watch polls the deploy cards start are partly in it).
    ...(m.workerCpuSeconds !== undefined && Number.isFinite(m.workerCpuSeconds) && m.split.sent > 0
      ? [infoFigure('worker process CPU per command', (m.workerCpuSeconds * 1e6) / m.split.sent, 'µs')]
      : []),
    infoFigure('achieved rate', m.split.achievedRate, 'req/s'),
  ];
}
