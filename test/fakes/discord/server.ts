/**
 * A fake Discord: REST API (`/api/v10/...`) and gateway on one local port, plus a tiny CDN for
 * attachments. It records every request, validates each one against Discord's OpenAPI description
 * (see spec.ts; a violation is recorded AND answered 400 like Discord's "Invalid Form Body"), checks
 * bot authorization, sends rate-limit headers, and can answer the next matching request with a 429.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HeldAnswer } from '../hold';
import type { FakeApplication } from './application';
import { FakeGateway, type GatewayIdentity } from './gateway';
import { FakeRest } from './rest';
import { API_ROOT, discordSpec, matchDiscordOperation, validateDiscordRequest } from './spec';
import { botUser, type FakeInteraction, type FakeMessage, FakeStore, snowflake } from './store';
import { type RecordedRequest, rateLimitHeaders, readBody, send, type UploadedFile } from './wire';

export type { RecordedRequest } from './wire';

/** A scripted failure for the next request(s) matching `method` and `path`. */
interface Injection {
  method: string;
  path: RegExp;
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  remaining: number;
}

/** The fields of an interaction payload the fake keeps track of. */
export interface InteractionEnvelope {
  id: string;
  token: string;
  application_id: string;
  channel_id?: string;
  message?: { id?: string | undefined };
}

/** Options of {@link startFakeDiscord}. */
export interface FakeDiscordOptions {
  token?: string;
  applicationId?: string;
  guildId?: string;
  channelId?: string;
  /** Gateway heartbeat interval in ms (default 5000). */
  heartbeatInterval?: number;
  /** The application's public key, hex (default: a fixed 32-byte value). */
  verifyKey?: string;
}

/** A running fake Discord. */
export class FakeDiscord {
  readonly store = new FakeStore();
  readonly requests: RecordedRequest[] = [];
  /** Every spec or protocol violation seen; tests assert this stays empty. */
  readonly violations: string[] = [];
  readonly gateway: FakeGateway;
  readonly identity: GatewayIdentity;
  readonly token: string;
  /** Commands registered with bulk overwrite, by scope (`global` or the guild id). */
  readonly registered = new Map<string, Record<string, unknown>[]>();
  /**
   * The application's settings as the Developer Portal holds them; a test sets
   * `interactionsEndpointUrl` as an operator would there (Discord itself first PINGs the URL).
   */
  readonly application: FakeApplication;
  private readonly files = new Map<string, Buffer>();
  private readonly rest: FakeRest;
  private readonly injections: Injection[] = [];
  private readonly holds: { method: string; path: RegExp; held: HeldAnswer }[] = [];
  private server!: Server;
  port = 0;

  constructor(options: FakeDiscordOptions = {}) {
    this.token = options.token ?? 'fake-bot-token';
    this.identity = {
      botId: snowflake(),
      applicationId: options.applicationId ?? snowflake(),
      guildId: options.guildId ?? snowflake(),
      channelId: options.channelId ?? snowflake(),
    };
    this.application = {
      name: 'Deckhand',
      verifyKey: options.verifyKey ?? 'ab'.repeat(32),
      interactionsEndpointUrl: null,
    };
    this.gateway = new FakeGateway(this.identity, () => this.gatewayUrl, options.heartbeatInterval);
    const fake = this;
    this.rest = new FakeRest({
      store: this.store,
      identity: this.identity,
      violations: this.violations,
      registered: this.registered,
      token: this.token,
      application: this.application,
      get gatewayUrl() {
        return fake.gatewayUrl;
      },
    });
  }

  /** Base for `DISCORD_API_URL` (discord.js appends `/v10`). */
  get apiUrl(): string {
    return `http://127.0.0.1:${this.port}/api`;
  }

  get gatewayUrl(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  async listen(): Promise<this> {
    await discordSpec();
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.on('upgrade', (req, socket, head) => this.gateway.upgrade(req, socket, head));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    await this.gateway.close();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** Serves `content` as an attachment on the fake CDN; returns its URL. */
  hostFile(name: string, content: Buffer | string): string {
    const id = snowflake();
    this.files.set(`${id}/${name}`, Buffer.from(content));
    return `http://127.0.0.1:${this.port}/cdn/attachments/${id}/${name}`;
  }

  /**
   * Answers the next `times` requests matching `method` and `path` with a 429 carrying
   * `retry_after` (seconds) in the body and the `Retry-After` / `X-RateLimit-*` headers Discord sends.
   */
  rateLimitNext(method: string, path: RegExp, retryAfterSeconds: number, times = 1): void {
    this.injections.push({
      method,
      path,
      status: 429,
      body: {
        message: 'You are being rate limited.',
        retry_after: retryAfterSeconds,
        global: false,
        code: 0,
      },
      headers: {
        'retry-after': String(Math.ceil(retryAfterSeconds)),
        'x-ratelimit-limit': '5',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String((Date.now() + retryAfterSeconds * 1000) / 1000),
        'x-ratelimit-reset-after': String(retryAfterSeconds),
        'x-ratelimit-bucket': 'fakebucket',
        'x-ratelimit-scope': 'user',
      },
      remaining: times,
    });
  }

  /**
   * Carries out the next request matching `method` and `path` (a message is created) but holds its
   * answer back until `release()` or until the client goes away (see {@link HeldAnswer}).
   */
  holdNext(method: string, path: RegExp): HeldAnswer {
    const held = new HeldAnswer();
    this.holds.push({ method, path, held });
    return held;
  }

  /** Answers the next request matching `method` and `path` with `status` and a Discord error body. */
  failNext(method: string, path: RegExp, status: number, code: number, message: string): void {
    this.injections.push({ method, path, status, body: { code, message }, headers: {}, remaining: 1 });
  }

  /** Records an interaction the test is about to deliver (gateway or HTTP). */
  registerInteraction(payload: InteractionEnvelope): FakeInteraction {
    let markAnswered = () => {};
    const answered = new Promise<void>((resolve) => {
      markAnswered = resolve;
    });
    const interaction: FakeInteraction = {
      answered,
      markAnswered,
      id: payload.id,
      token: payload.token,
      applicationId: payload.application_id,
      channelId: payload.channel_id ?? this.identity.channelId,
      sentAt: Date.now(),
      callbacks: [],
      followups: [],
      ...(payload.message?.id ? { componentMessage: payload.message.id } : {}),
    };
    this.store.interactions.set(interaction.id, interaction);
    this.store.byToken.set(interaction.token, interaction);
    return interaction;
  }

  /**
   * `authorId` posts `content` in the guild channel (mentioning the bot with `mention`, as
   * `<@bot> …`), delivered over the gateway as MESSAGE_CREATE.
   */
  userMessage(authorId: string, content: string, options: { mention?: boolean } = {}): void {
    const { botId, guildId, channelId } = this.identity;
    const author = {
      id: authorId,
      username: `user${authorId.slice(-4)}`,
      discriminator: '0',
      global_name: null,
      avatar: null,
    };
    const mentions: { id: string }[] = options.mention ? [botUser(botId)] : [];
    this.gateway.dispatchMessage({
      id: snowflake(),
      type: 0,
      channel_id: channelId,
      guild_id: guildId,
      author,
      member: { roles: [], joined_at: new Date(0).toISOString(), deaf: false, mute: false, flags: 0 },
      content: options.mention ? `<@${botId}> ${content}` : content,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions,
      mention_roles: [],
      attachments: [],
      embeds: [],
      pinned: false,
    });
  }

  /** Delivers an interaction over the gateway (INTERACTION_CREATE). */
  interact(payload: InteractionEnvelope): FakeInteraction {
    const known = this.store.interactions.get(payload.id);
    const interaction = known ?? this.registerInteraction(payload);
    interaction.sentAt = known ? interaction.sentAt : Date.now();
    this.gateway.dispatch('INTERACTION_CREATE', payload);
    return interaction;
  }

  /**
   * Delivers an interaction like Discord does in HTTP mode: POSTs it, signed with `headers`, to the
   * bot's endpoint; a 200 answer is validated as an interaction callback and applied.
   */
  async deliverHttp(
    endpoint: string,
    payload: InteractionEnvelope & Record<string, unknown>,
    headers: (body: string) => Record<string, string>,
  ): Promise<{ status: number; body: unknown; interaction: FakeInteraction }> {
    const interaction = this.store.interactions.get(payload.id) ?? this.registerInteraction(payload);
    const text = JSON.stringify(payload);
    const response = await fetch(endpoint, { method: 'POST', headers: headers(text), body: text });
    const raw = await response.text();
    const body: unknown = raw ? JSON.parse(raw) : undefined;
    if (response.status === 200 && payload.type !== 1) {
      const violations = await validateDiscordRequest({
        method: 'POST',
        path: `${API_ROOT}/interactions/${payload.id}/${payload.token}/callback`,
        query: {},
        headers: { 'content-type': 'application/json' },
        body,
      });
      this.violations.push(...violations);
      if (interaction.callbacks.length > 0)
        this.violations.push(`interaction ${payload.id} was answered twice`);
      else this.applyCallback(interaction, body as Record<string, unknown>);
    }
    return { status: response.status, body, interaction };
  }

  /** Live (not deleted) messages of a channel, oldest first. */
  channelMessages(channelId = this.identity.channelId): FakeMessage[] {
    return [...this.store.messages.values()].filter((m) => m.channel_id === channelId && !m.deleted);
  }

  /** Requests matching a method and a path pattern. */
  requestsTo(method: string, path: RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && path.test(r.path));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = decodeURIComponent(url.pathname);
    if (req.method === 'GET' && path.startsWith('/cdn/attachments/')) {
      const file = this.files.get(path.slice('/cdn/attachments/'.length));
      if (!file) return send(res, 404, { message: 'Not found' });
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': file.length });
      res.end(file);
      return;
    }
    if (!path.startsWith(`${API_ROOT}/`)) return send(res, 404, { message: '404: Not Found', code: 0 });
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]),
    );
    let parsed: { body: unknown; files: { name: string; data: Buffer }[] };
    try {
      parsed = await readBody(req);
    } catch (error) {
      this.violations.push(`${req.method} ${path}: unreadable body (${(error as Error).message})`);
      return send(res, 400, { code: 50109, message: 'The request body contains invalid JSON.' });
    }
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: path.slice(API_ROOT.length),
      query: Object.fromEntries(url.searchParams),
      headers,
      body: parsed.body,
      files: parsed.files,
      at: Date.now(),
      status: 0,
    };
    this.requests.push(record);
    const answer = (status: number, body?: unknown, extra: Record<string, string> = {}) => {
      record.status = status;
      send(res, status, body, { ...rateLimitHeaders(), ...extra });
    };

    const specRequest = {
      method: record.method,
      path,
      query: record.query,
      headers,
      ...(parsed.body !== undefined ? { body: parsed.body } : {}),
    };
    const violations = await validateDiscordRequest(specRequest);
    if (violations.length > 0) {
      this.violations.push(...violations);
      return answer(400, { code: 50035, message: 'Invalid Form Body', errors: { _errors: violations } });
    }
    const match = await matchDiscordOperation(specRequest);
    if (match?.botAuth && headers.authorization !== `Bot ${this.token}`) {
      this.violations.push(`${record.method} ${path}: missing or wrong bot authorization`);
      return answer(401, { message: '401: Unauthorized', code: 0 });
    }
    const injection = this.injections.find(
      (i) => i.remaining > 0 && i.method === record.method && i.path.test(record.path),
    );
    if (injection) {
      injection.remaining -= 1;
      return answer(injection.status, injection.body, injection.headers);
    }
    const token = /^\/webhooks\/\d+\/([^/]+)/.exec(record.path)?.[1];
    const pending = token ? this.store.byToken.get(token) : undefined;
    if (pending && pending.callbacks.length === 0) {
      await Promise.race([pending.answered, new Promise((resolve) => setTimeout(resolve, 2000))]);
    }
    const result = this.rest.route(record);
    const hold = this.holds.findIndex((h) => h.method === record.method && h.path.test(record.path));
    if (hold >= 0) {
      const held = this.holds.splice(hold, 1)[0]?.held;
      if (held && !(await held.hold(res))) {
        record.status = -1;
        return;
      }
    }
    return answer(result.status, result.body);
  }

  /** Applies a first answer (from an HTTP-mode response body) as if Discord had received it. */
  applyCallback(
    interaction: FakeInteraction,
    body: Record<string, unknown>,
    files: UploadedFile[] = [],
  ): void {
    this.rest.applyCallback(interaction, body, files);
  }
}

/** Starts a fake Discord on 127.0.0.1 with a free port. */
export function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  return new FakeDiscord(options).listen();
}
