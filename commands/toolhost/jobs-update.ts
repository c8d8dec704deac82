/**
 * `/jobs update <tool> <job> --mem 1Gi …`: changes only the given fields of a job, in place.
 *
 * `PATCH /jobs` replaces a job's definition with exactly the fields sent (J `tjf/core/core.py
 * update_job` compares `model_dump(exclude_unset=True)`), so the job's current definition is read
 * first (`include_unset=false`, as `jobs dump` reads it), the given fields are put over it, and the
 * whole is sent: every field not given stays as it was. One-off jobs cannot be updated (the API
 * answers "OneOffJobs can't be updated"), which is said before anything is sent.
 */

import { z } from 'zod';
import { UsageError } from '../../src/core/errors';
import { mustExist } from '../../src/core/target';
import { translator } from '../../src/i18n/translate';
import type { NewJob } from '../../src/services/toolhost';
import { existingJob, toolName } from '../args';
import { withWarnings } from '../format';
import { command } from './context';
import { cronProblem } from './cron';
import { jobCard } from './job-card';
import { definitionOf } from './jobs-file';
import { filelogFields, filelogProblem, runArgs, type Words } from './jobs-run';

const ENGLISH = translator('en');

const o = runArgs.shape;

const updateArgs = z.object({
  tool: toolName,
  job: existingJob,
  command: o.command.optional(),
  image: o.image.optional(),
  schedule: o.schedule,
  cpu: o.cpu,
  mem: o.mem,
  replicas: o.replicas,
  port: o.port,
  retry: o.retry,
  timeout: o.timeout,
  emails: o.emails,
  mount: o.mount,
  filelog: o.filelog,
  noFilelog: o.noFilelog,
  filelogStdout: o.filelogStdout,
  filelogStderr: o.filelogStderr,
  healthCheckScript: o.healthCheckScript,
  healthCheckHttp: o.healthCheckHttp,
});

type UpdateArgs = z.infer<typeof updateArgs>;

/** Which job types each option applies to. */
const APPLIES: [keyof UpdateArgs, string, readonly string[]][] = [
  ['schedule', '--schedule', ['scheduled']],
  ['timeout', '--timeout', ['scheduled']],
  ['retry', '--retry', ['scheduled', 'one-off']],
  ['replicas', '--replicas', ['continuous']],
  ['port', '--port', ['continuous']],
  ['healthCheckScript', '--health-check-script', ['continuous']],
  ['healthCheckHttp', '--health-check-http', ['continuous']],
];

/** The given fields as body fields (only those given). */
function givenFields(args: UpdateArgs): Record<string, unknown> {
  const health = args.healthCheckHttp
    ? { type: 'http', path: args.healthCheckHttp }
    : args.healthCheckScript
      ? { type: 'script', script: args.healthCheckScript }
      : undefined;
  const fields: Record<string, unknown> = {
    cmd: args.command,
    imagename: args.image,
    schedule: args.schedule,
    cpu: args.cpu,
    memory: args.mem,
    replicas: args.replicas,
    port: args.port,
    retry: args.retry,
    timeout: args.timeout,
    emails: args.emails,
    mount: args.mount,
    health_check: health,
    ...filelogFields(args),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

/** `/jobs update <tool> <job> [options]`. */
export const jobsUpdateCommand = command({
  name: 'jobs update',
  args: updateArgs,
  positional: ['tool', 'job'],
  examples: [
    '/jobs update mytool web --mem 1Gi --replicas 2',
    '/jobs update mytool daily-report --schedule "30 4 * * *"',
    '/jobs update mytool web --no-filelog',
  ],
  permission: 'write',
  async run({ args, services, say = ENGLISH }) {
    const given = givenFields(args);
    if (Object.keys(given).length === 0) {
      throw UsageError.inWords((said) => ({
        message: said.t('jobs-update-nothing-given'),
        hint: said.t('jobs-update-every-option'),
      }));
    }
    const schedule = args.schedule;
    const problem: Words | undefined =
      filelogProblem(args) ??
      (schedule !== undefined && cronProblem(schedule, ENGLISH)
        ? (said) => said.t('jobs-invalid-schedule', cronProblem(schedule, said) ?? '')
        : undefined) ??
      (args.healthCheckScript && args.healthCheckHttp
        ? (said) => said.t('jobs-one-health-check')
        : undefined);
    if (problem) throw UsageError.inWords((said) => ({ message: problem(said) }));
    const client = services.toolhost.forTool(args.tool);
    const current = await mustExist(
      async () => {
        const found = (await client.jobs.list({ includeUnset: false })).find((j) => j.name === args.job);
        return found ?? (await client.jobs.show(args.job));
      },
      (said) => ({
        message: said.t('jobs-not-found', args.job, args.tool),
        hint: said.t('jobs-update-not-found-hint', args.tool),
      }),
    );
    if (current.job_type === 'one-off') {
      throw UsageError.inWords((said) => ({
        message: said.t('jobs-update-one-off', args.job),
        hint: said.t('jobs-update-one-off-hint', args.tool, args.job),
      }));
    }
    const misplaced = APPLIES.find(
      ([key, , types]) => args[key] !== undefined && !types.includes(current.job_type),
    );
    if (misplaced) {
      throw UsageError.inWords((said) => ({
        message: said.t('jobs-update-not-applicable', misplaced[1], args.job, current.job_type),
      }));
    }
    const definition = { ...definitionOf(current), ...given };
    if (given.health_check && !definition.port && (given.health_check as { type: string }).type === 'http') {
      throw UsageError.inWords((said) => ({ message: said.t('jobs-update-http-needs-port') }));
    }
    const result = await client.jobs.update(definition as NewJob);
    const job = await client.jobs.show(args.job);
    const note = result.changed
      ? `${say.t('jobs-updated', Object.keys(given).join(', '))} ${result.messages.join(' ')}`.trim()
      : say.t('jobs-update-unchanged', result.messages.join(' ') || say.t('jobs-update-already'));
    return withWarnings(jobCard(args.tool, job, say, note), client);
  },
});
