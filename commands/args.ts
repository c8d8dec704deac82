import { z } from 'zod';
import { t } from '../src/i18n/translate';

/** A tool name as the platform allows it (the Kubernetes namespace without its `tool-` prefix). */
export const toolName = z
  .string()
  .regex(/^[a-z0-9]([a-z0-9-]{0,50}[a-z0-9])?$/, t('en', 'validation-tool-name'))
  .meta({ completes: 'tools', invalid: 'validation-tool-name' })
  .describe('opt-tool');

/** A build or deployment id, or `latest` (autocompletes from the tool's builds or deployments). */
export const resourceId = (what: 'build' | 'deployment') => {
  const invalid = what === 'build' ? 'args-build-id' : 'args-deployment-id';
  return z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$/, t('en', invalid))
    .meta({ completes: `${what}s`, invalid })
    .default('latest')
    .describe(what === 'build' ? 'opt-id-build' : 'opt-id-deployment');
};

/** An http(s) URL. */
export const httpUrl = (example: string) =>
  z.url({ protocol: /^https?$/, message: t('en', 'args-http-url', example) });

/** A job name as the platform allows it: RFC 1123, at most 52 characters. */
export const jobName = z
  .string()
  .max(52, t('en', 'args-job-name-length'))
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/, t('en', 'args-job-name'))
  .describe('opt-job');

/** The name of a job the tool has (autocompletes from its jobs). */
export const existingJob = jobName.meta({ completes: 'jobs' });
