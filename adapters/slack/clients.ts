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
 * What a client is for, and how it treats a slow or limiting Slack:
 * - `reply`: the SDK's defaults (its queue, waits `Retry-After`, retries);
 * - `announce`: refuses a rate-limited call at once (the SDK's `rejectRateLimitedCalls`) instead of
 *   pausing its whole queue for the `Retry-After` — announcements' delivery jobs wait per
 *   conversation, so one channel's limit holds neither the other channels nor the replies;
 * - `lookup`: a read a command can go on without (a person's locale): refuses a rate limit, never
 *   retries and gives up after {@link LOOKUP_TIMEOUT_MS}, so it never holds a command up for long.
 */
export type ClientPurpose = 'reply' | 'announce' | 'lookup';

/** How long a `lookup` call may take before the command goes on without its answer. */
export const LOOKUP_TIMEOUT_MS = 2000;

const PURPOSE_OPTIONS: Readonly<Record<ClientPurpose, Partial<webApi.WebClientOptions>>> = {
  reply: {},
  announce: { rejectRateLimitedCalls: true },
  lookup: { rejectRateLimitedCalls: true, retryConfig: { retries: 0 }, timeout: LOOKUP_TIMEOUT_MS },
};

/**
 * Web API clients by workspace and purpose. Every client is the SDK's own WebClient, so its queue,
 * 429 handling and retry policy apply to every call Deckhand makes.
 */
export class SlackClients {
  private readonly clients = new Map<string, webApi.WebClient>();

  constructor(private readonly options: SlackClientsOptions) {}

  /** The client of a workspace for `purpose` (default `reply`); throws when Deckhand has no token for it. */
  async forTeam(teamId: string, options: { purpose?: ClientPurpose } = {}): Promise<TeamClient> {
    const token = await this.tokenFor(teamId);
    return { client: this.clientFor(token, options.purpose), token };
  }

  /** A client for a token and purpose (one each, reused). */
  clientFor(token: string, purpose: ClientPurpose = 'reply'): webApi.WebClient {
    const key = `${purpose}:${token}`;
    let client = this.clients.get(key);
    if (!client) {
      client = new webApi.WebClient(token, { ...this.options.clientOptions, ...PURPOSE_OPTIONS[purpose] });
      this.clients.set(key, client);
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
