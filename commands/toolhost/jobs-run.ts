import { z } from 'zod';
import { NotFoundError, UpstreamError, UsageError } from '../../src/core/errors';
import type { Job, NewJob, ToolhostClient } from '../../src/services/toolhost';
import { jobName, toolName } from '../args';
import { command } from './context';
import { cronProblem } from './cron';
import { postFollowing } from './follow';
import { jobCard } from './job-card';

/** The tool's job of that name, if there is one. */
async function existingJob(client: ToolhostClient, name: string): Promise<Job | undefined> {
  return client.jobs.show(name).catch((error: unknown) => {
    if (error instanceof NotFoundError || (error instanceof UpstreamError && error.status === 404))
      return undefined;
    throw error;
  });
}

const quantity = (what: string, pattern: RegExp, example: string) =>
  z.string().regex(pattern, `must be a ${what} such as ${example}`);

/** The options of `/jobs run`, also used by `/jobs update`. */
export const runArgs = z.object({
  tool: toolName,
  name: jobName,
  command: z.string().min(1).max(2000).describe('opt-command'),
  image: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9._/:-]{0,200}$/,
      'must be an image short name (python3.11) or a built image (tool-mytool/web:latest)',
    )
    .describe('opt-image-jobs-run'),
  schedule: z.string().optional().describe('opt-schedule'),
  continuous: z.boolean().default(false).describe('opt-continuous'),
  cpu: quantity('CPU amount', /^\d+(\.\d+)?m?$/, '500m or 1')
    .optional()
    .describe('opt-cpu'),
  mem: quantity('memory amount', /^\d+(\.\d+)?(Ki|Mi|Gi|Ti|K|M|G|T)?$/, '512Mi or 1Gi')
    .optional()
    .describe('opt-mem'),
  replicas: z.number().int().min(1).max(16).optional().describe('opt-replicas'),
  port: z.number().int().min(1).max(65535).optional().describe('opt-port'),
  retry: z.number().int().min(0).max(5).optional().describe('opt-retry'),
  timeout: z.number().int().min(1).optional().describe('opt-timeout'),
  emails: z.enum(['none', 'all', 'onfinish', 'onfailure']).optional().describe('opt-emails'),
  mount: z.enum(['all', 'none']).optional().describe('opt-mount'),
  filelog: z.boolean().optional().describe('opt-filelog'),
  noFilelog: z.boolean().default(false).describe('opt-no-filelog'),
  filelogStdout: z.string().min(1).max(500).optional().describe('opt-filelog-stdout'),
  filelogStderr: z.string().min(1).max(500).optional().describe('opt-filelog-stderr'),
  healthCheckScript: z.string().min(1).optional().describe('opt-health-check-script'),
  healthCheckHttp: z
    .string()
    .startsWith('/', 'must be a path starting with /')
    .optional()
    .describe('opt-health-check-http'),
  wait: z.boolean().default(false).describe('opt-wait'),
});

type RunArgs = z.infer<typeof runArgs>;

/** Refuses combinations the platform would refuse, with the reason, before anything is sent. */
export function runArgsProblem(args: RunArgs): string | undefined {
  const continuousOnly: [keyof RunArgs, string][] = [
    ['replicas', '--replicas'],
    ['port', '--port'],
    ['healthCheckScript', '--health-check-script'],
    ['healthCheckHttp', '--health-check-http'],
  ];
  if (args.schedule !== undefined && args.continuous)
    return 'Choose either --schedule or --continuous, not both.';
  if (args.schedule !== undefined) {
    const problem = cronProblem(args.schedule);
    if (problem) return `Invalid --schedule: ${problem}.`;
  }
  if (!args.continuous) {
    const used = continuousOnly.find(([key]) => args[key] !== undefined);
    if (used) return `${used[1]} only applies to continuous jobs: add --continuous.`;
  }
  if (args.continuous && args.retry !== undefined)
    return '--retry does not apply to continuous jobs (they are restarted anyway).';
  if (args.timeout !== undefined && args.schedule === undefined)
    return '--timeout only applies to scheduled jobs: add --schedule.';
  if (args.healthCheckScript && args.healthCheckHttp)
    return 'Choose one health check: --health-check-script or --health-check-http.';
  if (args.healthCheckHttp && args.port === undefined)
    return '--health-check-http needs --port (the port the check calls).';
  if (args.wait && (args.continuous || args.schedule !== undefined))
    return '--wait only applies to one-off jobs.';
  const builtImage = args.image.includes('/');
  if (args.mount === 'none' && !builtImage)
    return '--mount none only works with images built by /build (tool-<tool>/<image>).';
  return filelogProblem(args);
}

/** The file-log options that do not go together. */
export function filelogProblem(
  args: Pick<RunArgs, 'filelog' | 'noFilelog' | 'filelogStdout' | 'filelogStderr' | 'mount'>,
): string | undefined {
  if (args.filelog && args.noFilelog) return 'Choose --filelog or --no-filelog, not both.';
  if (args.noFilelog && (args.filelogStdout || args.filelogStderr))
    return '--filelog-stdout and --filelog-stderr name files, so they do not go with --no-filelog.';
  if ((args.filelog || args.filelogStdout || args.filelogStderr) && args.mount === 'none')
    return 'File logs are written to the tool home, so they need --mount all.';
  return undefined;
}

/** The file-log fields of a job body, only those given. */
export function filelogFields(
  args: Pick<RunArgs, 'filelog' | 'noFilelog' | 'filelogStdout' | 'filelogStderr'>,
): Partial<NewJob> {
  return {
    ...(args.filelog ? { filelog: true } : {}),
    ...(args.noFilelog ? { filelog: false } : {}),
    ...(args.filelogStdout ? { filelog_stdout: args.filelogStdout } : {}),
    ...(args.filelogStderr ? { filelog_stderr: args.filelogStderr } : {}),
  };
}

/** The request body, with only the fields that were given (as the platform's CLI sends it). */
function jobBody(args: RunArgs): NewJob {
  const common = {
    name: args.name,
    cmd: args.command,
    imagename: args.image,
    ...(args.cpu ? { cpu: args.cpu } : {}),
    ...(args.mem ? { memory: args.mem } : {}),
    ...(args.emails ? { emails: args.emails } : {}),
    ...(args.mount ? { mount: args.mount } : {}),
    ...filelogFields(args),
  };
  if (args.continuous) {
    const healthCheck = args.healthCheckHttp
      ? { type: 'http' as const, path: args.healthCheckHttp }
      : args.healthCheckScript
        ? { type: 'script' as const, script: args.healthCheckScript }
        : undefined;
    return {
      ...common,
      job_type: 'continuous',
      ...(args.replicas !== undefined ? { replicas: args.replicas } : {}),
      ...(args.port !== undefined ? { port: args.port } : {}),
      ...(healthCheck ? { health_check: healthCheck } : {}),
    };
  }
  const retry = args.retry !== undefined ? { retry: args.retry } : {};
  if (args.schedule !== undefined) {
    return {
      ...common,
      job_type: 'scheduled',
      schedule: args.schedule,
      ...retry,
      ...(args.timeout ? { timeout: args.timeout } : {}),
    };
  }
  return { ...common, job_type: 'one-off', ...retry };
}

/**
 * The answer to a name another job has: change that job in place (`/jobs update`, for scheduled and
 * continuous jobs), or delete it first (a one-off job runs again as a new job).
 */
async function nameTaken(client: ToolhostClient, tool: string, name: string, cause: UpstreamError) {
  const existing = await client.jobs.show(name).catch(() => undefined);
  if (!existing) return cause;
  const next =
    existing.job_type === 'one-off'
      ? `It has not finished yet: run it again once it has (the new run replaces it), or stop it first with /jobs delete ${tool} ${name}.`
      : `Change it in place with /jobs update ${tool} ${name} (e.g. --command "…" or --image …).`;
  const kind = existing.job_type ? `${existing.job_type} ` : '';
  return new UsageError(`Tool ${tool} already has a ${kind}job named ${name}.`, {
    hint: `${next} Or choose another name. Nothing was changed.`,
  });
}

/** `/jobs run <tool> <name> --command CMD --image IMG …`: creates a one-off, scheduled or continuous job. */
export const jobsRunCommand = command({
  name: 'jobs run',
  args: runArgs,
  positional: ['tool', 'name'],
  examples: [
    '/jobs run mytool cleanup --command "./cleanup.sh" --image python3.11 --wait',
    '/jobs run mytool report --command "python3 report.py" --image python3.11 --schedule "0 3 * * *"',
    '/jobs run mytool api --command web --image tool-mytool/web:latest --continuous --port 8000',
  ],
  permission: 'write',
  effect: {
    check: (args) => `/jobs show ${args.tool} ${args.name}`,
    // Job names are unique per tool: a job of that name running the same command is the one the
    // interrupted attempt created (run finds it); none at all means it was not created.
    async recover({ args, services }) {
      const found = await existingJob(services.toolhost.forTool(args.tool), args.name);
      if (found === undefined) return 'run';
      return found.cmd === args.command ? 'run' : undefined;
    },
  },
  async run({ args, services, reply, interrupted, invocation }) {
    const problem = runArgsProblem(args);
    if (problem) throw new UsageError(problem, { hint: 'Type /help jobs run for every option.' });
    const client = services.toolhost.forTool(args.tool);
    const earlier = interrupted ? await existingJob(client, args.name) : undefined;
    const job =
      earlier ??
      (await client.jobs.create(jobBody(args)).catch(async (error: unknown) => {
        if (!(error instanceof UpstreamError) || error.status !== 409) throw error;
        throw await nameTaken(client, args.tool, args.name, error);
      }));
    const card = jobCard(args.tool, job, `Job ${job.name} created.`);
    const work = args.wait && { kind: 'job', id: job.name, started: true };
    return postFollowing({ args, services, invocation, reply }, client, card, work);
  },
});
