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
    throw new NotFoundError(
      `${tool} has no web service: none of its jobs is published.`,
      `Start one with /webservice start ${tool} --image <image>.`,
    );
  }
  return job;
}

/** `/webservice status <tool>`. */
export const webserviceStatusCommand = toolCommand({
  ...webserviceStatusSignature,
  permission: 'read',
  async run({ args, services, client }) {
    const job = await findWebservice(client);
    if (!job) {
      return {
        title: `Web service of ${args.tool}`,
        text: `${args.tool} has no web service: none of its jobs is published.\nStart one with /webservice start ${args.tool} --image <image>.`,
        status: 'info',
      };
    }
    return webserviceCard(args.tool, job, services.toolhost.publicUrl(args.tool));
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
  async run({ args, services, invocation, reply }) {
    const client = services.toolhost.forTool(args.tool);
    const url = services.toolhost.publicUrl(args.tool);
    const existing = await findWebservice(client);
    if (existing) {
      const note =
        existing.status?.short === 'failed'
          ? `The web service of ${args.tool} exists (job ${existing.name}) but is down: restart it.`
          : `The web service of ${args.tool} is already there (job ${existing.name}); nothing was started.`;
      return withWarnings({ ...webserviceCard(args.tool, existing, url, note), status: 'info' }, client);
    }
    if (!args.image) {
      throw new UsageError(`${args.tool} has no web service yet, so name its image with --image.`, {
        hint: `E.g. /webservice start ${args.tool} --image tool-${args.tool}/web:latest (a build-service image) or --image python3.11; /jobs images lists the others.`,
      });
    }
    const cmd = args.command ?? defaultWebCommand(args.image);
    if (!cmd) {
      throw new UsageError(`The image ${args.image} has no default web command: give one with --command.`, {
        hint: `E.g. /webservice start ${args.tool} --image ${args.image} --command "./serve.sh"`,
      });
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
    const card = webserviceCard(args.tool, job, url, `Started job ${job.name}, published at ${url}`);
    const work = { kind: 'webservice', id: job.name };
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
  async run({ args, services, invocation, reply, interrupted }) {
    const client = services.toolhost.forTool(args.tool);
    const found = await mustFind(client, args.tool);
    const again = interrupted && jobRestartedSince(found, interrupted.since);
    const messages = again ? [`Job ${found.name} restarted.`] : await client.jobs.restart(found.name);
    const job = await client.jobs.show(found.name);
    const note = messages.join('\n') || `Restarting job ${job.name}…`;
    const card = webserviceCard(args.tool, job, services.toolhost.publicUrl(args.tool), note);
    const work = { kind: 'webservice', id: job.name };
    return postFollowing(
      { args, services, invocation, reply },
      client,
      { ...card, status: 'progress' },
      work,
    );
  },
});

/** `/webservice stop <tool>` (confirmed first): deletes the published job, which removes its route. */
export const webserviceStopCommand = toolCommand({
  ...webserviceStopSignature,
  permission: 'write',
  guarded: true,
  overridable: true,
  confirm: (args, target) =>
    `Stop the web service of ${args.tool}? ${target?.label ?? 'Its job'} is deleted and ${args.tool} stops answering on the web.`,
  async resolve({ args, services }) {
    const job = await mustFind(services.toolhost.forTool(args.tool), args.tool);
    const { status: _s, status_short: _ss, status_long: _sl, ...defined } = job;
    return { label: `Job ${job.name}`, args, version: fingerprint(defined) };
  },
  async run({ args, client }) {
    const job = await mustFind(client, args.tool);
    const messages = await client.jobs.delete(job.name);
    return {
      text: `${messages.join('\n') || `Deleted job ${job.name}.`}\nThe web service of ${args.tool} is stopped; /webservice start ${args.tool} --image ${job.imagename ?? '<image>'} starts it again.`,
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
