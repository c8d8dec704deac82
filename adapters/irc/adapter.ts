/**
 * The IRC adapter. Every process registers the messenger (cards become lines on the IRC outbox);
 * a `web`/`all` process also holds the one connection (link.ts): it receives lines (receiver.ts),
 * delivers the outbox at the flood-controlled pace (sender.ts), and follows kicks (the channel is
 * gone: announcements there stop) and invitations (it is back). It also joins the Server Admin Log's
 * channel, where it only speaks (feed.ts). Forms are asked in private queries (forms.ts).
 */
import { CARD_VIEW_NAMESPACE } from '../../src/core/card-view';
import { CommandHandoff } from '../../src/core/command-handoff';
import type { LineConsumer } from '../../src/core/line-outbox';
import { platformCommandWords } from '../command-words';
import type { AdapterContext, PlatformAdapter } from '../types';
import { IrcAdminLogOutbox } from './admin-log';
import { IrcButtons } from './buttons';
import { ircCommandPrefix } from './checks';
import { channelsToJoin, isFeedChannel } from './feed';
import { FloodGate } from './flood';
import { IrcForms } from './forms';
import { AccountTracker } from './identity';
import { IrcLink } from './link';
import { goneKey, IrcMessenger } from './messenger';
import { installReceiver, type Receiver } from './receiver';
import { sendQueued } from './sender';
import { type IrcPlace, invocationOf, ircConversationId, ircSurface } from './surface';

/** How long a form waits for its answers. */
const FORM_TIMEOUT_MS = 10 * 60_000;

/** The network's id in conversation ids: its server's host name. */
export function networkOf(server: string): string {
  return (server.split(':')[0] ?? server).toLowerCase();
}

/** See the module comment. */
export class IrcAdapter implements PlatformAdapter {
  readonly platform = 'irc' as const;
  readonly messenger: IrcMessenger;
  readonly forms: IrcForms;
  readonly network: string;
  /** The connection (absent in a `worker` process). */
  readonly link: IrcLink | undefined;
  private consumer: LineConsumer | undefined;
  private readonly receiver: Receiver | undefined;
  private readonly surfaceOf: (place: IrcPlace) => ReturnType<typeof ircSurface>;

  constructor(private readonly context: AdapterContext) {
    const { app, config, logger } = context;
    const log = logger.child({ platform: 'irc' });
    this.network = networkOf(config.IRC_SERVER as string);
    const prefix = config.REDIS_KEY_PREFIX;
    const viewBase = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
    const buttons = new IrcButtons(app.state, prefix);
    this.messenger = new IrcMessenger({
      outbox: app.outbox('irc'),
      buttons,
      views: app.keyValue(CARD_VIEW_NAMESPACE, { sealed: true }),
      phases: app.keyValue('irc:card-phase'),
      viewBase,
      redis: app.state,
      prefix,
      words: platformCommandWords({ commandPrefix: ircCommandPrefix }, config, [
        ...app.runner.registry.groups(),
        'help',
      ]),
    });
    const handoff = new CommandHandoff({
      runner: app.runner,
      queue: context.role === 'web' ? app.commandQueue : undefined,
      logger: log,
    });
    const surfaceOf = (place: IrcPlace) => ircSurface(this.messenger, place, this.forms, app.languages);
    this.forms = new IrcForms({
      store: app.keyValue('irc:form', { sealed: true }),
      post: (nick, card) => this.messenger.post(ircConversationId(this.network, nick), card),
      timeoutMs: FORM_TIMEOUT_MS,
      languages: app.languages,
      submit: (place, formId, values) =>
        handoff.submit(
          {
            key: `irc:${this.network}:form:${formId}`,
            platform: 'irc',
            input: { kind: 'form', formId, values },
            invocation: invocationOf(place),
            place: { ...place },
          },
          () => surfaceOf(place),
        ),
    });
    this.surfaceOf = surfaceOf;
    if (context.role === 'worker') return;
    const gone = goneKey(prefix);
    const link = new IrcLink(config, log, {
      joinChannels: async () => {
        const kicked = new Set(await app.state.smembers(gone));
        return channelsToJoin(config).filter((c) => !kicked.has(ircConversationId(this.network, c)));
      },
    });
    this.link = link;
    link.client.on('kick', (event: { kicked: string; channel: string; nick: string }) => {
      if (event.kicked !== link.client.user.nick) return;
      log.warn({ channel: event.channel, by: event.nick }, 'irc: kicked; the channel is gone');
      void app.state.sadd(gone, ircConversationId(this.network, event.channel));
    });
    link.client.on('invite', (event: { invited: string; channel: string }) => {
      if (event.invited !== link.client.user.nick) return;
      void app.state.srem(gone, ircConversationId(this.network, event.channel)).then(() => {
        link.client.join(event.channel);
      });
    });
    this.receiver = installReceiver({
      link,
      network: this.network,
      prefix: config.IRC_COMMAND_PREFIX,
      isFeed: (target) => isFeedChannel(config, target),
      registry: app.runner.registry,
      actions: app.actions,
      handoff,
      forms: this.forms,
      surfaceOf,
      deduper: context.deduper,
      accounts: new AccountTracker(link.client),
      buttons,
      messenger: this.messenger,
      languages: app.languages,
      logger: log,
    });
  }

  async start(): Promise<void> {
    const { app, config } = this.context;
    app.messengers.register('irc', this.messenger);
    app.surfaces.register('irc', (place) => this.surfaceOf(place as unknown as IrcPlace));
    app.adminLogLink.attach(new IrcAdminLogOutbox(this.messenger, this.network));
    const link = this.link;
    if (!link) return;
    const gate = new FloodGate({ burst: config.IRC_FLOOD_BURST, intervalMs: config.IRC_FLOOD_INTERVAL_MS });
    const claims = app.claims(7 * 24 * 3600);
    const isGone = (id: string) => this.messenger.isGone(id);
    this.consumer = app
      .outbox('irc')
      .consume((message, id) => sendQueued({ link, gate, claims, isGone }, message, id));
    link.start();
  }

  /** Resolves once every line received so far has been handled. */
  async settled(): Promise<void> {
    await this.receiver?.settled();
  }

  async stop(): Promise<void> {
    await this.consumer?.close();
    this.consumer = undefined;
    await this.link?.stop();
  }

  /** Connected (the process holding the link), or able to queue (a worker). */
  async healthy(): Promise<boolean> {
    return this.link ? this.link.connected : true;
  }
}
