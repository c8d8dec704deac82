/**
 * The bot's one connection to the IRC network (irc-framework): TLS, SASL PLAIN or EXTERNAL (a SASL
 * failure — a wrong password, or services not linked yet after a netsplit — ends the attempt), its own
 * reconnection with exponential back-off (1 s doubling to 30 s, with jitter, for as long as it takes),
 * the configured channels joined again after every connect, another nick tried when the nick is taken.
 */
import { readFileSync } from 'node:fs';
import { Client, type ConnectOptions } from 'irc-framework';
import type { Logger } from 'pino';
import type { Config } from '../../src/config';
import { CaTransport } from './transport';

/** What the link tells its owner. */
export interface LinkEvents {
  /** Registered (and identified when SASL is configured); `joinChannels` are joined next. */
  onRegistered?(): void;
  /** The channels to join now (the configured ones the bot was not kicked from). */
  joinChannels(): Promise<string[]>;
}

/** Back-off before reconnect attempt `n` (1-based), in ms. */
export function backoffMs(attempt: number, maxMs = 30_000): number {
  const base = Math.min(maxMs, 1_000 * 2 ** Math.min(attempt - 1, 10));
  return Math.round(base * (0.75 + Math.random() * 0.25));
}

/** The connection. */
export class IrcLink {
  readonly client = new Client();
  /** Channels the bot is in now (lower case). */
  readonly joined = new Set<string>();
  private registered = false;
  private stopped = true;
  private attempts = 0;
  private timer: NodeJS.Timeout | undefined;
  private waiters: (() => void)[] = [];
  private saslError: string | undefined;
  private readonly options: ConnectOptions;

  constructor(
    config: Config,
    private readonly logger: Logger,
    private readonly events: LinkEvents,
  ) {
    const [host = '', port] = (config.IRC_SERVER ?? '').split(':');
    const cert = config.IRC_SASL_CERT ? readFileSync(config.IRC_SASL_CERT, 'utf8') : undefined;
    this.options = {
      host,
      port: port ? Number(port) : config.IRC_TLS ? 6697 : 6667,
      nick: config.IRC_NICK,
      username: config.IRC_NICK.slice(0, 10),
      gecos: 'Deckhand chat-ops bot',
      tls: config.IRC_TLS,
      rejectUnauthorized: true,
      transport: CaTransport,
      ...(config.IRC_TLS_CA ? { ca: readFileSync(config.IRC_TLS_CA, 'utf8') } : {}),
      ...(cert
        ? { client_certificate: { private_key: cert, certificate: cert }, sasl_mechanism: 'EXTERNAL' }
        : {}),
      ...(config.IRC_SASL_ACCOUNT && config.IRC_SASL_PASSWORD && !cert
        ? { account: { account: config.IRC_SASL_ACCOUNT, password: config.IRC_SASL_PASSWORD } }
        : {}),
      sasl_disconnect_on_fail: true,
      auto_reconnect: false,
      ping_interval: 30,
      ping_timeout: 60,
      version: null,
    };
    this.listen();
  }

  /** Registered with the server (and, with SASL, logged in). */
  get connected(): boolean {
    return this.registered;
  }

  /** The last SASL failure, while it lasts (for `doctor` and the logs). */
  get lastSaslError(): string | undefined {
    return this.saslError;
  }

  /** The bot's hostmask as the server relays it (for the line budget). */
  self(): { nick: string; username: string; host: string } {
    const user = this.client.user;
    return { nick: user.nick, username: user.username || this.options.username || '', host: user.host || '' };
  }

  /** Resolves once registered (at once when it is). */
  ready(): Promise<void> {
    if (this.registered) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /**
   * Waits up to `timeoutMs` until the bot can post to `target`: registered and, for a channel, in it.
   * Resolves false when it still cannot.
   */
  async inTarget(target: string, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const can = () => this.registered && (!/^[#&]/.test(target) || this.joined.has(target.toLowerCase()));
    while (!can() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    return can();
  }

  start(): void {
    this.stopped = false;
    this.client.connect(this.options);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    if (!this.client.connection?.connected) return;
    const closed = new Promise((resolve) => this.client.once('close', resolve));
    this.client.quit('Deckhand stopping');
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 3_000))]);
  }

  private listen(): void {
    const client = this.client;
    client.on('registered', () => {
      this.registered = true;
      this.attempts = 0;
      this.saslError = undefined;
      this.logger.info({ nick: client.user.nick }, 'irc: connected');
      this.events.onRegistered?.();
      for (const resolve of this.waiters.splice(0)) resolve();
      void this.events
        .joinChannels()
        .then((channels) => {
          for (const channel of channels) client.join(channel);
        })
        .catch((error: unknown) =>
          this.logger.warn({ err: error }, 'irc: could not list the channels to join'),
        );
    });
    client.on('sasl failed', (event: { reason: string; message?: string }) => {
      this.saslError = event.message ? `${event.reason}: ${event.message}` : event.reason;
      this.logger.warn({ reason: this.saslError }, 'irc: SASL failed, reconnecting later');
    });
    client.on('nick in use', (event: { nick: string }) => {
      if (this.registered) return;
      const next = `${event.nick.slice(0, 14)}_`;
      this.logger.warn({ taken: event.nick, next }, 'irc: nick in use, trying another');
      client.changeNick(next);
    });
    client.on('join', (event: { nick: string; channel: string }) => {
      if (event.nick === client.user.nick) this.joined.add(event.channel.toLowerCase());
    });
    client.on('part', (event: { nick: string; channel: string }) => {
      if (event.nick === client.user.nick) this.joined.delete(event.channel.toLowerCase());
    });
    client.on('kick', (event: { kicked: string; channel: string }) => {
      if (event.kicked === client.user.nick) this.joined.delete(event.channel.toLowerCase());
    });
    client.on('socket close', () => this.closed());
  }

  private closed(): void {
    const was = this.registered;
    this.registered = false;
    this.joined.clear();
    if (this.stopped || this.timer) return;
    this.attempts += 1;
    const wait = backoffMs(this.attempts);
    this.logger.warn({ attempt: this.attempts, waitMs: wait, was }, 'irc: disconnected, reconnecting');
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.stopped) this.client.connect(this.options);
    }, wait);
  }
}
