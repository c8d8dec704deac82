/**
 * The Telegram adapter (grammY). It always registers the messenger (any process can post and edit
 * cards); `web`/`all` processes also receive updates:
 * - long polling (default) with grammY's runner — one process only, as Telegram allows one poller;
 * - a webhook at `POST /telegram/webhook` when `TELEGRAM_WEBHOOK_SECRET` and `PUBLIC_URL` are set
 *   (`setWebhook` with the secret token on start; any number of web processes).
 */
import { type RunnerHandle, run } from '@grammyjs/runner';
import type { Bot } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import { ClickGuard } from '../../src/core/clicks';
import { CommandHandoff } from '../../src/core/command-handoff';
import { ackTimed } from '../api-metrics';
import type { AdapterContext, PlatformAdapter } from '../types';
import { apiRootOf, createBot, isCloudApi, type ThrottleOptions } from './bot';
import { telegramCommandName } from './command-line';
import { CLOUD_DOWNLOAD_LIMIT, type FileSource, LOCAL_DOWNLOAD_LIMIT, telegramFileResolver } from './files';
import { FormStore } from './form-store';
import { TelegramForms } from './forms';
import { botIdOf, telegramConversationId } from './ids';
import { TelegramMessenger } from './messenger';
import { ApiReachability } from './reachability';
import { handOff, installReceiver } from './receiver';
import { invocationOf, type TelegramPlace, telegramSurface } from './surface';
import { WEBHOOK_PATH, webhookRoute } from './webhook';

/** Updates the bot asks Telegram for. */
const ALLOWED_UPDATES = ['message', 'callback_query'] as const;

/** Tuning, mostly for tests; production uses the defaults. */
export interface TelegramAdapterOptions {
  /** Throttler limits (default: grammY's, ~1/s per private chat, 20/min per group, 30/s overall). */
  throttle?: ThrottleOptions;
  /** Throttler limits of edits in groups (default: the descriptor's group edit budget; or `throttle`'s when that is given). */
  editThrottle?: ThrottleOptions;
  /** Bot identity, to skip `getMe` at start. */
  botInfo?: UserFromGetMe;
  /** Long-polling timeout in seconds (default 30). */
  pollTimeoutSeconds?: number;
  /** How long a form waits for each answer (default 10 minutes, the core's form lifetime). */
  formTimeoutMs?: number;
  /** Largest file downloaded (default 20 MB on the cloud Bot API, 2,000 MB on a local server). */
  downloadLimitBytes?: number;
}

/** How this process takes part. */
type Mode = 'polling' | 'webhook' | 'send-only';

/** See the module comment. */
export class TelegramAdapter implements PlatformAdapter {
  readonly platform = 'telegram' as const;
  readonly bot: Bot;
  readonly messenger: TelegramMessenger;
  readonly mode: Mode;
  private readonly forms: TelegramForms;
  /** Where files users send are downloaded from (also by workers, through the app's resolvers). */
  private readonly fileSource: FileSource;
  private runner: RunnerHandle | undefined;
  private running = false;
  /** Whether the Bot API answered the last attempt (auto-retry backs off while it does not). */
  private readonly reachability: ApiReachability;

  constructor(
    private readonly context: AdapterContext,
    private readonly options: TelegramAdapterOptions = {},
  ) {
    const { config, app, logger } = context;
    const log = logger.child({ platform: 'telegram' });
    this.reachability = new ApiReachability(log);
    this.bot = createBot(config, {
      throttle: options.throttle,
      editThrottle: options.editThrottle,
      botInfo: options.botInfo,
      logger: log,
      observe: this.reachability.transformer,
    });
    const botId = botIdOf(this.bot.token);
    this.messenger = new TelegramMessenger(this.bot.api, log, (from, to) =>
      app.conversations ? app.conversations.move(from, to) : Promise.resolve([]),
    );
    this.mode =
      context.role === 'worker'
        ? 'send-only'
        : config.TELEGRAM_WEBHOOK_SECRET && config.PUBLIC_URL
          ? 'webhook'
          : 'polling';
    const botUsername = () => this.bot.botInfo.username;
    const handoff = new CommandHandoff({
      runner: app.runner,
      queue: context.role === 'web' ? app.commandQueue : undefined,
      logger: log,
    });
    this.forms = new TelegramForms({
      store: new FormStore(app.keyValue('tg:form'), app.keyValue('tg:form-pending'), app.sealer, botId),
      messenger: this.messenger,
      api: this.bot.api,
      botId,
      botUsername,
      timeoutMs: options.formTimeoutMs ?? 10 * 60_000,
      languages: app.languages,
      logger: log,
      submit: async (user, formId, values) => {
        const chat = { id: user.id, type: 'private' as const, first_name: user.first_name };
        const where = { botId, chat, user };
        const surfaceDeps = { handoff, messenger: this.messenger, forms: this.forms, botUsername };
        const input = { kind: 'form' as const, formId, values };
        // Forms are single use: the form id is the delivery's key.
        await handOff(surfaceDeps, `telegram:${botId}:form:${formId}`, input, invocationOf(where), where);
      },
    });
    this.fileSource = {
      api: this.bot.api,
      token: this.bot.token,
      apiRoot: apiRootOf(config),
      limit: options.downloadLimitBytes ?? (isCloudApi(config) ? CLOUD_DOWNLOAD_LIMIT : LOCAL_DOWNLOAD_LIMIT),
    };
    const groups = new Map(app.runner.registry.groups().map((g) => [telegramCommandName(g), g]));
    installReceiver(this.bot, {
      handoff,
      messenger: this.messenger,
      forms: this.forms,
      deduper: context.deduper,
      botId,
      botUsername,
      files: this.fileSource,
      groups,
      clicks: new ClickGuard((seconds) => app.claims(seconds)),
      conversations: app.conversations,
      languages: app.languages,
      logger: log,
    });
    this.bot.catch((error) => {
      log.error({ err: error.error, update: error.ctx.update.update_id }, 'telegram update failed');
    });
  }

  /** The conversation id of a Telegram chat served by this bot. */
  conversationId(chatId: number, threadId?: number): string {
    return telegramConversationId(botIdOf(this.bot.token), chatId, threadId);
  }

  /**
   * Registers the messenger at once, then connects: `getMe`, then the webhook or long polling. While
   * the Bot API is unreachable this waits — grammY's auto-retry backs off and retries, and each failed
   * attempt is logged (see reachability.ts) — so callers start it without waiting (`connectAdapters`).
   */
  async start(): Promise<void> {
    const { app, config, web, logger } = this.context;
    app.messengers.register('telegram', this.messenger);
    app.files.register('telegram', telegramFileResolver(this.fileSource));
    const botUsername = () => (this.bot.isInited() ? this.bot.botInfo.username : '');
    const surfaceDeps = { messenger: this.messenger, forms: this.forms, botUsername };
    app.surfaces.register('telegram', (place) =>
      telegramSurface(surfaceDeps, place as unknown as TelegramPlace),
    );
    if (this.mode === 'send-only') {
      // Queued commands answered here name the bot (links to its private chat): learn its name.
      await this.bot
        .init()
        .catch((error: unknown) =>
          logger.warn({ err: error }, 'telegram: could not learn the bot name (getMe)'),
        );
      this.running = true;
      return;
    }
    await this.bot.init();
    if (this.mode === 'webhook') {
      const secret = config.TELEGRAM_WEBHOOK_SECRET as string;
      web.route(
        'POST',
        WEBHOOK_PATH,
        ackTimed(
          'telegram',
          webhookRoute({
            secret,
            logger,
            handle: (update) => {
              this.bot.handleUpdate(update).catch((error) => this.bot.errorHandler(error));
            },
          }),
        ),
      );
      const url = `${(config.PUBLIC_URL as string).replace(/\/+$/, '')}${WEBHOOK_PATH}`;
      await this.bot.api.setWebhook(url, { secret_token: secret, allowed_updates: [...ALLOWED_UPDATES] });
      this.running = true;
      logger.info({ url, bot: this.bot.botInfo.username }, 'telegram webhook set');
      return;
    }
    await this.bot.api.deleteWebhook();
    const runner = run(this.bot, {
      runner: {
        fetch: { timeout: this.options.pollTimeoutSeconds ?? 30, allowed_updates: [...ALLOWED_UPDATES] },
        silent: true,
      },
    });
    this.runner = runner;
    this.running = true;
    runner.task()?.catch((error: unknown) => {
      this.running = false;
      logger.error({ err: error }, 'telegram polling stopped (is another process polling with this token?)');
    });
    logger.info({ bot: this.bot.botInfo.username }, 'telegram long polling started');
  }

  async stop(): Promise<void> {
    this.forms.stop();
    const runner = this.runner;
    this.runner = undefined;
    this.running = false;
    if (runner?.isRunning()) await runner.stop();
  }

  /**
   * Connected: started (the bot's identity fetched; the webhook set or polling begun) and the Bot API
   * answering the latest request. Read from state, no request of its own.
   */
  async healthy(): Promise<boolean> {
    if (!this.running || !this.reachability.reachable) return false;
    if (this.mode === 'polling') return this.runner?.isRunning() ?? false;
    return true;
  }
}
