/**
 * Gateway mode: a discord.js client holds the gateway connection (heartbeats, resume, sharding) and
 * hands every INTERACTION_CREATE to the {@link InteractionHandler} as the raw API object; the first
 * answer goes out as a REST interaction callback. No intent is needed for interactions; the
 * GuildMessages and DirectMessages intents (not privileged) bring the messages that mention the bot,
 * for link unfurls (./mentions.ts).
 */
import {
  type APIInteraction,
  Client,
  Events,
  GatewayDispatchEvents,
  GatewayIntentBits,
  type GatewayMessageCreateDispatchData,
  type RESTOptions,
} from 'discord.js';
import type { Logger } from 'pino';
import type { DiscordApi } from './api';
import type { InteractionHandler } from './interactions';

/** Options of {@link DiscordGateway}. */
export interface DiscordGatewayOptions {
  token: string;
  rest: Partial<RESTOptions>;
  logger: Logger;
  /** Milliseconds to wait for the gateway's READY before `start` fails. */
  readyTimeoutMs?: number;
}

/**
 * The gateway connection. Sharding: with no `SHARDS`/`SHARD_COUNT` in the environment (set by
 * discord.js's ShardingManager, or by hand per process) it runs the number of shards Discord
 * recommends (`shards: 'auto'`); otherwise discord.js takes the shards from those variables.
 */
export class DiscordGateway {
  readonly client: Client;

  constructor(private readonly options: DiscordGatewayOptions) {
    const sharded = 'SHARDS' in process.env || 'SHARD_COUNT' in process.env;
    this.client = new Client({
      intents: [GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages],
      rest: options.rest,
      ...(sharded ? {} : { shards: 'auto' as const }),
    });
    this.client.rest.setToken(options.token);
  }

  /**
   * Connects and dispatches interactions to `handler`, and users' messages to `onMessage` (with the
   * bot's own user id), until {@link stop}.
   */
  async start(
    handler: InteractionHandler,
    api: DiscordApi,
    onMessage?: (message: GatewayMessageCreateDispatchData, botId: string | undefined) => Promise<void>,
  ): Promise<void> {
    const { client, options } = this;
    client.ws.on(GatewayDispatchEvents.InteractionCreate, (interaction: APIInteraction) => {
      void handler.handle(interaction, (response) =>
        api.callback(interaction.id, interaction.token, response),
      );
    });
    client.ws.on(GatewayDispatchEvents.MessageCreate, (message: GatewayMessageCreateDispatchData) => {
      void onMessage?.(message, client.user?.id);
    });
    client.on(Events.Error, (error) => options.logger.error({ err: error }, 'discord client error'));
    client.on(Events.Warn, (message) => options.logger.warn({ message }, 'discord client warning'));
    client.on(Events.ShardDisconnect, (event, shard) =>
      options.logger.warn({ shard, code: event.code }, 'discord shard disconnected'),
    );
    client.on(Events.ShardResume, (shard, replayed) =>
      options.logger.info({ shard, replayed }, 'discord shard resumed'),
    );
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('the Discord gateway did not become ready in time')),
        options.readyTimeoutMs ?? 60_000,
      );
      client.once(Events.ClientReady, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    await client.login(options.token);
    await ready;
    options.logger.info({ user: client.user?.tag, shards: client.ws.shards.size }, 'discord gateway ready');
  }

  /** True while the gateway connection is up. */
  healthy(): boolean {
    return this.client.isReady();
  }

  async stop(): Promise<void> {
    await this.client.destroy();
  }
}
