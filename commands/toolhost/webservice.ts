/**
 * `/webservice start|stop|restart|status|logs <tool>`: the Toolforge `webservice` verbs on top of the
 * jobs API, as the platform runs web services today: a continuous job with a port and
 * `publish: "/"` (see webservice-card.ts for the sources).
 *
 * `start` fills in what the platform's legacy webservice endpoint would (toolforge-jobs-api 3fbc98a,
 * `LegacyWebserviceJob.to_core_job`): the port defaults to 8000 (the images' `webservice-defaults`,
 * and the `PORT=8000` the old webservice gave build-service images, tools-webservice
 * `toolsws/backends/kubernetes.py DEFAULT_HTTP_PORT`); the command of a build-service image defaults
 * to `web` (its Procfile's web process); a prebuilt image's to its `webservice-runner` line; other
 * images need `--command` ("selected image requires that you specify a command").
 */
import { z } from 'zod';
import { NotFoundError, UsageError } from '../../src/core/errors';
import { fingerprint } from '../../src/core/target';
import { type Translator, translator } from '../../src/i18n/translate';
import type { Job, NewContinuousJob, ToolhostClient } from '../../src/services/toolhost';
import { jobName, toolName } from '../args';
import { withWarnings } from '../format';
import { command, toolCommand } from './context';
import { postFollowing } from './follow';
import { logsCommand } from './logs';
import { jobRestartedSince } from './recognise';
import {
  webserviceLogsSignature,
  webserviceRestartSignature,
  webserviceStatusSignature,
  webserviceStopSignature,
} from './signatures';
import { findWebservice, webserviceCard } from './webservice-card';

/** `webservice-runner --type` of the prebuilt images that have web defaults (jobs-api image config). */
const RUNNER_TYPE: Record<string, string> = {
  'python3.11': 'uwsgi-python',
  'python3.13': 'uwsgi-python',
  node18: 'nodejs',
  node20: 'nodejs',
  'php8.2': 'lighttpd',
};

/** Default port of a web service (see the module comment). */
export const WEBSERVICE_PORT = 8000;

/** The command a web service runs when none is given, or undefined when the image has no default. */
export function defaultWebCommand(image: string): string | undefined {
  if (image.includes('/')) return 'web';
  const type = RUNNER_TYPE[image];
  return type ? `/usr/bin/webservice-runner --type ${type} --port $PORT` : undefined;
}

async function mustFind(client: ToolhostClient, tool: string): Promise<Job> {
  const job = await findWebservice(client);
  if (!job) {
    const words = (say: Translator) => ({
      message: say.t('webservice-none', tool),
      hint: say.t('webservice-none-hint', tool),
    });
    const english = words(translator('en'));
    const error = new NotFoundError(english.message, english.hint);
    error.words = words;
    throw error;
  }
  return job;
}

/** `/webservice status <tool>`. */
export const webserviceStatusCommand = toolCommand({
  ...webserviceStatusSignature,
  permission: 'read',
  async run({ args, services, client, say = translator(undefined) }) {
    const job = await findWebservice(client);
    if (!job) {
      return {
        title: say.t('webservice-card-title', args.tool),
        text: `${say.t('webservice-none', args.tool)}\n${say.t('webservice-none-hint', args.tool)}`,
        status: 'info',
      };
    }
    return webserviceCard(args.tool, job, services.toolhost.publicUrl(args.tool), undefined, say);
  },
});

/** `/webservice start <tool>`. */
export const webserviceStartCommand = command({
  name: 'webservice start',
  args: z.object({
    tool: toolName,
    image: z.string().min(1).max(300).optional().describe('opt-image-webservice-start'),
    command: z.string().min(1).max(1000).optional().describe('opt-command-webservice-start'),
    port: z.number().int().min(1).max(65535).default(WEBSERVICE_PORT).describe('opt-port-webservice-start'),
    name: jobName.default('webservice').describe('opt-name'),
    replicas: z.number().int().min(1).max(16).optional().describe('opt-replicas-webservice-start'),
  }),
  examples: [
    '/webservice start mytool --image tool-mytool/web:latest',
    '/webservice start mytool --image python3.11 --port 8000',
  ],
  permission: 'write',
  async run({ args, services, invocation, reply, say = translator(undefined) }) {
    const client = services.toolhost.forTool(args.tool);
    const url = services.toolhost.publicUrl(args.tool);
    const existing = await findWebservice(client);
    if (existing) {
      const note =
        existing.status?.short === 'failed'
          ? say.t('webservice-exists-down', args.tool, existing.name)
          : say.t('webservice-exists', args.tool, existing.name);
      return withWarnings({ ...webserviceCard(args.tool, existing, url, note, say), status: 'info' }, client);
    }
    if (!args.image) {
      throw UsageError.inWords((say) => ({
        message: say.t('webservice-no-image', args.tool),
        hint: say.t('webservice-no-image-hint', args.tool, `tool-${args.tool}/web:latest`),
      }));
    }
    const image = args.image;
    const cmd = args.command ?? defaultWebCommand(image);
    if (!cmd) {
      throw UsageError.inWords((say) => ({
        message: say.t('webservice-no-command', image),
        hint: say.t('webservice-no-command-hint', args.tool, image),
      }));
    }
    const body: NewContinuousJob = {
      name: args.name,
      cmd,
      imagename: args.image,
      job_type: 'continuous',
      port: args.port,
      publish: '/',
      ...(args.replicas ? { replicas: args.replicas } : {}),
    };
    const job = await client.jobs.create(body);
    const card = webserviceCard(args.tool, job, url, say.t('webservice-started', job.name, url), say);
    const work = { kind: 'webservice', id: job.name, language: say.language };
    return postFollowing({ args, services, invocation, reply }, client, card, work);
  },
});

/** `/webservice restart <tool>`: restarts the published job and follows it until it runs again. */
export const webserviceRestartCommand = command({
  ...webserviceRestartSignature,
  permission: 'write',
  guarded: true,
  overridable: true,
  effect: {
    check: (args) => `/webservice status ${args.tool}`,
    // Its published job restarted since the interrupted attempt began: that attempt restarted it.
    async recover({ args, services }, since) {
      const restarted = jobRestartedSince(
        await mustFind(services.toolhost.forTool(args.tool), args.tool),
        since,
      );
      return restarted === undefined ? undefined : 'run';
    },
  },
  async run({ args, services, invocation, reply, interrupted, say = translator(undefined) }) {
    const client = services.toolhost.forTool(args.tool);
    const found = await mustFind(client, args.tool);
    const again = interrupted && jobRestartedSince(found, interrupted.since);
    // The platform's own messages (English) when it sent some.
    const messages = again
      ? [say.t('webservice-job-restarted', found.name)]
      : await client.jobs.restart(found.name);
    const job = await client.jobs.show(found.name);
    const note = messages.join('\n') || say.t('webservice-restarting', job.name);
    const card = webserviceCard(args.tool, job, services.toolhost.publicUrl(args.tool), note, say);
    const work = { kind: 'webservice', id: job.name, language: say.language };
    return postFollowing(
      { args, services, invocation, reply },
      client,
      { ...card, status: 'progress' },
      work,
    );
  },
});

/** The label of the bound web service job (said in English when it changed before Confirm). */
const jobLabel = (name: string) => `Job ${name}`;

/** The job's name in a {@link jobLabel}. */
function jobOfLabel(label: string): string | undefined {
  return label.startsWith('Job ') ? label.slice('Job '.length) : undefined;
}

/** `/webservice stop <tool>` (confirmed first): deletes the published job, which removes its route. */
export const webserviceStopCommand = toolCommand({
  ...webserviceStopSignature,
  permission: 'write',
  guarded: true,
  overridable: true,
  confirm: (args, target, say = translator('en')) => {
    const job = target && jobOfLabel(target.label);
    return job
      ? say.t('webservice-stop-confirm', args.tool, job)
      : say.t('webservice-stop-confirm-unnamed', args.tool);
  },
  async resolve({ args, services }) {
    const job = await mustFind(services.toolhost.forTool(args.tool), args.tool);
    const { status: _s, status_short: _ss, status_long: _sl, ...defined } = job;
    return { label: jobLabel(job.name), args, version: fingerprint(defined) };
  },
  async run({ args, client, say = translator(undefined) }) {
    const job = await mustFind(client, args.tool);
    const messages = await client.jobs.delete(job.name);
    const restart = `/webservice start ${args.tool} --image ${job.imagename ?? '<image>'}`;
    return {
      text: `${messages.join('\n') || say.t('webservice-job-deleted', job.name)}\n${say.t('webservice-stopped', args.tool, restart)}`,
      status: 'success',
    };
  },
});

/** `/webservice logs <tool>`: the log of the published job (the same view as `/logs`). */
export const webserviceLogsCommand = command({
  ...webserviceLogsSignature,
  examples: ['/webservice logs mytool', '/webservice logs mytool --lines 200'],
  permission: 'read',
  async run(ctx) {
    const { args, services } = ctx;
    const job = await mustFind(services.toolhost.forTool(args.tool), args.tool);
    const logsArgs = logsCommand.args.parse({ tool: args.tool, job: job.name, lines: args.lines });
    return logsCommand.run({ ...ctx, args: logsArgs } as never);
  },
});

/** The web service commands, in the order help lists them. */
export const WEBSERVICE_COMMANDS = [
  webserviceStatusCommand,
  webserviceStartCommand,
  webserviceRestartCommand,
  webserviceStopCommand,
  webserviceLogsCommand,
] as const;
