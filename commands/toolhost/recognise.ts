/**
 * How the tool-platform commands recognise the work of an earlier attempt of the same request whose
 * worker died after the platform accepted it (see `src/core/effects.ts`): what the platform shows
 * that tells "this happened since the attempt began".
 */
import { createHash } from 'node:crypto';
import type { Invocation } from '../../src/core/command';
import type { Build, Job } from '../../src/services/toolhost';

/** How far the platform's clock and seconds-rounded durations may be off ours (ms). */
const SKEW_MS = 2_000;

/**
 * The tag a deployment's description carries for the request that started it (`deckhand:<hash of
 * the delivery key>`), so a retried request finds the deployment it started.
 */
export function deliveryTag(invocation: Invocation): string | undefined {
  const key = invocation.key;
  return key ? `deckhand:${createHash('sha256').update(key).digest('hex').slice(0, 12)}` : undefined;
}

/** The description sent with a deployment: the user's own, then the request's tag. */
export function taggedDescription(
  description: string | undefined,
  tag: string | undefined,
): string | undefined {
  if (!tag) return description;
  return description ? `${description} (${tag})` : `(${tag})`;
}

/** Seconds in a platform duration (`1d2h3m4s`, `45s`); undefined when it is not one. */
export function durationSeconds(text: string | null | undefined): number | undefined {
  const match = /^(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text ?? '');
  if (!match || !text) return undefined;
  const [, d, h, m, s] = match.map((part) => Number(part ?? 0));
  return (d as number) * 86_400 + (h as number) * 3600 + (m as number) * 60 + (s as number);
}

/**
 * Whether a job's current run or pod started at or after `since` (a restart since then), from its
 * status duration; undefined when the platform does not say.
 */
export function jobStartedSince(job: Job, since: number, now = Date.now()): boolean | undefined {
  const seconds = durationSeconds(job.status?.duration);
  if (seconds === undefined) return undefined;
  return now - seconds * 1000 >= since - SKEW_MS;
}

/**
 * A build of the same source and ref that began since `since`, or is still waiting to begin (a
 * pending build has no start time yet).
 */
export function buildSince(
  builds: readonly Build[],
  source: { sourceUrl: string; ref?: string | undefined },
  since: number,
): Build | undefined {
  return builds.find((build) => {
    const params = build.parameters;
    // Without a ref the platform builds its default one (`HEAD`): any ref then.
    if (!params || params.source_url !== source.sourceUrl) return false;
    if (source.ref !== undefined && params.ref !== source.ref) return false;
    if (!build.start_time) return build.status === 'BUILD_PENDING';
    return Date.parse(build.start_time) >= since - SKEW_MS;
  });
}

/**
 * Whether a job was (re)started since `since`: a scheduled job's latest run, else its current run or
 * pod's age; undefined when the platform does not say.
 */
export function jobRestartedSince(job: Job, since: number, now = Date.now()): boolean | undefined {
  const previous = job.status?.previous_schedule;
  if (job.job_type === 'scheduled' && previous) return Date.parse(previous) >= since - SKEW_MS;
  return jobStartedSince(job, since, now);
}
