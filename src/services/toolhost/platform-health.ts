/**
 * Health of the whole platform: the unauthenticated health endpoint of each of its five APIs
 * (builds `GET /builds/v1/healthz`, components `/components/v1/healthz`, jobs `/jobs/v1/healthz`,
 * envvars `/envvars/v1/healthz`, logs `/logs/v1/healthz`; specs/toolforge/README.md and the
 * OpenAPI files in specs/toolforge/). Each API words its answer differently; the schemas normalise.
 */
import type { z } from 'zod';
import { DeckhandError, UnreachableError, UpstreamError } from '../../core/errors';
import type { Translator } from '../../i18n/translate';
import type { HttpClient } from '../http';
import { BuildsHealthSchema } from './builds-schemas';
import type { ServiceHealth } from './common-schemas';
import { ComponentsHealthSchema } from './components-schemas';
import { EnvvarsHealthSchema } from './envvars-schemas';
import { JobsHealthSchema } from './jobs-schemas';
import { LogsHealthSchema } from './logs-schemas';
import type { ToolhostApi } from './session';

/** One API's health: its own answer, or `UNREACHABLE` when it did not answer at all. */
export interface ApiHealth {
  api: ToolhostApi;
  status: 'OK' | 'ERROR' | 'UNREACHABLE';
  message?: string;
}

const ENDPOINTS: Record<ToolhostApi, { path: string; schema: z.ZodType<ServiceHealth> }> = {
  builds: { path: '/builds/v1/healthz', schema: BuildsHealthSchema },
  components: { path: '/components/v1/healthz', schema: ComponentsHealthSchema },
  jobs: { path: '/jobs/v1/healthz', schema: JobsHealthSchema },
  envvars: { path: '/envvars/v1/healthz', schema: EnvvarsHealthSchema },
  logs: { path: '/logs/v1/healthz', schema: LogsHealthSchema },
};

/** The APIs in the order reports list them. */
export const PLATFORM_APIS: readonly ToolhostApi[] = ['builds', 'components', 'jobs', 'envvars', 'logs'];

/** Reads one API's health endpoint; never throws. */
export async function apiHealth(http: HttpClient, api: ToolhostApi): Promise<ApiHealth> {
  const { path, schema } = ENDPOINTS[api];
  try {
    const health = await http.json('GET', path, schema, { route: path });
    return { api, ...health };
  } catch (error) {
    // An unhealthy API answers 500/503 with its health body; a gateway with no backend 502/503.
    if (error instanceof UpstreamError && error.status >= 500) {
      return { api, status: 'ERROR', message: error.message };
    }
    if (error instanceof UnreachableError) return { api, status: 'UNREACHABLE', message: error.message };
    const message = error instanceof DeckhandError ? error.message : 'the answer could not be read';
    return { api, status: 'ERROR', message };
  }
}

/** Reads every API's health at once. */
export function platformHealth(http: HttpClient): Promise<ApiHealth[]> {
  return Promise.all(PLATFORM_APIS.map((api) => apiHealth(http, api)));
}

/** The APIs that are not OK, in words (`jobs API: ERROR (etcd down)`); empty when all are fine. */
export function healthProblems(report: readonly ApiHealth[]): string[] {
  return report
    .filter((h) => h.status !== 'OK')
    .map(
      (h) =>
        `${h.api} API: ${h.status === 'UNREACHABLE' ? 'unreachable' : 'unhealthy'}${h.message ? ` (${h.message})` : ''}`,
    );
}

/**
 * The sentence a failed command adds when the API it called reports itself unhealthy, so the user
 * knows the platform is down rather than their tool broken; undefined when the API is healthy.
 */
export function outageNote(health: ApiHealth, say: Translator): string | undefined {
  if (health.status === 'OK') return undefined;
  const { api, message } = health;
  if (health.status === 'UNREACHABLE') {
    return message
      ? say.t('toolhost-api-outage-unreachable-why', api, message)
      : say.t('toolhost-api-outage-unreachable', api);
  }
  return message
    ? say.t('toolhost-api-outage-unhealthy-why', api, message)
    : say.t('toolhost-api-outage-unhealthy', api);
}
