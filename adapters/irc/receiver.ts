/**
 * What the bot does with lines people send: CTCP, notices, its own lines and every line in the SAL
 * feed channel are ignored; formatting codes are stripped; a line for the bot (command-line.ts) is
 * claimed once (by its `msgid` when the server gives one), checked (gate.ts: no secrets, side effects
 * only for identified accounts) and handed to the command runner or the workers, with a press of
 * `!N` dispatched as its button's action.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { ActionStore } from '../../src/core/actions';
import type { CommandHandoff } from '../../src/core/command-handoff';
import type { CommandInput } from '../../src/core/command-job';
import { StoreUnavailableError } from '../../src/core/errors';
import type { DeliveryDeduper } from '../../src/core/host';
import type { CommandRegistry } from '../../src/core/registry';
import type { IrcButtons } from './buttons';
import { parseIrcLine } from './command-line';
import { pressRefusal, refusal } from './gate';
import type { AccountTracker } from './identity';
import type { IrcLink } from './link';
import type { IrcMessenger } from './messenger';
import { type IrcPlace, invocationOf, ircConversationId, ircSurface, isChannel } from './surface';
import { isCtcp, stripFormatting } from './text';

/** What the receiver needs. */
export interface ReceiverDeps {
  link: IrcLink;
  network: string;
  prefix: string;
  /** True for a channel where the bot answers nothing (the SAL feed, feed.ts). */
  isFeed(target: string): boolean;
  registry: CommandRegistry<unknown>;
  actions: ActionStore;
  handoff: CommandHandoff;
  deduper: DeliveryDeduper;
  accounts: AccountTracker;
  buttons: IrcButtons;
  messenger: IrcMessenger;
  logger: Logger;
}

/** One PRIVMSG as irc-framework reports it. */
interface PrivmsgEvent {
  nick: string;
  target: string;
  message: string;
  tags?: Record<string, string>;
}

async function onPrivmsg(deps: ReceiverDeps, event: PrivmsgEvent): Promise<void> {
  const self = deps.link.client.user.nick;
  if (event.nick === self || isCtcp(event.message) || !event.nick || deps.isFeed(event.target)) return;
  const isPrivate = !isChannel(event.target);
  const groups = new Set(deps.registry.groups());
  const line = parseIrcLine(stripFormatting(event.message), {
    nick: self,
    prefix: deps.prefix,
    isPrivate,
    groups,
  });
  if (line.kind === 'none') return;
  const account = deps.accounts.accountOf(event);
  const place: IrcPlace = {
    network: deps.network,
    target: isPrivate ? event.nick : event.target,
    nick: event.nick,
    ...(account ? { account } : {}),
  };
  const surface = ircSurface(deps.messenger, place);
  const key = `irc:${deps.network}:msg:${event.tags?.msgid ?? randomUUID()}`;
  try {
    if (!(await deps.deduper.claim(key))) return;
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    await surface.reply({ text: error.message, status: 'danger' });
    return;
  }
  let input: CommandInput;
  if (line.kind === 'press') {
    const press = await deps.buttons.press(ircConversationId(deps.network, place.target), line.number);
    if (!press.ok) return void (await surface.reply({ text: press.message, status: 'warning' }));
    const stored = await deps.actions.load(press.actionId);
    const refused = pressRefusal(deps.registry, stored?.command, account !== undefined);
    if (refused) return void (await surface.reply({ text: refused, status: 'warning' }));
    input = { kind: 'action', actionId: press.actionId };
  } else {
    const refused = refusal(deps.registry, line.text, account !== undefined, deps.prefix);
    if (refused) return void (await surface.reply({ text: refused, status: 'warning' }));
    input = { kind: 'text', text: line.text };
  }
  await deps.handoff.submit(
    { key, platform: 'irc', input, invocation: invocationOf(place), place: { ...place } },
    () => surface,
  );
}

/** Installs the receiver on the link's client. */
export function installReceiver(deps: ReceiverDeps): void {
  deps.link.client.on('privmsg', (event: PrivmsgEvent) => {
    onPrivmsg(deps, event).catch((error: unknown) =>
      deps.logger.error({ err: error, from: event.nick }, 'irc: handling a line failed'),
    );
  });
}
