import { type InstallationStore, webApi } from '@slack/bolt';

/** A Web API client for one workspace, with the token it uses (for file downloads). */
export interface TeamClient {
  client: webApi.WebClient;
  token: string;
}

/** Options of {@link SlackClients}. */
export interface SlackClientsOptions {
  /** Single workspace: this token for every team. */
  botToken?: string;
  /** Multi-workspace: bot tokens from the installations. */
  installations?: InstallationStore | undefined;
  /** Options of every WebClient (API URL, logger, retry policy). */
  clientOptions: webApi.WebClientOptions;
}

/**
 * Web API clients by workspace. Every client is the SDK's own WebClient, so its queue, 429 handling
 * (waits `Retry-After`, then retries) and retry policy apply to every call Deckhand makes.
 */
export class SlackClients {
  private readonly byToken = new Map<string, webApi.WebClient>();
  private readonly rejecting = new Map<string, webApi.WebClient>();

  constructor(private readonly options: SlackClientsOptions) {}

  /**
   * The client for a workspace; throws when Deckhand has no token for it. With `rejectRateLimited`,
   * a client of its own that refuses a rate-limited call at once (the SDK's `rejectRateLimitedCalls`)
   * instead of pausing its whole queue for the `Retry-After`: for announcements, whose delivery jobs
   * wait per conversation, so one channel's limit neither holds the other channels nor the replies.
   */
  async forTeam(teamId: string, options: { rejectRateLimited?: boolean } = {}): Promise<TeamClient> {
    const token = await this.tokenFor(teamId);
    const client = options.rejectRateLimited ? this.rejectingClientFor(token) : this.clientFor(token);
    return { client, token };
  }

  /** A client for a token (one per token, reused). */
  clientFor(token: string): webApi.WebClient {
    let client = this.byToken.get(token);
    if (!client) {
      client = new webApi.WebClient(token, { ...this.options.clientOptions });
      this.byToken.set(token, client);
    }
    return client;
  }

  private rejectingClientFor(token: string): webApi.WebClient {
    let client = this.rejecting.get(token);
    if (!client) {
      client = new webApi.WebClient(token, { ...this.options.clientOptions, rejectRateLimitedCalls: true });
      this.rejecting.set(token, client);
    }
    return client;
  }

  /** A client without a token (OAuth code exchange). */
  anonymous(): webApi.WebClient {
    return new webApi.WebClient(undefined, { ...this.options.clientOptions });
  }

  private async tokenFor(teamId: string): Promise<string> {
    if (this.options.botToken) return this.options.botToken;
    const installations = this.options.installations;
    if (!installations) throw new Error('no Slack token is configured');
    const installation = await installations.fetchInstallation({
      teamId,
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    const token = installation.bot?.token;
    if (!token) throw new Error(`the Slack installation of ${teamId} has no bot token`);
    return token;
  }
}
