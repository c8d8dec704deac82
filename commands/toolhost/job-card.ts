import { actionTo } from '../../src/core/action-ref';
import { plural } from '../../src/core/plural';
import type { ActionRequest, CardField, CardStatus, DraftCard } from '../../src/core/reply';
import { readableTimes } from '../../src/core/times';
import type { WatchKind } from '../../src/core/watch';
import {
  type Job,
  type JobStatusShort,
  jobFailureFacts,
  jobOutcome,
  jobRunEnd,
} from '../../src/services/toolhost';
import { withWarnings } from '../format';
import type { AppServices } from '../services';
import { announcement, stoppedFollowing } from './announce';
import { outputPlace } from './job-output';
import { logsCommand } from './logs';
import { jobsDeleteSignature, jobsRestartSignature, jobsShowSignature } from './signatures';

const STATUS: Record<JobStatusShort, CardStatus> = {
  pending: 'progress',
  running: 'success',
  succeeded: 'success',
  failed: 'danger',
  unknown: 'warning',
};

/** The job's state in a few words: `running (restarted (2))`, `failed (exitcode 1)`. */
export function jobState(job: Job): string {
  const short = job.status?.short;
  if (!short) return job.status_short ?? 'unknown';
  const details = job.status?.messages?.filter(Boolean) ?? [];
  return details.length ? `${short} (${details.join(', ')})` : short;
}

/** Card colour of a job: a running continuous job is healthy, a running one-off is in progress. */
export function jobStatus(job: Job): CardStatus {
  const short = job.status?.short ?? 'unknown';
  if (short === 'running' && job.job_type === 'one-off') return 'progress';
  return STATUS[short];
}

/** The card of one job, with Restart (not for one-off jobs), Logs and Delete buttons. */
export function jobCard(tool: string, job: Job, note?: string): DraftCard {
  const fields: CardField[] = [
    { label: 'Type', value: job.job_type, inline: true },
    { label: 'Status', value: jobState(job), inline: true },
  ];
  if (job.status?.duration) fields.push({ label: 'For', value: job.status.duration, inline: true });
  fields.push({ label: 'Command', value: job.cmd });
  fields.push({ label: 'Image', value: job.imagename ?? job.image ?? 'unknown', inline: true });
  if (job.schedule) {
    const next = job.status?.next_schedule ? `, next ${readableTimes(job.status.next_schedule)}` : '';
    fields.push({ label: 'Schedule', value: `${job.schedule}${next}`, inline: true });
  }
  if (job.job_type === 'continuous') {
    const serving = [
      job.replicas ? plural(job.replicas, 'replica') : undefined,
      job.port ? `port ${job.port}` : undefined,
    ];
    if (serving.some(Boolean))
      fields.push({ label: 'Serving', value: serving.filter(Boolean).join(', '), inline: true });
  }
  const resources = [
    job.cpu ? `cpu ${job.cpu}` : undefined,
    job.memory ? `memory ${job.memory}` : undefined,
  ].filter(Boolean);
  if (resources.length) fields.push({ label: 'Resources', value: resources.join(', '), inline: true });
  const output = outputPlace(tool, job);
  if (output) fields.push({ label: 'Output', value: output });
  const lines: string[] = [];
  if (note) lines.push(note);
  if (job.status_long) lines.push(readableTimes(job.status_long));
  if (job.status?.up_to_date === false) {
    lines.push('The running version differs from the definition: redeploy or restart to apply it.');
  }
  const args = { tool, job: job.name };
  // The platform cannot restart a one-off job ("Unable to restart a one-off job").
  const actions: ActionRequest[] = [
    ...(job.job_type === 'one-off'
      ? []
      : [actionTo(jobsRestartSignature, args, { label: 'Restart', style: 'primary' })]),
    actionTo(logsCommand, args, { label: 'Logs' }),
    actionTo(jobsDeleteSignature, args, { label: 'Delete', style: 'danger' }),
  ];
  return {
    title: `Job ${job.name} of ${tool}`,
    ...(lines.length ? { text: lines.join('\n') } : {}),
    status: jobStatus(job),
    fields,
    actions,
  };
}

/** Follows a one-off job run (`/jobs run … --wait`) until it succeeds or fails, like the platform's CLI. */
export const jobWatch: WatchKind<AppServices> = {
  name: 'job',
  async observe(services, tool, id) {
    const client = services.toolhost.forTool(tool);
    const job = await client.jobs.show(id);
    const outcome = jobOutcome(job);
    return {
      state: job.status?.short ?? job.status_short ?? 'unknown',
      terminal: jobRunEnd(job) !== undefined,
      outcome,
      ...(outcome === 'failure' ? { failure: await jobFailureFacts(client, job) } : {}),
      detail: `Job ${job.name} is ${jobState(job)}.`,
      card: withWarnings(jobCard(tool, job), client),
    };
  },
  gaveUp(tool, id, lastCard, reason) {
    return stoppedFollowing(
      lastCard,
      { title: `Job ${id} of ${tool}` },
      `job ${id}`,
      reason,
      `/jobs show ${tool} ${id}`,
    );
  },
  announce(event) {
    const args = { tool: event.tool, job: event.id };
    const remedies = [
      ...(event.failure?.jobType === 'one-off'
        ? []
        : [actionTo(jobsRestartSignature, args, { label: 'Restart', style: 'primary' })]),
      actionTo(logsCommand, args, { label: 'Logs' }),
    ];
    return announcement(event, 'job', actionTo(jobsShowSignature, args, { label: 'Show' }), remedies);
  },
};
