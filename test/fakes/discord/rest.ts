/**
 * The REST routes of the fake Discord: gateway discovery, interaction callbacks, webhook edits and
 * follow-ups (interaction token), channel messages (bot token) and command registration. Requests
 * reach these routes only after they passed the spec check and the authorization check.
 */
import { applicationJson, type FakeApplication } from './application';
import type { GatewayIdentity } from './gateway';
import { type FakeInteraction, FakeStore, snowflake } from './store';
import type { RecordedRequest, RouteAnswer, UploadedFile } from './wire';

/** The state the routes work on. */
export interface FakeRestState {
  store: FakeStore;
  identity: GatewayIdentity;
  violations: string[];
  registered: Map<string, Record<string, unknown>[]>;
  gatewayUrl: string;
  /** The bot token (routes the spec also opens to OAuth2, like `/users/@me`, check it themselves). */
  token: string;
  /** The application's settings a bot can read (Developer Portal → General Information). */
  application: FakeApplication;
}

/**
 * How long the fake remembers a nonce. Discord documents "the past few minutes" without a figure; the
 * fake uses 3 minutes, and Deckhand relies on it only for retries that come within seconds.
 */
export const NONCE_WINDOW_MS = 3 * 60_000;

type Handler = (match: RegExpExecArray, request: RecordedRequest) => RouteAnswer | undefined;

const unknownInteraction = { status: 404, body: { code: 10062, message: 'Unknown interaction' } };
const unknownWebhook = { status: 404, body: { code: 10015, message: 'Unknown Webhook' } };
const unknownMessage = { status: 404, body: { code: 10008, message: 'Unknown Message' } };
const notFound = { status: 404, body: { message: '404: Not Found', code: 0 } };

/** Routes requests to handlers; a route the fake lacks is a violation (the bot used something new). */
export class FakeRest {
  private readonly routes: { pattern: RegExp; handler: Handler }[] = [
    { pattern: /^\/gateway(\/bot)?$/, handler: (_m, r) => (r.method === 'GET' ? this.gateway() : undefined) },
    { pattern: /^\/users\/@me$/, handler: (_m, r) => (r.method === 'GET' ? this.currentUser(r) : undefined) },
    {
      pattern: /^\/users\/@me\/channels$/,
      handler: (_m, r) => (r.method === 'POST' ? this.openDm(r) : undefined),
    },
    {
      pattern: /^\/applications\/@me$/,
      handler: (_m, r) =>
        r.method === 'GET' ? applicationJson(this.state.identity, this.state.application) : undefined,
    },
    {
      pattern: /^\/interactions\/(\d+)\/([^/]+)\/callback$/,
      handler: (m, r) => this.interactionCallback(m, r),
    },
    {
      pattern: /^\/webhooks\/(\d+)\/([^/]+)\/messages\/(@original|\d+)$/,
      handler: (m, r) => this.webhookMessage(m, r),
    },
    { pattern: /^\/webhooks\/(\d+)\/([^/]+)$/, handler: (m, r) => this.followUp(m, r) },
    { pattern: /^\/channels\/(\d+)\/messages$/, handler: (m, r) => this.createMessage(m, r) },
    { pattern: /^\/channels\/(\d+)\/messages\/(\d+)$/, handler: (m, r) => this.channelMessage(m, r) },
    {
      pattern: /^\/applications\/(\d+)(?:\/guilds\/(\d+))?\/commands$/,
      handler: (m, r) => this.commands(m, r),
    },
  ];

  /** The DM channel of each recipient the bot opened one with. */
  readonly dmChannels = new Map<string, string>();

  constructor(private readonly state: FakeRestState) {}

  /**
   * `POST /users/@me/channels` with `recipient_id`: the DM channel with that user, the same one on
   * every call (discord-api-docs resources/User.md "Create DM": "returns a DM channel object; if one
   * already exists, it will be returned instead").
   */
  private openDm(request: RecordedRequest): RouteAnswer {
    const recipient = String((request.body as { recipient_id?: unknown } | undefined)?.recipient_id ?? '');
    if (!/^\d+$/.test(recipient)) {
      return { status: 400, body: { code: 50035, message: 'Invalid Form Body' } };
    }
    let id = this.dmChannels.get(recipient);
    if (!id) {
      id = snowflake();
      this.dmChannels.set(recipient, id);
    }
    return {
      status: 200,
      body: {
        id,
        type: 1,
        last_message_id: null,
        flags: 0,
        recipients: [
          {
            id: recipient,
            username: `user${recipient}`,
            discriminator: '0',
            global_name: null,
            avatar: null,
          },
        ],
      },
    };
  }

  /** Answers one request. */
  route(request: RecordedRequest): RouteAnswer {
    for (const { pattern, handler } of this.routes) {
      const match = pattern.exec(request.path);
      if (!match) continue;
      const answer = handler(match, request);
      if (answer) return answer;
    }
    this.state.violations.push(`${request.method} ${request.path}: the fake does not implement this route`);
    return notFound;
  }

  /** Applies a first answer (from the REST callback or an HTTP-mode response body). */
  applyCallback(
    interaction: FakeInteraction,
    body: Record<string, unknown>,
    files: UploadedFile[] = [],
  ): void {
    const { store } = this.state;
    if (!interaction.callbacks.some((c) => c.body === body))
      interaction.callbacks.push({ body, at: Date.now() });
    interaction.markAnswered();
    const data = (body.data ?? {}) as Record<string, unknown>;
    if (body.type === 4 || body.type === 5) {
      const message = store.write(
        undefined,
        { channelId: interaction.channelId, via: 'interaction' },
        data,
        files,
      );
      interaction.original = message.id;
    } else if ((body.type === 6 || body.type === 7) && interaction.componentMessage) {
      interaction.original = interaction.componentMessage;
      const message = store.messages.get(interaction.componentMessage);
      if (message && body.type === 7)
        store.write(message, { channelId: message.channel_id, via: message.via }, data, files);
    }
  }

  private json(message: Parameters<typeof FakeStore.toJson>[0]): RouteAnswer {
    return { status: 200, body: FakeStore.toJson(message, this.state.identity.botId) };
  }

  /**
   * `GET /users/@me`: the bot's own user, the same one READY carries (discord-api-docs
   * resources/User.md "Get Current User"; `deckhand doctor` checks the token with it).
   */
  private currentUser(request: RecordedRequest): RouteAnswer {
    if (request.headers.authorization !== `Bot ${this.state.token}`) {
      return { status: 401, body: { message: '401: Unauthorized', code: 0 } };
    }
    return {
      status: 200,
      body: {
        id: this.state.identity.botId,
        username: 'Deckhand',
        discriminator: '0',
        global_name: null,
        avatar: null,
        bot: true,
        flags: 0,
      },
    };
  }

  private gateway(): RouteAnswer {
    return {
      status: 200,
      body: {
        url: this.state.gatewayUrl,
        shards: 1,
        session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 },
      },
    };
  }

  private interactionCallback(m: RegExpExecArray, request: RecordedRequest): RouteAnswer | undefined {
    if (request.method !== 'POST') return undefined;
    const interaction = this.state.store.interactions.get(m[1] as string);
    if (!interaction || interaction.token !== m[2]) return unknownInteraction;
    if (interaction.callbacks.length > 0) {
      this.state.violations.push(`interaction ${interaction.id} was answered twice`);
      return { status: 400, body: { code: 40060, message: 'Interaction has already been acknowledged.' } };
    }
    const body = (request.body ?? {}) as Record<string, unknown>;
    this.applyCallback(interaction, body, request.files);
    if (request.query.with_response !== 'true') return { status: 204 };
    return {
      status: 200,
      body: { interaction: { id: interaction.id, type: 2, response_message_loading: body.type === 5 } },
    };
  }

  private interactionOf(m: RegExpExecArray): FakeInteraction | undefined {
    const interaction = this.state.store.byToken.get(m[2] as string);
    return interaction && interaction.applicationId === m[1] ? interaction : undefined;
  }

  private webhookMessage(m: RegExpExecArray, request: RecordedRequest): RouteAnswer | undefined {
    const interaction = this.interactionOf(m);
    if (!interaction) return unknownWebhook;
    const id = m[3] === '@original' ? interaction.original : m[3];
    const message = id ? this.state.store.messages.get(id) : undefined;
    if (!message || message.deleted) return unknownMessage;
    return this.messageVerb(message, request, 'interaction');
  }

  private followUp(m: RegExpExecArray, request: RecordedRequest): RouteAnswer | undefined {
    if (request.method !== 'POST') return undefined;
    const interaction = this.interactionOf(m);
    if (!interaction) return unknownWebhook;
    const first = interaction.callbacks[0]?.body.type;
    if (first === undefined || first === 8 || first === 9) {
      this.state.violations.push(
        `POST ${request.path}: follow-up to an interaction answered with ${first ?? 'nothing'}`,
      );
      return unknownWebhook;
    }
    const body = (request.body ?? {}) as Record<string, unknown>;
    const message = this.state.store.write(
      undefined,
      { channelId: interaction.channelId, via: 'interaction' },
      body,
      request.files,
    );
    interaction.followups.push(message.id);
    return request.query.wait === 'true' ? this.json(message) : { status: 204 };
  }

  /**
   * POST /channels/{id}/messages. With `enforce_nonce: true` and a `nonce`, Discord "checks it for
   * uniqueness in the past few minutes. If another message was created by the same author with the
   * same nonce, that message will be returned and no new message will be created"
   * (discord/discord-api-docs developers/resources/message.mdx, Create Message, commit a1a297f4). The
   * fake keeps nonces for {@link NONCE_WINDOW_MS}; every message here is by the bot (one author).
   */
  private createMessage(m: RegExpExecArray, request: RecordedRequest): RouteAnswer | undefined {
    if (request.method !== 'POST') return undefined;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const nonce = body.nonce === undefined || body.nonce === null ? undefined : String(body.nonce);
    const author = this.state.identity.botId;
    if (nonce !== undefined && body.enforce_nonce === true) {
      const earlier = this.state.store.byNonce(author, nonce, NONCE_WINDOW_MS);
      if (earlier) return this.json(earlier);
    }
    const message = this.state.store.write(
      undefined,
      { channelId: m[1] as string, via: 'bot' },
      body,
      request.files,
    );
    if (nonce !== undefined) this.state.store.rememberNonce(author, nonce, message);
    return this.json(message);
  }

  private channelMessage(m: RegExpExecArray, request: RecordedRequest): RouteAnswer | undefined {
    const message = this.state.store.messages.get(m[2] as string);
    if (!message || message.deleted || message.channel_id !== m[1] || message.via !== 'bot')
      return unknownMessage;
    return this.messageVerb(message, request, 'bot');
  }

  private messageVerb(
    message: Parameters<typeof FakeStore.toJson>[0],
    request: RecordedRequest,
    via: 'bot' | 'interaction',
  ): RouteAnswer | undefined {
    if (request.method === 'GET') return this.json(message);
    if (request.method === 'DELETE') {
      message.deleted = true;
      return { status: 204 };
    }
    if (request.method !== 'PATCH') return undefined;
    const body = (request.body ?? {}) as Record<string, unknown>;
    return this.json(
      this.state.store.write(message, { channelId: message.channel_id, via }, body, request.files),
    );
  }

  private commands(m: RegExpExecArray, request: RecordedRequest): RouteAnswer | undefined {
    const [, application, guild] = m;
    if (application !== this.state.identity.applicationId) {
      return { status: 404, body: { code: 10002, message: 'Unknown Application' } };
    }
    const scope = guild ?? 'global';
    if (request.method === 'GET') return { status: 200, body: this.state.registered.get(scope) ?? [] };
    if (request.method !== 'PUT') return undefined;
    const commands = (Array.isArray(request.body) ? request.body : []).map((command) => ({
      ...(command as Record<string, unknown>),
      id: snowflake(),
      application_id: application,
      version: snowflake(),
      ...(guild ? { guild_id: guild } : {}),
    }));
    this.state.registered.set(scope, commands);
    return { status: 200, body: commands };
  }
}
