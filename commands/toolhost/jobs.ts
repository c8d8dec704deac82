import { z } from 'zod';
import { NotFoundError, UpstreamError, UsageError } from '../../src/core/errors';
import { fingerprint, mustExist } from '../../src/core/target';
import { t, translator } from '../../src/i18n/translate';
import type { Job } from '../../src/services/toolhost';
import { jobName, toolName } from '../args';
import { quotaFields, table, withWarnings } from '../format';
import { toolCommand } from './context';
import { jobCard, jobState } from './job-card';
import { jobRestartedSince } from './recognise';
import { jobsDeleteSignature, jobsRestartSignature, jobsShowSignature } from './signatures';

/**
 * A job's definition without its changing state: a job deleted and created again under the same
 * name with another command, image or schedule gets another digest.
 */
const ENGLISH = translator('en');

function definition(job: Job): string {
  const { status: _status, status_short: _short, status_long: _long, ...defined } = job;
  return fingerprint(defined);
}

/** `/jobs list <tool>`. */
export const jobsListCommand = toolCommand({
  name: 'jobs list',
  permission: 'read',
  async run({ args, client, say = ENGLISH }) {
    const jobs = await client.jobs.list();
    if (jobs.length === 0) {
      return { text: say.t('jobs-none', args.tool), status: 'info' };
    }
    const rows = jobs.map((job) => [job.name, job.job_type, jobState(job), job.schedule ?? '']);
    return {
      title: say.t('jobs-list-title', args.tool),
      code: { text: table([['NAME', 'TYPE', 'STATUS', 'SCHEDULE'], ...rows]) },
      status: 'info',
    };
  },
});

/** `/jobs show <tool> <job>`. */
export const jobsShowCommand = toolCommand({
  ...jobsShowSignature,
  positional: ['tool', 'job'],
  examples: ['/jobs show mytool web'],
  permission: 'read',
  async run({ args, client, say = ENGLISH }) {
    return jobCard(args.tool, await client.jobs.show(args.job), say);
  },
});

/** The `/jobs run` line that creates `job` again (its command and image). */
export function runAgainLine(tool: string, job: Job): string {
  const image = job.imagename ?? job.image ?? '<image>';
  return `/jobs run ${tool} ${job.name} --command ${JSON.stringify(job.cmd)} --image ${image}`;
}

/** `/jobs restart <tool> <job>`: restarts a continuous job, or runs a scheduled one now. */
export const jobsRestartCommand = toolCommand({
  ...jobsRestartSignature,
  positional: ['tool', 'job'],
  examples: ['/jobs restart mytool web'],
  permission: 'write',
  guarded: true,
  effect: {
    check: (args) => `/jobs show ${args.tool} ${args.job}`,
    // A job restarted since the interrupted attempt began was restarted by it: shown, not restarted again.
    async recover({ args, services, say = ENGLISH }, since) {
      const client = services.toolhost.forTool(args.tool);
      const job = await client.jobs.show(args.job);
      const restarted = jobRestartedSince(job, since);
      if (restarted === undefined) return undefined;
      return restarted
        ? withWarnings(jobCard(args.tool, job, say, say.t('jobs-restarted', args.job)), client)
        : 'run';
    },
  },
  async run({ args, client, say = ENGLISH }) {
    const messages = await client.jobs.restart(args.job).catch(async (error: unknown) => {
      if (!(error instanceof UpstreamError) || error.status >= 500) throw error;
      const job = await client.jobs.show(args.job).catch(() => undefined);
      if (job?.job_type !== 'one-off') throw error;
      // A one-off job cannot be restarted: it runs again as a new job of the same name.
      throw UsageError.inWords((said) => ({
        message: said.t('jobs-restart-one-off', args.job, args.tool),
        hint: said.t('jobs-restart-one-off-hint', runAgainLine(args.tool, job)),
      }));
    });
    const job = await client.jobs.show(args.job);
    const note = messages.length ? messages.join('\n') : say.t('jobs-restarted', args.job);
    return jobCard(args.tool, job, say, note);
  },
});

/** `/jobs delete <tool> <job>` (confirmed first). */
export const jobsDeleteCommand = toolCommand({
  ...jobsDeleteSignature,
  positional: ['tool', 'job'],
  examples: ['/jobs delete mytool daily-report'],
  permission: 'write',
  guarded: true,
  confirm: (args, _target, say = ENGLISH) => say.t('jobs-delete-confirm', args.job, args.tool),
  async resolve({ args, services }) {
    const client = services.toolhost.forTool(args.tool);
    const job = await mustExist(
      () => client.jobs.show(args.job),
      (say) => ({
        message: say.t('jobs-not-found', args.job, args.tool),
        hint: say.t('jobs-not-found-hint', args.tool),
      }),
    );
    return { label: t('en', 'job-card-title', args.job, args.tool), args, version: definition(job) };
  },
  async run({ args, client, say = ENGLISH }) {
    const messages = await client.jobs.delete(args.job);
    return { text: messages.join('\n') || say.t('jobs-deleted', args.job, args.tool), status: 'success' };
  },
});

/** `/jobs flush <tool>` (confirmed first): stops and deletes every job, as listed in the question. */
export const jobsFlushCommand = toolCommand({
  name: 'jobs flush',
  args: z.object({
    tool: toolName,
    /** Set by `resolve`: the jobs the question listed (a new job makes the Confirm refuse). */
    jobs: z.array(jobName).optional().meta({ hidden: true }),
  }),
  permission: 'write',
  guarded: true,
  confirm: (args, _target, say = ENGLISH) =>
    say.t('jobs-flush-confirm', args.tool, args.jobs?.length ?? 0, (args.jobs ?? []).join(', ')),
  async resolve({ args, services }) {
    const client = services.toolhost.forTool(args.tool);
    const jobs = [...(await client.jobs.list())].sort((a, b) => a.name.localeCompare(b.name));
    if (jobs.length === 0) {
      throw new NotFoundError((say) => ({ message: say.t('jobs-flush-none', args.tool) }));
    }
    return {
      label: t('en', 'jobs-flush-label', args.tool),
      args: { ...args, jobs: jobs.map((job) => job.name) },
      version: fingerprint(jobs.map(definition)),
    };
  },
  async run({ args, client, say = ENGLISH }) {
    const messages = await client.jobs.flush();
    return { text: messages.join('\n') || say.t('jobs-flushed', args.tool), status: 'success' };
  },
});

/** `/jobs images <tool>`. */
export const jobsImagesCommand = toolCommand({
  name: 'jobs images',
  permission: 'read',
  async run({ args, client, say = ENGLISH }) {
    const images = await client.jobs.images();
    const rows = images.map((image) => [image.shortname, image.image ?? '']);
    return {
      title: say.t('jobs-images-title', args.tool),
      code: { text: table([['SHORT NAME', 'IMAGE'], ...rows]) },
      status: 'info',
    };
  },
});

/** `/jobs quota <tool>`. */
export const jobsQuotaCommand = toolCommand({
  name: 'jobs quota',
  permission: 'read',
  async run({ args, client, say = ENGLISH }) {
    return {
      title: say.t('jobs-quota-title', args.tool),
      fields: quotaFields(await client.jobs.quotas()),
      status: 'info',
    };
  },
});
