/** The builds API: container image builds of a tool (`/builds/v1/tool/{tool}/…`). */
import { NotFoundError, type Words } from '../../core/errors';
import {
  type Build,
  BuildIdResponseSchema,
  BuildListResponseSchema,
  type BuildLog,
  BuildLogSchema,
  BuildQuotaResponseSchema,
  BuildResponseSchema,
  BuildsHealthSchema,
  CleanResponseSchema,
  type NewBuild,
  type StartBuildInput,
  StartResponseSchema,
} from './builds-schemas';
import type { Quota, ServiceHealth } from './common-schemas';
import { type ErrorMapper, notFound } from './errors';
import { definedOnly, type ToolhostSession } from './session';

/** Options of {@link BuildsApi.logs}. */
export interface BuildLogsOptions {
  /** Keep streaming until the build ends (the service waits up to 10 min for it to start). */
  follow?: boolean;
  /** Stops the stream. */
  signal?: AbortSignal;
}

/** Builds of one tool. Every operation needs the tool's client certificate. */
export class BuildsApi {
  constructor(private readonly session: ToolhostSession) {}

  /** All builds the platform keeps for the tool (4 successful and 2 failed, upstream). */
  async list(): Promise<Build[]> {
    const res = await this.session.call({
      api: 'builds',
      method: 'GET',
      path: ['builds'],
      route: 'builds',
      schema: BuildListResponseSchema,
      action: 'toolhost-api-action-list-builds',
    });
    return res.builds;
  }

  /** Starts a build; a warning is recorded when the tool's quota is nearly used. */
  async start(input: StartBuildInput): Promise<NewBuild> {
    const res = await this.session.call({
      api: 'builds',
      method: 'POST',
      path: ['builds'],
      route: 'builds',
      schema: StartResponseSchema,
      action: 'toolhost-api-action-start-build',
      body: definedOnly(input),
    });
    return res.new_build;
  }

  /** The tool's most recent build. */
  async latest(): Promise<Build> {
    const res = await this.session.call({
      api: 'builds',
      method: 'GET',
      path: ['builds', 'latest'],
      route: 'builds/latest',
      schema: BuildResponseSchema,
      action: 'toolhost-api-action-show-latest-build',
      onError: notFound((say) => ({ message: say.t('toolhost-api-no-builds', this.session.tool) })),
    });
    return res.build;
  }

  /** One build by id. */
  async show(id: string): Promise<Build> {
    const res = await this.session.call({
      api: 'builds',
      method: 'GET',
      path: ['builds', id],
      route: 'builds/{id}',
      schema: BuildResponseSchema,
      action: 'toolhost-api-action-show-build',
      onError: this.buildNotFound(id),
    });
    return res.build;
  }

  /** Deletes a build; returns its id. */
  async delete(id: string): Promise<string> {
    const res = await this.session.call({
      api: 'builds',
      method: 'DELETE',
      path: ['builds', id],
      route: 'builds/{id}',
      schema: BuildIdResponseSchema,
      action: 'toolhost-api-action-delete-build',
      onError: this.buildNotFound(id),
    });
    return res.id ?? id;
  }

  /** Cancels a pending or running build (409 when it already finished); returns its id. */
  async cancel(id: string): Promise<string> {
    const res = await this.session.call({
      api: 'builds',
      method: 'PUT',
      path: ['builds', id, 'cancel'],
      route: 'builds/{id}/cancel',
      schema: BuildIdResponseSchema,
      action: 'toolhost-api-action-cancel-build',
      onError: this.buildNotFound(id),
    });
    return res.id ?? id;
  }

  /**
   * The build's log, line by line as it arrives (`{"line": "[container] text"}`). An error the
   * service reports mid-stream is thrown after the lines before it.
   */
  logs(id: string, options: BuildLogsOptions = {}): AsyncGenerator<BuildLog, void, undefined> {
    return this.session.stream({
      api: 'builds',
      path: ['builds', id, 'logs'],
      route: 'builds/{id}/logs',
      schema: BuildLogSchema,
      action: 'toolhost-api-action-read-build-logs',
      query: options.follow === undefined ? undefined : { follow: options.follow },
      signal: options.signal,
      live: options.follow === true,
      onError: this.buildNotFound(id),
    });
  }

  /** Cleans up the tool's images and old builds; returns the service's summary lines. */
  async clean(): Promise<string[]> {
    const res = await this.session.call({
      api: 'builds',
      method: 'POST',
      path: ['clean'],
      route: 'clean',
      schema: CleanResponseSchema,
      action: 'toolhost-api-action-clean-up-builds',
    });
    return res.messages?.info ?? [];
  }

  /** The tool's build quota (image registry storage). */
  async quotas(): Promise<Quota> {
    const res = await this.session.call({
      api: 'builds',
      method: 'GET',
      path: ['quotas'],
      route: 'quotas',
      schema: BuildQuotaResponseSchema,
      action: 'toolhost-api-action-show-build-quota',
    });
    return res.quota;
  }

  /** Health of the builds API (no authentication). */
  healthz(): Promise<ServiceHealth> {
    return this.session.health('/builds/v1/healthz', BuildsHealthSchema);
  }

  /** Prometheus metrics of the builds API (no authentication). */
  metrics(): Promise<string> {
    return this.session.metrics('/builds/v1/metrics');
  }

  /** 404, or the 401 "does not exist or belong to tool" of ids of other tools → not found. */
  private buildNotFound(id: string): ErrorMapper {
    const tool = this.session.tool;
    const words: Words = (say) => ({ message: say.t('toolhost-api-build-not-found', id, tool) });
    const on404 = notFound(words);
    return (error) =>
      on404(error) ??
      (error.status === 401 && /does not exist|belong/i.test(error.message)
        ? new NotFoundError(words, undefined, { cause: error })
        : undefined);
  }
}
