/** The envvars API: environment variables of a tool (`/envvars/v1/tool/{tool}/…`). */
import type { ServiceHealth } from './common-schemas';
import {
  type Envvar,
  EnvvarListResponseSchema,
  EnvvarResponseSchema,
  EnvvarsHealthSchema,
  type EnvvarsQuota,
  EnvvarsQuotaResponseSchema,
} from './envvars-schemas';
import { notFound } from './errors';
import type { ToolCall, ToolhostSession } from './session';

/** Environment variables of one tool. Every operation needs the tool's client certificate. */
export class EnvvarsApi {
  constructor(private readonly session: ToolhostSession) {}

  /** All of the tool's envvars, with their values. */
  async list(): Promise<Envvar[]> {
    const res = await this.call({
      method: 'GET',
      path: ['envvars'],
      route: 'envvars',
      schema: EnvvarListResponseSchema,
      action: 'toolhost-api-action-list-environment-variables',
    });
    return res.envvars;
  }

  /** Creates or overwrites an envvar; returns it as stored. */
  async set(name: string, value: string): Promise<Envvar> {
    const res = await this.call({
      method: 'POST',
      path: ['envvars'],
      route: 'envvars',
      schema: EnvvarResponseSchema,
      action: 'toolhost-api-action-set-environment-variable',
      body: { name, value },
    });
    return res.envvar;
  }

  /** One envvar by name. */
  async show(name: string): Promise<Envvar> {
    const res = await this.call({
      method: 'GET',
      path: ['envvars', name],
      route: 'envvars/{name}',
      schema: EnvvarResponseSchema,
      action: 'toolhost-api-action-show-environment-variable',
      onError: notFound((say) => ({
        message: say.t('toolhost-api-envvar-not-found', name, this.session.tool),
      })),
    });
    return res.envvar;
  }

  /** Deletes an envvar; returns it with its last value. */
  async delete(name: string): Promise<Envvar> {
    const res = await this.call({
      method: 'DELETE',
      path: ['envvars', name],
      route: 'envvars/{name}',
      schema: EnvvarResponseSchema,
      action: 'toolhost-api-action-delete-environment-variable',
      onError: notFound((say) => ({
        message: say.t('toolhost-api-envvar-not-found', name, this.session.tool),
      })),
    });
    return res.envvar;
  }

  /** How many envvars the tool may have and has. */
  async quotas(): Promise<EnvvarsQuota> {
    const res = await this.call({
      method: 'GET',
      path: ['quotas'],
      route: 'quotas',
      schema: EnvvarsQuotaResponseSchema,
      action: 'toolhost-api-action-show-environment-variable-quota',
    });
    return res.quota;
  }

  /** Health of the envvars API (no authentication). */
  healthz(): Promise<ServiceHealth> {
    return this.session.health('/envvars/v1/healthz', EnvvarsHealthSchema);
  }

  /** Prometheus metrics of the envvars API (no authentication). */
  metrics(): Promise<string> {
    return this.session.metrics('/envvars/v1/metrics');
  }

  private call<T>(call: Omit<ToolCall<T>, 'api'>): Promise<T> {
    return this.session.call({ api: 'envvars', ...call });
  }
}
