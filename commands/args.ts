import { z } from 'zod';

/** A tool name as the platform allows it (the Kubernetes namespace without its `tool-` prefix). */
export const toolName = z
  .string()
  .regex(
    /^[a-z0-9]([a-z0-9-]{0,50}[a-z0-9])?$/,
    'must be a tool name (lower-case letters, digits and dashes)',
  )
  .meta({ completes: 'tools', invalid: 'validation-tool-name' })
  .describe('opt-tool');

/** A build or deployment id, or `latest` (autocompletes from the tool's builds or deployments). */
export const resourceId = (what: 'build' | 'deployment') =>
  z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$/, `must be a ${what} id or latest`)
    .meta({ completes: `${what}s` })
    .default('latest')
    .describe(what === 'build' ? 'opt-id-build' : 'opt-id-deployment');

/** An http(s) URL. */
export const httpUrl = (example: string) =>
  z.url({ protocol: /^https?$/, message: `must be an http(s) URL such as ${example}` });

/** A job name as the platform allows it: RFC 1123, at most 52 characters. */
export const jobName = z
  .string()
  .max(52, 'must be at most 52 characters')
  .regex(
    /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/,
    'must be lower-case letters, digits, dashes and dots, starting and ending with a letter or digit',
  )
  .describe('opt-job');

/** The name of a job the tool has (autocompletes from its jobs). */
export const existingJob = jobName.meta({ completes: 'jobs' });
