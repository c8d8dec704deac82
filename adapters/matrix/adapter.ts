/**
 * The Matrix adapter (matrix-js-sdk). Every process registers the messenger, the file resolver and
 * the reply surfaces (any process can post and edit cards and open files); `web`/`all` processes also
 * run the sync loop that receives invitations, commands, presses and form answers.
 */
import type { MatrixClient } from 'matrix-js-sdk';
import { ClickGuard } from '../../src/core/clicks';
import { CommandHandoff } from '../../src/core/command-handoff';
import { platformCommandWords } from '../command-words';
import type { AdapterContext, PlatformAdapter } from '../types';
import { CardButtons } from './buttons';
import { allowedServers, matrixCommandPrefix } from './checks';
import { connectClient } from './client';
import { type EventDeps, onInvite, onRoomEvent } from './events';
import { matrixFileResolver } from './files';
import { MatrixForms } from './forms';
import { matrixConversationId } from './ids';
import { MatrixMessenger } from './messenger';
import { BotRooms } from './rooms';
import { invocationOf as invocationFor, type MatrixPlace, matrixSurface, type SurfaceDeps } from './surface';
import { SyncLoop } from './sync';

/** Tuning, mostly for tests; production uses the defaults. */
export interface MatrixAdapterOptions {
  /** Long-poll timeout of each sync in ms (default 30 s). */
  syncTimeoutMs?: number;
  /** How long a form waits for each answer (default 10 minutes). */
  formTimeoutMs?: number;
}

/** See the module comment. */
export class MatrixAdapter implements PlatformAdapter {
  readonly platform = 'matrix' as const;
  private client: MatrixClient | undefined;
  private sync: SyncLoop | undefined;
  private running = false;

  constructor(
    private readonly context: AdapterContext,
    private readonly options: MatrixAdapterOptions = {},
  ) {}

  /** The conversation id of a room served by this bot. */
  conversationId(roomId: string): string {
    return matrixConversationId(this.context.config.MATRIX_USER_ID as string, roomId);
  }

  /** Signs in (a password login happens here), registers the messenger, then syncs in `web`/`all` processes. */
  async start(): Promise<void> {
    const { app, config, logger, role } = this.context;
    const log = logger.child({ platform: 'matrix' });
    const { client, userId } = await connectClient(config, log);
    this.client = client;
    const buttons = new CardButtons(app.keyValue('mx:buttons'));
    const rooms = new BotRooms(client, app.keyValue('mx:rooms'));
    const groups = [...app.runner.registry.groups(), 'help'];
    const words = platformCommandWords({ commandPrefix: matrixCommandPrefix }, config, groups);
    const messenger = new MatrixMessenger(client, buttons, log, words, rooms);
    const handoff = new CommandHandoff({
      runner: app.runner,
      queue: role === 'web' ? app.commandQueue : undefined,
      logger: log,
    });
    const forms = new MatrixForms({
      store: app.keyValue('mx:form', { sealed: true }),
      rooms,
      post: (roomId, card) => messenger.send(matrixConversationId(userId, roomId), roomId, card),
      timeoutMs: this.options.formTimeoutMs ?? 10 * 60_000,
      logger: log,
      submit: async (user, roomId, formId, values) => {
        const place: MatrixPlace = { botUserId: userId, roomId, userId: user, direct: true };
        await handoff.submit(
          {
            key: `matrix:${userId}:form:${formId}`,
            platform: 'matrix',
            input: { kind: 'form', formId, values },
            invocation: invocationFor(place),
            place: { ...place },
          },
          () => surfaceOf(place),
        );
      },
    });
    const surfaceDeps: SurfaceDeps = { messenger, rooms, forms, languages: app.languages };
    const surfaceOf = (place: MatrixPlace) => matrixSurface(surfaceDeps, place);
    const localpart = userId.slice(1, userId.indexOf(':')).toLowerCase();
    const eventDeps: EventDeps = {
      ...surfaceDeps,
      client,
      botUserId: userId,
      handoff,
      deduper: this.context.deduper,
      clicks: new ClickGuard((seconds) => app.claims(seconds)),
      buttons,
      allowedServers: allowedServers(config),
      conversations: app.conversations,
      line: {
        prefix: config.MATRIX_COMMAND_PREFIX,
        names: [...new Set(['deckhand', localpart])],
        groups: new Set(groups),
      },
      logger: log,
    };
    app.messengers.register('matrix', messenger);
    app.files.register('matrix', matrixFileResolver(client));
    app.surfaces.register('matrix', (place) => surfaceOf(place as unknown as MatrixPlace));
    this.running = true;
    if (role === 'worker') return;
    this.sync = new SyncLoop(
      client,
      userId,
      app.keyValue('mx:sync'),
      {
        invite: (invitation) => onInvite(eventDeps, invitation),
        event: (roomId, event) => onRoomEvent(eventDeps, roomId, event),
      },
      log,
      this.options.syncTimeoutMs,
    );
    this.sync.start();
    log.info({ user: userId }, 'matrix sync started');
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.sync?.stop();
    this.client?.stopClient();
  }

  /** Started, and (where it syncs) the latest sync answered. Read from state, no request of its own. */
  async healthy(): Promise<boolean> {
    if (!this.running) return false;
    return this.sync ? this.sync.connected : true;
  }
}
