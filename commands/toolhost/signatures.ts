/**
 * The names and argument schemas of the commands that cards put on their buttons. A card points a
 * button at a command through its signature here, and the command is declared with the same
 * signature, so a card and the commands that show it never import each other.
 */
import { z } from 'zod';
import { existingJob, resourceId, toolName } from '../args';

/** The arguments of a command about a whole tool. */
export const toolArgs = z.object({ tool: toolName });

/** The arguments of a command about one job of a tool. */
export const jobArgs = z.object({ tool: toolName, job: existingJob });

/** The arguments of a command about one build of a tool (`latest` by default). */
export const buildIdArgs = z.object({ tool: toolName, id: resourceId('build') });

/** The arguments of a command about one deployment of a tool (`latest` by default). */
export const deploymentIdArgs = z.object({ tool: toolName, id: resourceId('deployment') });

/** `/deploy <tool>`. */
export const deploySignature = {
  name: 'deploy',
  args: z.object({
    tool: toolName,
    forceBuild: z.boolean().default(false).describe('opt-force-build'),
    forceRun: z.boolean().default(false).describe('opt-force-run'),
    description: z.string().max(500).optional().describe('opt-description'),
  }),
};

/** `/deployment show <tool> [id|latest]`. */
export const deploymentShowSignature = { name: 'deployment show', args: deploymentIdArgs };

/** `/deployment cancel <tool> [id|latest]`. */
export const deploymentCancelSignature = { name: 'deployment cancel', args: deploymentIdArgs };

/** `/build cancel <tool> [id|latest]`. */
export const buildCancelSignature = { name: 'build cancel', args: buildIdArgs };

/** `/build logs <tool> [id|latest] [--follow]`. */
export const buildLogsSignature = {
  name: 'build logs',
  args: z.object({
    tool: toolName,
    id: resourceId('build'),
    follow: z.boolean().default(false).describe('opt-follow'),
  }),
};

/** `/jobs show <tool> <job>`. */
export const jobsShowSignature = { name: 'jobs show', args: jobArgs };

/** `/jobs restart <tool> <job>`. */
export const jobsRestartSignature = { name: 'jobs restart', args: jobArgs };

/** `/jobs delete <tool> <job>`. */
export const jobsDeleteSignature = { name: 'jobs delete', args: jobArgs };

/** `/webservice status <tool>`. */
export const webserviceStatusSignature = { name: 'webservice status', args: toolArgs };

/** `/webservice restart <tool>`. */
export const webserviceRestartSignature = { name: 'webservice restart', args: toolArgs };

/** `/webservice stop <tool>`. */
export const webserviceStopSignature = { name: 'webservice stop', args: toolArgs };

/** `/webservice logs <tool> [--lines n]`. */
export const webserviceLogsSignature = {
  name: 'webservice logs',
  args: z.object({
    tool: toolName,
    lines: z.number().int().min(1).max(1000).default(50).describe('opt-lines-webservice-logs'),
  }),
};
