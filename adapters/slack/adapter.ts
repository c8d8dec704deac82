import { App, HTTPReceiver, SocketModeReceiver, type webApi } from '@slack/bolt';
import { InstallProvider } from '@slack/oauth';
import { ClickGuard } from '../../src/core/clicks';
import { CommandHandoff } from '../../src/core/command-handoff';
import { confirmDialogs } from '../../src/core/confirm-dialogs';
import { ackTimed } from '../api-metrics';
import type { AdapterContext, PlatformAdapter } from '../types';
import { observedFetch } from './api-metrics';
import { SlackClients } from './clients';
import { downloadHosts, slackFileResolver } from './files';
import { type QueuedSlackPlace, registerHandlers } from './handlers';
import { InFlight } from './inflight';
import { SlackInstallationStore } from './installations';
import { SlackLocales } from './locales';
import { slackLogger } from './logger';
import { BOT_SCOPES } from './manifest';
import { SlackMessenger } from './messenger';
import { SLACK_ROUTES, type SlackSettings, settingsProblems } from './settings';
import { timeSocketAcks } from './socket-acks';
import { slackSurface } from './surface';

/** Knobs for tests and unusual deployments; production uses the defaults. */
export interface SlackAdapterOptions {
  /** Extra WebClient options, e.g. a faster retry policy in tests. */
  clientOptions?: Partial<webApi.WebClientOptions>;
}

export { SLACK_ROUTES };

/**
 * The Slack adapter on Bolt. Over HTTP, Bolt's receiver is mounted on Deckhand's one server at
 * `POST /slack/events` (signatures and timestamps verified by Bolt); in Socket Mode it keeps a
 * WebSocket open with the app-level token. Single workspace with `SLACK_BOT_TOKEN`, or many through
 * OAuth installs kept in Redis. A `worker` process only registers the messenger.
 */
export class SlackAdapter implements PlatformAdapter {
  readonly platform = 'slack' as const;
  private socket: SocketModeReceiver | undefined;
  private socketConnected = false;
  private readonly inflight: InFlight;
  /** Set once `start` finished (for a worker: once the messenger is registered). */
  private started = false;

  constructor(
    private readonly context: AdapterContext,
    private readonly settings: SlackSettings,
    private readonly options: SlackAdapterOptions = {},
  ) {
    this.inflight = new InFlight(context.logger.child({ platform: 'slack' }));
  }

  async start(): Promise<void> {
    const { context, settings } = this;
    const problems = settingsProblems(settings, context.role);
    if (problems.length > 0)
      throw new Error(`Slack is not fully configured:\n  - ${problems.join('\n  - ')}`);
    const logger = context.logger.child({ platform: 'slack' });
    const redis = context.app.state;
    const prefix = context.config.REDIS_KEY_PREFIX;
    const sdkLogger = slackLogger(logger);
    const clientOptions: webApi.WebClientOptions = {
      slackApiUrl: settings.apiUrl,
      logger: sdkLogger,
      ...this.options.clientOptions,
      // The WebClient's own hook on every HTTP attempt: counts calls, errors and 429s per method.
      fetch: observedFetch(logger, this.options.clientOptions?.fetch),
    };
    const installations =
      !settings.botToken && settings.secretKey
        ? new SlackInstallationStore(context.app.keyValue('slack:installation', { sealed: true }))
        : undefined;
    const clients = new SlackClients({
      ...(settings.botToken ? { botToken: settings.botToken } : {}),
      installations,
      clientOptions,
    });

    const dialogs = confirmDialogs(context.app.actions, context.app.runner.registry);
    const messenger = new SlackMessenger({ clients, redis, prefix, logger, dialogs });
    context.app.messengers.register('slack', messenger);
    const tokenFor = async (team: string) => (await clients.forTeam(team)).token;
    context.app.files.register('slack', slackFileResolver(tokenFor, downloadHosts(settings.apiUrl)));
    context.app.surfaces.register('slack', (stored) => {
      const { triggerId, locale, ...place } = stored as unknown as QueuedSlackPlace;
      return slackSurface(place, { messenger, clients }, triggerId, locale);
    });
    if (context.role === 'worker') {
      this.started = true;
      return;
    }

    const installer =
      settings.oauth && installations && !settings.botToken
        ? new InstallProvider({
            clientId: settings.oauth.clientId,
            clientSecret: settings.oauth.clientSecret,
            ...(settings.oauth.stateSecret ? { stateSecret: settings.oauth.stateSecret } : {}),
            installationStore: installations,
            directInstall: true,
            logger: sdkLogger,
            clientOptions: { ...clientOptions },
          })
        : undefined;
    const receiver =
      settings.mode === 'socket'
        ? new SocketModeReceiver({
            appToken: settings.appToken as string,
            logger: sdkLogger,
            installerOptions: { clientOptions: { ...clientOptions } },
          })
        : new HTTPReceiver({
            signingSecret: settings.signingSecret as string,
            endpoints: [SLACK_ROUTES.events],
            logger: sdkLogger,
          });
    const bolt = new App({
      receiver,
      ...(settings.botToken
        ? { token: settings.botToken }
        : { authorize: (source) => (installer as InstallProvider).authorize(source) }),
      logger: sdkLogger,
      clientOptions: { ...clientOptions },
      convoStore: false,
      deferInitialization: true,
    });
    registerHandlers(bolt, {
      runner: context.app.runner,
      handoff: new CommandHandoff({
        runner: context.app.runner,
        queue: context.role === 'web' ? context.app.commandQueue : undefined,
        logger,
      }),
      messenger,
      clients,
      locales: new SlackLocales({ redis: context.requestPath ?? redis, prefix, clients, logger }),
      deliveries: context.deduper,
      clicks: new ClickGuard((seconds) => context.app.claims(seconds)),
      inflight: this.inflight,
      logger,
      downloadHosts: downloadHosts(settings.apiUrl),
      slashCommand: context.config.SLACK_COMMAND,
      unfurl: (seen) => context.app.unfurl(seen),
      home: (invocation) => context.app.home(invocation),
    });
    await bolt.init();

    if (receiver instanceof HTTPReceiver) {
      // Bolt's HTTPReceiver answers the request when the listener acks: its response time is the ack time.
      context.web.route('POST', SLACK_ROUTES.events, ackTimed('slack', receiver.requestListener));
    }
    if (installer) this.mountInstaller(installer);
    if (receiver instanceof SocketModeReceiver) {
      this.socket = receiver;
      // The ack goes back over the socket: timed from the envelope to Bolt's `{envelope_id}` reply.
      timeSocketAcks(receiver.client);
      receiver.client.on('connected', () => {
        this.socketConnected = true;
      });
      receiver.client.on('disconnected', () => {
        this.socketConnected = false;
      });
      await receiver.start();
      this.socketConnected = true;
    }
    this.started = true;
    logger.info(
      { mode: settings.mode, workspaces: settings.botToken ? 'single' : 'oauth' },
      'Slack adapter started',
    );
  }

  async stop(): Promise<void> {
    this.started = false;
    if (this.socket) await this.socket.stop().catch(() => undefined);
    this.socketConnected = false;
    await this.inflight.drain(5000);
  }

  /**
   * Connected: started (Bolt initialised, which checks the token with `auth.test`, retried with the
   * Web API client's back-off while Slack is unreachable) and, in Socket Mode, the socket open. Read
   * from state, no request of its own: `/readyz` polls it.
   */
  async healthy(): Promise<boolean> {
    if (!this.started) return false;
    return !this.socket || this.socketConnected;
  }

  /** Work still running after an acknowledgement (tests wait for it). */
  pending(): number {
    return this.inflight.size;
  }

  private mountInstaller(installer: InstallProvider): void {
    const publicUrl = this.settings.publicUrl ?? `http://localhost:${this.context.config.PORT}`;
    const installOptions = {
      scopes: [...BOT_SCOPES],
      redirectUri: new URL(SLACK_ROUTES.oauthRedirect, publicUrl).toString(),
    };
    this.context.web.route('GET', SLACK_ROUTES.install, (req, res) =>
      installer.handleInstallPath(req, res, {}, installOptions),
    );
    this.context.web.route('GET', SLACK_ROUTES.oauthRedirect, (req, res) =>
      installer.handleCallback(req, res, {}, installOptions),
    );
  }
}
