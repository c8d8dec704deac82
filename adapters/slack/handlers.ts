import type { App, BlockAction, ButtonAction, SlackCommandMiddlewareArgs } from '@slack/bolt';
import type { Logger } from 'pino';
import type { ClickGuard } from '../../src/core/clicks';
import type { Invocation } from '../../src/core/command';
import { escapeRegExp } from '../../src/core/command-form';
import type { CommandHandoff } from '../../src/core/command-handoff';
import type { CommandInput } from '../../src/core/command-job';
import type { CommandRunner } from '../../src/core/command-runner';
import { StoreUnavailableError } from '../../src/core/errors';
import type { IncomingFile } from '../../src/core/files';
import type { AdapterHost, DeliveryDeduper } from '../../src/core/host';
import { ACTION_PREFIX, LINK_PREFIX } from './blocks';
import type { SlackClients } from './clients';
import { slashCommandLine } from './command-line';
import { plainTypedText } from './escape';
import { incomingFiles, type SlackFileInfo } from './files';
import { FORM_CALLBACK_ID, readSubmission } from './forms';
import { onAppHomeOpened } from './home';
import type { InFlight } from './inflight';
import type { LocaleRead, SlackLocales } from './locales';
import { placeId, type SlackMessenger, type SlackPlace } from './messenger';
import { slackSurface } from './surface';
import { ignoreUnclaimedInteractions } from './unclaimed';
import { onLinkShared } from './unfurls';

/** What the Bolt listeners need. */
export interface HandlerDeps {
  runner: CommandRunner<unknown>;
  /** Runs acknowledged commands here (`all`) or queues them for a worker (`web`). */
  handoff: CommandHandoff;
  messenger: SlackMessenger;
  clients: SlackClients;
  /** The people's Slack locales (their reader's language comes first from Slack). */
  locales: SlackLocales;
  /** Exact re-deliveries (same trigger, event or view): remembered for a day. */
  deliveries: DeliveryDeduper;
  /** Double clicks (same person, same button, within the core's window). */
  clicks: ClickGuard;
  inflight: InFlight;
  logger: Logger;
  /** Hosts the bot token may be sent to for file downloads. */
  downloadHosts: Set<string>;
  /** Deckhand's one slash command, without the slash (`SLACK_COMMAND`). */
  slashCommand: string;
  /** The core's cards for posted links (link unfurls). */
  unfurl: AdapterHost['unfurl'];
  /** The core's home view of a person (the Home tab). */
  home: AdapterHost['home'];
}

interface Who {
  teamId: string;
  userId: string;
  userName: string;
}

/** Builds the place of an interaction; a D… channel is private when it is the user's DM with the bot. */
async function placeOf(
  deps: HandlerDeps,
  who: Who,
  channel: string,
  extra: { thread?: string | undefined; responseUrl?: string | undefined; knownPrivate?: boolean },
): Promise<SlackPlace> {
  let isPrivate = extra.knownPrivate ?? false;
  if (!isPrivate && channel.startsWith('D')) {
    isPrivate = (await deps.messenger.directChannel(who.teamId, who.userId)) === channel;
  }
  return {
    teamId: who.teamId,
    channel,
    userId: who.userId,
    isPrivate,
    ...(extra.thread ? { thread: extra.thread } : {}),
    ...(extra.responseUrl ? { responseUrl: extra.responseUrl } : {}),
  };
}

function invocationOf(who: Who, place: SlackPlace, files?: IncomingFile[], locale?: string): Invocation {
  return {
    user: {
      platform: 'slack',
      id: who.userId,
      name: who.userName,
      workspace: who.teamId,
      ...(locale ? { locale } : {}),
    },
    conversation: {
      platform: 'slack',
      workspace: place.teamId,
      channel: place.channel,
      ...(place.thread ? { thread: place.thread } : {}),
    },
    conversationId: placeId(place),
    isPrivate: place.isPrivate,
    ...(files && files.length > 0 ? { files } : {}),
  };
}

/** The place of an interaction and the locale of the person (their cached one read with the claim). */
async function placeAndLocale(
  deps: HandlerDeps,
  who: Who,
  read: LocaleRead,
  channel: string,
  extra: Parameters<typeof placeOf>[3],
): Promise<[SlackPlace, string | undefined]> {
  return Promise.all([placeOf(deps, who, channel, extra), deps.locales.settle(read)]);
}

/** The plain-data reply place of a queued Slack command (a worker's surface is built from it). */
export interface QueuedSlackPlace extends SlackPlace {
  /** The interaction's `trigger_id` (a modal can be opened with it for 3 seconds). */
  triggerId?: string;
  /** The person's Slack locale, when known: the words of a form opened with the trigger. */
  locale?: string;
}

/** Hands an acknowledged command on (to a worker, or to the command runner here). */
function handOff(
  deps: HandlerDeps,
  key: string,
  input: CommandInput,
  invocation: Invocation,
  place: SlackPlace,
  triggerId?: string,
): Promise<void> {
  const locale = invocation.user.locale;
  const queued: QueuedSlackPlace = {
    ...place,
    ...(triggerId ? { triggerId } : {}),
    ...(locale ? { locale } : {}),
  };
  return deps.handoff.submit({ key, platform: 'slack', input, invocation, place: { ...queued } }, () =>
    slackSurface(place, deps, triggerId, locale),
  );
}

/**
 * Claims a delivery. When Deckhand's store is away the claim cannot be recorded: the person is told
 * (privately, without touching Redis) that nothing was done, and false is returned so nothing runs.
 */
async function claim(
  deps: HandlerDeps,
  claims: { claim(key: string): Promise<boolean> },
  key: string,
  who: Who,
  where: { channel: string | undefined; responseUrl?: string | undefined },
): Promise<boolean> {
  try {
    return await claims.claim(key);
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    deps.logger.warn({ key }, 'Slack: store unavailable, request refused');
    if (!where.channel) return false;
    const place: SlackPlace = {
      teamId: who.teamId,
      channel: where.channel,
      userId: who.userId,
      isPrivate: false,
      ...(where.responseUrl ? { responseUrl: where.responseUrl } : {}),
    };
    const card = deps.runner.errorCard('delivery', error, invocationOf(who, place));
    await deps.messenger.postEphemeral(place, card);
    return false;
  }
}

/** The slash commands Deckhand answers (Bolt's pattern for `app.command` would be the same). */
const SLASH_COMMAND = /^\/[\w-]+$/;

/**
 * Slash commands: acknowledged at once (empty 200), then dispatched as the typed text.
 *
 * Registered as global middleware that ends the chain (`app.use`; a middleware that does not call
 * `next` stops Bolt there), not as `app.command`: for every request Bolt copies each listener's
 * middleware chain, runs them all and awaits them together, and those objects outlive the young
 * generation, so they set the pace of the web process's major collections — the ack tail of issue
 * 17. The slash command, the busiest request and the one whose ack matters most, skips all of that;
 * every other request goes on to the listeners unchanged.
 */
function onCommands(app: App, deps: HandlerDeps): void {
  app.use(async (args) => {
    if (!('command' in args) || !SLASH_COMMAND.test(args.command.command)) {
      await args.next();
      return;
    }
    const { ack, command } = args as unknown as SlackCommandMiddlewareArgs;
    await ack();
    deps.inflight.run('command', async () => {
      const who = { teamId: command.team_id, userId: command.user_id, userName: command.user_name };
      const where = { channel: command.channel_id, responseUrl: command.response_url };
      const key = `slack:trigger:${command.trigger_id}`;
      // The cached locale travels with the claim (one round trip).
      const read = deps.locales.start(who.teamId, who.userId);
      if (!(await claim(deps, deps.deliveries, key, who, where))) return;
      const [place, locale] = await placeAndLocale(deps, who, read, command.channel_id, {
        responseUrl: command.response_url,
      });
      const text = slashCommandLine(command.command, plainTypedText(command.text ?? ''), deps.slashCommand);
      const input = { kind: 'text' as const, text };
      const invocation = invocationOf(who, place, undefined, locale);
      await handOff(deps, key, input, invocation, place, command.trigger_id);
    });
  });
}

/**
 * Button clicks: acknowledged at once, then re-dispatched as the stored action for the person who
 * clicked. A re-delivered payload (same trigger) and a double click (same person and button within
 * seconds) run nothing the second time. Link buttons (they open a URL) are only acknowledged.
 *
 * One Bolt listener for both kinds: Bolt runs every listener's middleware chain for every request,
 * and each chain's objects outlive a minor collection, so every listener fewer is less garbage per
 * request for the web process's major collections (the ack latency's tail).
 */
function onActions(app: App, deps: HandlerDeps): void {
  const ours = new RegExp(`^(${escapeRegExp(ACTION_PREFIX)}|${escapeRegExp(LINK_PREFIX)})`);
  app.action<BlockAction<ButtonAction>>(
    { type: 'block_actions', action_id: ours },
    async ({ ack, body, action }) => {
      await ack();
      if (!action.action_id.startsWith(ACTION_PREFIX)) return;
      deps.inflight.run('action', async () => {
        const actionId = action.action_id.slice(ACTION_PREFIX.length);
        const teamId = body.team?.id ?? body.user.team_id ?? '';
        const channel = body.channel?.id ?? (body.container as { channel_id?: string }).channel_id;
        const messageTs = (body.container as { message_ts?: string }).message_ts ?? body.message?.ts ?? '';
        const who = {
          teamId,
          userId: body.user.id,
          userName: body.user.username ?? body.user.name ?? body.user.id,
        };
        const where = { channel, responseUrl: body.response_url };
        const key = `slack:trigger:${body.trigger_id}`;
        const read = deps.locales.start(who.teamId, who.userId);
        if (!(await claim(deps, deps.deliveries, key, who, where))) return;
        if (!channel) return;
        const click = {
          platform: 'slack' as const,
          message: `${teamId}:${channel}:${messageTs}`,
          action: actionId,
          user: body.user.id,
        };
        const clicks = { claim: () => deps.clicks.first(click) };
        if (!(await claim(deps, clicks, `click:${actionId}`, who, where))) {
          deps.logger.debug({ actionId }, 'ignored a double click');
          return;
        }
        const [place, locale] = await placeAndLocale(deps, who, read, channel, {
          thread: body.message?.thread_ts as string | undefined,
          responseUrl: body.response_url,
        });
        const input = { kind: 'action' as const, actionId };
        const invocation = invocationOf(who, place, undefined, locale);
        await handOff(deps, key, input, invocation, place, body.trigger_id);
      });
    },
  );
}

/** Modal submissions: acknowledged (closing the modal), then run as the form's command, once. */
function onForms(app: App, deps: HandlerDeps): void {
  app.view(FORM_CALLBACK_ID, async ({ ack, body, view }) => {
    await ack();
    deps.inflight.run('form', async () => {
      const submission = readSubmission(view);
      const teamId = body.team?.id ?? body.user.team_id ?? view.team_id;
      const who = { teamId, userId: body.user.id, userName: body.user.name ?? body.user.id };
      const where = { channel: submission?.metadata.channel, responseUrl: submission?.metadata.responseUrl };
      const key = `slack:view:${view.id}`;
      const read = deps.locales.start(who.teamId, who.userId);
      if (!(await claim(deps, deps.deliveries, key, who, where))) return;
      if (!submission) return;
      const { metadata, values } = submission;
      const [place, locale] = await placeAndLocale(deps, who, read, metadata.channel, {
        thread: metadata.thread,
        responseUrl: metadata.responseUrl,
      });
      const trigger = 'trigger_id' in body ? body.trigger_id : undefined;
      const input = { kind: 'form' as const, formId: metadata.formId, values };
      await handOff(deps, key, input, invocationOf(who, place, undefined, locale), place, trigger);
    });
  });
}

interface MessageLike {
  type: string;
  subtype?: string;
  text?: string;
  user?: string;
  bot_id?: string;
  channel: string;
  channel_type?: string;
  ts: string;
  thread_ts?: string;
  files?: SlackFileInfo[];
}

/**
 * Messages to the bot (its DM, or an @mention) with files or a command: the text is the command line,
 * the files are handed to the core as streaming references. Events are deduplicated by `event_id`.
 */
function onMessages(app: App, deps: HandlerDeps): void {
  const handle = async (event: MessageLike, eventId: string | undefined, teamId: string) => {
    if (event.bot_id || !event.user) return;
    if (event.subtype && event.subtype !== 'file_share') return;
    const who = { teamId, userId: event.user, userName: event.user };
    const where = { channel: event.channel };
    const key = `slack:event:${eventId ?? `${event.channel}:${event.ts}`}`;
    const read = deps.locales.start(who.teamId, who.userId);
    if (eventId && !(await claim(deps, deps.deliveries, key, who, where))) return;
    const isDm = event.channel_type === 'im';
    const [place, locale] = await placeAndLocale(deps, who, read, event.channel, {
      knownPrivate: isDm,
      thread: isDm ? event.thread_ts : (event.thread_ts ?? event.ts),
    });
    const { token } = await deps.clients.forTeam(teamId);
    const files = incomingFiles(event.files, token, deps.downloadHosts, fetch, teamId);
    const text = plainTypedText((event.text ?? '').replace(/<@[UW][A-Z0-9]+(\|[^>]*)?>/g, ' ')).trim();
    if (!text && files.length === 0) return;
    const line = slashCommandLine(`/${deps.slashCommand}`, text, deps.slashCommand);
    const invocation = invocationOf(who, place, files, locale);
    await handOff(deps, key, { kind: 'text', text: line }, invocation, place);
  };
  // One listener for both (see `onActions`): mentions anywhere, messages only in the bot's DMs.
  app.event(/^(app_mention|message)$/, async ({ event, body, context }) => {
    const message = event as unknown as MessageLike;
    if (message.type === 'message' && message.channel_type !== 'im') return;
    const teamId = context.teamId ?? (body as { team_id?: string }).team_id ?? '';
    const eventId = (body as { event_id?: string }).event_id;
    deps.inflight.run(message.type === 'message' ? 'message' : 'mention', () =>
      handle(message, eventId, teamId),
    );
  });
}

/** Registers every Deckhand listener on a Bolt app. */
export function registerHandlers(app: App, deps: HandlerDeps): void {
  onCommands(app, deps);
  ignoreUnclaimedInteractions(app, deps.logger);
  onActions(app, deps);
  onForms(app, deps);
  onMessages(app, deps);
  onLinkShared(app, deps);
  onAppHomeOpened(app, deps);
  app.error(async (error) => {
    deps.logger.error({ err: error }, 'Slack listener failed');
  });
}
