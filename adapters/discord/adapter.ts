/**
 * The Discord adapter: wires the messenger (every role), and in `web`/`all` roles either the
 * gateway (default) or the HTTP interactions endpoint (`DISCORD_PUBLIC_KEY`).
 */
import { REST, type RESTOptions } from 'discord.js';
import { ClickGuard } from '../../src/core/clicks';
import { CommandHandoff } from '../../src/core/command-handoff';
import type { Platform } from '../../src/core/conversation';
import { Suggestions } from '../../src/core/suggestions';
import type { AdapterContext, PlatformAdapter } from '../types';
import { DiscordApi } from './api';
import { observeRest } from './api-metrics';
import { discordFileResolver } from './files';
import { FormStash } from './forms';
import { DiscordGateway } from './gateway';
import { INTERACTIONS_PATH, interactionsEndpoint } from './http-endpoint';
import { InteractionHandler, type QueuedDiscordPlace } from './interactions';
import { commandRoutes } from './manifest';
import { mentionUnfurls } from './mentions';
import { DiscordMessenger } from './messenger';
import { InteractionResponder } from './responder';
import { restOptions } from './rest';
import { InteractionSurface } from './surface';

/** Knobs for tests and unusual deployments. */
export interface DiscordAdapterOptions {
  /** Extra REST options (timeouts, retries). */
  rest?: Partial<RESTOptions>;
  /** How long to wait for a modal before deferring an interaction (default 1000 ms). */
  ackAfterMs?: number;
  /** Autocomplete cache lifetime in ms (default 30 s). */
  suggestionTtlMs?: number;
}

/** How this process talks to Discord. */
export type DiscordMode = 'gateway' | 'http' | 'worker';

/** The Discord adapter. */
export class DiscordAdapter implements PlatformAdapter {
  readonly platform: Platform = 'discord';
  readonly mode: DiscordMode;
  readonly api: DiscordApi;
  private readonly messenger: DiscordMessenger;
  private readonly gateway: DiscordGateway | undefined;
  private running = false;

  constructor(
    private readonly context: AdapterContext,
    private readonly options: DiscordAdapterOptions = {},
  ) {
    const { config } = context;
    const token = config.DISCORD_TOKEN as string;
    const rest = restOptions(config, options.rest);
    this.mode = context.role === 'worker' ? 'worker' : config.DISCORD_PUBLIC_KEY ? 'http' : 'gateway';
    this.gateway =
      this.mode === 'gateway' ? new DiscordGateway({ token, rest, logger: context.logger }) : undefined;
    const client = this.gateway?.client.rest ?? new REST(rest).setToken(token);
    observeRest(client, context.logger.child({ platform: 'discord' }));
    client.on('rateLimited', (info) =>
      context.logger.info(
        { route: info.route, retryAfter: info.retryAfter, global: info.global, scope: info.scope },
        'discord rate limit: waiting before retrying',
      ),
    );
    this.api = new DiscordApi(client, config.DISCORD_APPLICATION_ID as string);
    this.messenger = new DiscordMessenger(this.api, context.logger);
  }

  async start(): Promise<void> {
    const { app, config, logger, web } = this.context;
    app.messengers.register('discord', this.messenger);
    app.files.register('discord', discordFileResolver());
    const forms = new FormStash(app.keyValue('discord:form'));
    const surfaceDeps = { api: this.api, messenger: this.messenger, forms, logger };
    app.surfaces.register('discord', (stored, invocation) => {
      const place = stored as unknown as QueuedDiscordPlace;
      return new InteractionSurface(surfaceDeps, {
        responder: InteractionResponder.answered(place.deferred, logger),
        invocation,
        token: place.token,
        sourceEphemeral: place.sourceEphemeral,
      });
    });
    this.running = true;
    if (this.mode === 'worker') return;
    const handler = new InteractionHandler({
      runner: app.runner,
      handoff: new CommandHandoff({
        runner: app.runner,
        queue: this.context.role === 'web' ? app.commandQueue : undefined,
        logger,
      }),
      routes: commandRoutes(app.runner.registry),
      suggestions: new Suggestions({
        commands: app.runner.registry,
        lister: app.suggestions,
        bindings: app.services.bindings,
        onError: (error, source) => logger.debug({ err: error, source }, 'autocomplete lookup failed'),
        ttlMs: this.options.suggestionTtlMs,
      }),
      deduper: this.context.deduper,
      clicks: new ClickGuard((seconds) => app.claims(seconds)),
      api: this.api,
      messenger: this.messenger,
      forms,
      ackAfterMs: this.options.ackAfterMs ?? 1000,
      languages: app.languages,
      logger,
    });
    if (this.mode === 'http') {
      web.route(
        'POST',
        INTERACTIONS_PATH,
        interactionsEndpoint({
          publicKey: config.DISCORD_PUBLIC_KEY as string,
          handler,
          logger,
          running: () => this.running,
        }),
      );
      logger.info(`discord: serving interactions at POST ${INTERACTIONS_PATH}`);
      return;
    }
    const unfurls = mentionUnfurls({ unfurl: (seen) => app.unfurl(seen), messenger: this.messenger, logger });
    await this.gateway?.start(handler, this.api, unfurls);
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.gateway?.stop();
  }

  async healthy(): Promise<boolean> {
    if (!this.running) return false;
    return this.gateway ? this.gateway.healthy() : true;
  }
}
