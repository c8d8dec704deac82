/**
 * The period a scheduled digest covers, in the digest's own time zone: a daily digest at 09:00 covers
 * the 24 wall-clock hours up to its run (23 or 25 real hours on the days the clocks change), a weekly
 * one the 7 days up to it. The period's end is the run's scheduled instant, so every attempt at one
 * run (a retry after a crash, a second copy of the job) names the same period.
 */
import { DateTime } from 'luxon';

/** What a period is computed from (a digest's schedule). */
export interface DigestTiming {
  every: 'daily' | 'weekly';
  /** `HH:MM` in {@link timezone}. */
  at: string;
  /** Weekly digests: the day, 0 = Sunday. */
  weekday: number;
  /** IANA time zone. */
  timezone: string;
}

/** One period: `[start, end)`, Unix ms. */
export interface DigestPeriod {
  start: number;
  end: number;
}

/** The last scheduled run at or before `at` (ms), in the digest's zone. */
export function lastRunAtOrBefore(timing: DigestTiming, at: number): number {
  const [hour, minute] = timing.at.split(':').map(Number) as [number, number];
  const now = DateTime.fromMillis(at, { zone: timing.timezone });
  let run = now.set({ hour, minute, second: 0, millisecond: 0 });
  if (timing.every === 'weekly') {
    const back = ((run.weekday % 7) - timing.weekday + 7) % 7;
    run = run.minus({ days: back }).set({ hour, minute });
  }
  if (run.toMillis() > at)
    run = run.minus(timing.every === 'weekly' ? { weeks: 1 } : { days: 1 }).set({ hour, minute });
  return run.toMillis();
}

/** The period that the run scheduled for `runAt` (ms) reports on: up to the last run at or before it. */
export function digestPeriod(timing: DigestTiming, runAt: number): DigestPeriod {
  const end = lastRunAtOrBefore(timing, runAt);
  const start = DateTime.fromMillis(end, { zone: timing.timezone })
    .minus(timing.every === 'weekly' ? { weeks: 1 } : { days: 1 })
    .toMillis();
  return { start, end };
}

/** The scheduled instant of a job scheduler's run from its job id (`repeat:<scheduler>:<ms>`), if it is one. */
export function scheduledAtOf(jobId: string | undefined): number | undefined {
  const match = jobId?.match(/^repeat:.*:(\d+)$/);
  return match ? Number(match[1]) : undefined;
}
