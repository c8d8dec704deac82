/** The per-tool facade over the five APIs of the tool hosting platform. */
import { BuildsApi } from './builds';
import { ComponentsApi } from './components';
import { EnvvarsApi } from './envvars';
import { JobsApi } from './jobs';
import { LogsApi } from './logs';
import type { ToolhostSession } from './session';
import type { WarningInbox } from './warnings';

/** How a client authenticates: `certificate` can do everything, `token` only deployments. */
export type ToolhostAuthMode = 'certificate' | 'token';

/**
 * Everything Deckhand can do on the platform for one tool: `client.builds.list()`,
 * `client.components.createDeployment({ forceBuild })`, `client.jobs.restart('bot')`…
 * Get one from {@link ToolhostClientFactory.forTool}; it is cheap, so take one per command.
 *
 * Warnings the platform sends (deprecations, the components beta notice, quota nearly used) are
 * collected on the client; {@link takeWarnings} hands out those not shown before in this process.
 */
export class ToolhostClient {
  /** Builds of container images. */
  readonly builds: BuildsApi;
  /** Component configuration, deploy token and deployments. */
  readonly components: ComponentsApi;
  /** One-off, scheduled and continuous jobs. */
  readonly jobs: JobsApi;
  /** Job logs (paged, streamed) and job events. */
  readonly logs: LogsApi;
  /** Environment variables. */
  readonly envvars: EnvvarsApi;

  constructor(
    private readonly session: ToolhostSession,
    private readonly inbox: WarningInbox,
  ) {
    this.builds = new BuildsApi(session);
    this.components = new ComponentsApi(session);
    this.jobs = new JobsApi(session);
    this.logs = new LogsApi(session);
    this.envvars = new EnvvarsApi(session);
  }

  /** The tool this client acts for. */
  get tool(): string {
    return this.session.tool;
  }

  /** `certificate` (internal server, every operation) or `token` (external server, deployments only). */
  get authMode(): ToolhostAuthMode {
    return this.session.auth.mode;
  }

  /** False for a token-only client: only `components.createDeployment`/`showDeployment` work. */
  get hasCertificate(): boolean {
    return this.session.auth.mode === 'certificate';
  }

  /**
   * The warnings received by this client's calls that were not shown before in this process
   * (each text once), marking them shown. Call after the calls of a command, for the card footer.
   */
  takeWarnings(): string[] {
    return this.inbox.take();
  }
}
