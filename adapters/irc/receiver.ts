/**
 * What the bot does with lines people send: CTCP, notices, its own lines and every line in the SAL
 * feed channel are ignored; formatting codes are stripped; a line for the bot (command-line.ts) is
 * claimed once (by its `msgid` when the server gives one), checked (gate.ts: no secrets, side effects
 * only for identified accounts) and handed to the command runner or the workers, with a press of
 * `!N` dispatched as its button's action. In a private query, a person's open form takes their lines
 * as its answers first (forms.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { ActionStore } from '../../src/core/actions';
import type { CardSurface } from '../../src/core/card-surface';
import type { CommandHandoff } from '../../src/core/command-handoff';
import type { CommandInput } from '../../src/core/command-job';
import { StoreUnavailableError } from '../../src/core/errors';
import type { DeliveryDeduper } from '../../src/core/host';
import { invocationLanguages, type LanguageStore } from '../../src/core/languages';
import type { CommandRegistry } from '../../src/core/registry';
import { type Translator, translator } from '../../src/i18n/translate';
import type { IrcButtons } from './buttons';
import { parseIrcLine } from './command-line';
import { type IrcForms, isCancel } from './forms';
import { pressRefusal, refusal } from './gate';
import type { AccountTracker } from './identity';
import type { IrcLink } from './link';
import type { IrcMessenger } from './messenger';
import { type IrcPlace, invocationOf, ircConversationId, isChannel } from './surface';
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
  forms: IrcForms;
  /** The reply surface of an invocation at `place`. */
  surfaceOf(place: IrcPlace): CardSurface;
  /** The `/language` settings: IRC says no one's language, so the settings decide. */
  languages?: LanguageStore | undefined;
  logger: Logger;
}

/** One PRIVMSG as irc-framework reports it. */
interface PrivmsgEvent {
  nick: string;
  target: string;
  message: string;
  tags?: Record<string, string>;
}

/**
 * The words of what the adapter itself answers at `place`: the person's language in a private query,
 * the channel's in a channel (everyone there reads it).
 */
async function wordsAt(deps: ReceiverDeps, place: IrcPlace): Promise<Translator> {
  const invocation = invocationOf(place);
  const languages = await invocationLanguages(invocation, deps.languages);
  return translator(invocation.isPrivate ? languages.reader : languages.conversation);
}

async function onPrivmsg(deps: ReceiverDeps, event: PrivmsgEvent): Promise<void> {
  const self = deps.link.client.user.nick;
  if (event.nick === self || isCtcp(event.message) || !event.nick || deps.isFeed(event.target)) return;
  const isPrivate = !isChannel(event.target);
  const groups = new Set(deps.registry.groups());
  const text = stripFormatting(event.message);
  const line = parseIrcLine(text, { nick: self, prefix: deps.prefix, isPrivate, groups });
  if (line.kind === 'none') return;
  const account = deps.accounts.accountOf(event);
  const place: IrcPlace = {
    network: deps.network,
    target: isPrivate ? event.nick : event.target,
    nick: event.nick,
    ...(account ? { account } : {}),
  };
  const surface = deps.surfaceOf(place);
  const key = `irc:${deps.network}:msg:${event.tags?.msgid ?? randomUUID()}`;
  try {
    if (!(await deps.deduper.claim(key))) return;
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    await surface.reply({ text: error.message, status: 'danger' });
    return;
  }
  if (isPrivate && isCancel(text, deps.prefix) && (await deps.forms.cancel(place))) return;
  if (isPrivate && (await deps.forms.answer(place, text))) return;
  let input: CommandInput;
  if (line.kind === 'press') {
    const conversation = ircConversationId(deps.network, place.target);
    const press = await deps.buttons.press(conversation, line.number);
    if (!press.ok) {
      const say = await wordsAt(deps, place);
      const again = await deps.buttons.press(conversation, line.number, say);
      const text = again.ok ? press.message : again.message;
      return void (await surface.reply({ text, status: 'warning', locale: say.language }));
    }
    const stored = await deps.actions.load(press.actionId);
    if (pressRefusal(deps.registry, stored?.command, account !== undefined)) {
      const say = await wordsAt(deps, place);
      const refused = pressRefusal(deps.registry, stored?.command, account !== undefined, say) ?? '';
      return void (await surface.reply({ text: refused, status: 'warning', locale: say.language }));
    }
    input = { kind: 'action', actionId: press.actionId };
  } else {
    const identified = account !== undefined;
    if (refusal(deps.registry, line.text, identified, deps.prefix)) {
      const say = await wordsAt(deps, place);
      const refused = refusal(deps.registry, line.text, identified, deps.prefix, say) ?? '';
      return void (await surface.reply({ text: refused, status: 'warning', locale: say.language }));
    }
    input = { kind: 'text', text: line.text };
  }
  await deps.handoff.submit(
    { key, platform: 'irc', input, invocation: invocationOf(place), place: { ...place } },
    () => surface,
  );
}

/** An installed receiver. */
export interface Receiver {
  /** Resolves once every line received so far has been handled (its command run, in an `all` process). */
  settled(): Promise<void>;
}

/** Installs the receiver on the link's client. */
export function installReceiver(deps: ReceiverDeps): Receiver {
  const handling = new Set<Promise<void>>();
  deps.link.client.on('privmsg', (event: PrivmsgEvent) => {
    const handled = onPrivmsg(deps, event).catch((error: unknown) =>
      deps.logger.error({ err: error, from: event.nick }, 'irc: handling a line failed'),
    );
    handling.add(handled);
    void handled.finally(() => handling.delete(handled));
  });
  return {
    async settled() {
      while (handling.size > 0) await Promise.all([...handling]);
    },
  };
}
