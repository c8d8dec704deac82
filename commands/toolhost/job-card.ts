import { actionTo } from '../../src/core/action-ref';
import type { ActionRequest, CardField, CardStatus, DraftCard } from '../../src/core/reply';
import { readableTimes } from '../../src/core/times';
import type { WatchKind } from '../../src/core/watch';
import { type Translator, t, translator } from '../../src/i18n/translate';
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

/**
 * The card of one job, with Restart (not for one-off jobs), Logs and Delete buttons, in `say`'s
 * language (the conversation's: the card is posted where everyone reads it).
 */
export function jobCard(tool: string, job: Job, say: Translator, note?: string): DraftCard {
  const fields: CardField[] = [
    { label: say.t('job-field-type'), value: job.job_type, inline: true },
    { label: say.t('deploy-field-status'), value: jobState(job), inline: true },
  ];
  if (job.status?.duration)
    fields.push({ label: say.t('job-field-for'), value: job.status.duration, inline: true });
  fields.push({ label: say.t('job-field-command'), value: job.cmd });
  fields.push({
    label: say.t('job-field-image'),
    value: job.imagename ?? job.image ?? say.t('deploy-field-unknown'),
    inline: true,
  });
  if (job.schedule) {
    const schedule = job.status?.next_schedule
      ? say.t('job-schedule-next', job.schedule, readableTimes(job.status.next_schedule))
      : job.schedule;
    fields.push({ label: say.t('job-field-schedule'), value: schedule, inline: true });
  }
  if (job.job_type === 'continuous') {
    const serving = [
      job.replicas ? say.t('job-serving-replicas', job.replicas) : undefined,
      job.port ? say.t('job-serving-port', String(job.port)) : undefined,
    ];
    if (serving.some(Boolean))
      fields.push({
        label: say.t('job-field-serving'),
        value: serving.filter(Boolean).join(', '),
        inline: true,
      });
  }
  const resources = [
    job.cpu ? say.t('job-resource-cpu', job.cpu) : undefined,
    job.memory ? say.t('job-resource-memory', job.memory) : undefined,
  ].filter(Boolean);
  if (resources.length)
    fields.push({ label: say.t('job-field-resources'), value: resources.join(', '), inline: true });
  const output = outputPlace(tool, job, say);
  if (output) fields.push({ label: say.t('job-field-output'), value: output });
  const lines: string[] = [];
  if (note) lines.push(note);
  if (job.status_long) lines.push(readableTimes(job.status_long));
  if (job.status?.up_to_date === false) lines.push(say.t('job-card-out-of-date'));
  const args = { tool, job: job.name };
  // The platform cannot restart a one-off job ("Unable to restart a one-off job").
  const actions: ActionRequest[] = [
    ...(job.job_type === 'one-off'
      ? []
      : [actionTo(jobsRestartSignature, args, { label: say.t('job-button-restart'), style: 'primary' })]),
    actionTo(logsCommand, args, { label: say.t('announce-button-logs') }),
    actionTo(jobsDeleteSignature, args, { label: say.t('job-button-delete'), style: 'danger' }),
  ];
  return {
    title: say.t('job-card-title', job.name, tool),
    ...(lines.length ? { text: lines.join('\n') } : {}),
    status: jobStatus(job),
    fields,
    actions,
  };
}

/** Follows a one-off job run (`/jobs run … --wait`) until it succeeds or fails, like the platform's CLI. */
export const jobWatch: WatchKind<AppServices> = {
  name: 'job',
  async observe(services, tool, id, say = translator('en')) {
    const client = services.toolhost.forTool(tool);
    const job = await client.jobs.show(id);
    const outcome = jobOutcome(job);
    return {
      state: job.status?.short ?? job.status_short ?? 'unknown',
      terminal: jobRunEnd(job) !== undefined,
      outcome,
      ...(outcome === 'failure' ? { failure: await jobFailureFacts(client, job) } : {}),
      claim: { scope: { tool, job: id }, everyOutcome: true },
      detail: t('en', 'job-detail', job.name, jobState(job)),
      card: withWarnings(jobCard(tool, job, say), client),
    };
  },
  gaveUp(tool, id, lastCard, reason) {
    return stoppedFollowing(
      lastCard,
      { title: t('en', 'job-follow-title', id, tool) },
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
