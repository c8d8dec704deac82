/**
 * The reply surface of one IRC invocation: replies go to the channel, or — private ones, and every
 * reply in a private query — to the person's private query. Forms are asked as prompts in the
 * private query (forms.ts); one with a secret field is not asked (the one-time secret page instead).
 */
import type { CardSurface } from '../../src/core/card-surface';
import type { ChatUser, Invocation } from '../../src/core/command';
import { conversationId, parseConversationId } from '../../src/core/conversation';
import { conversationLanguage, type LanguageStore } from '../../src/core/languages';
import { t } from '../../src/i18n/translate';
import type { IrcForms } from './forms';
import type { IrcMessenger } from './messenger';

/** Where an invocation happened, as plain data (queued commands carry it). */
export interface IrcPlace {
  /** The network's id (its server host): the workspace of conversation ids. */
  network: string;
  /** The channel, or the person's nick for a private query. */
  target: string;
  /** The person's nick when they typed the command. */
  nick: string;
  /** Their services account; absent when they were not identified. */
  account?: string;
}

/** The conversation id of a channel or a private query on `network`. */
export function ircConversationId(network: string, target: string): string {
  const channel = /^[#&]/.test(target) ? target.toLowerCase() : target;
  return conversationId({ platform: 'irc', workspace: network, channel });
}

/** True for a channel name (a private query's target is a nick). */
export function isChannel(target: string): boolean {
  return /^[#&]/.test(target);
}

/**
 * The person: their services account when identified (`ada`), else their nick marked as such
 * (`~ada`), which no account can be, so no role given to an account ever reaches a nick.
 */
export function ircUser(place: IrcPlace): ChatUser {
  return {
    platform: 'irc',
    id: place.account ?? `~${place.nick}`,
    name: place.account && place.account !== place.nick ? `${place.nick} (${place.account})` : place.nick,
    workspace: place.network,
  };
}

/** The invocation of a line typed at `place`. */
export function invocationOf(place: IrcPlace): Invocation {
  const id = ircConversationId(place.network, place.target);
  return {
    user: ircUser(place),
    conversation: parseConversationId(id),
    conversationId: id,
    isPrivate: !isChannel(place.target),
  };
}

/**
 * Builds the surface of one invocation (with `forms`, forms are asked in the private query; with
 * `languages`, what the adapter itself says in a channel is in the channel's language).
 */
export function ircSurface(
  messenger: IrcMessenger,
  place: IrcPlace,
  forms?: IrcForms,
  languages?: LanguageStore,
): CardSurface {
  const here = ircConversationId(place.network, place.target);
  const direct = ircConversationId(place.network, place.nick);
  return {
    reply: (card) => messenger.post(card.visibility === 'private' ? direct : here, card),
    update: (handle, card) => messenger.update(handle, card),
    ...(forms
      ? {
          openForm: async (formId, form) => {
            const opened = await forms.open(formId, form, place);
            // The channel is told where the questions went (the person may not see the query at once).
            if (opened && isChannel(place.target)) {
              // Said where everyone reads it: in the channel's language.
              const locale = await conversationLanguage(here, languages);
              const text = t(locale, 'irc-form-asked-privately', place.nick, form.title);
              await messenger.post(here, { text, status: 'info', locale });
            }
            return opened;
          },
        }
      : {}),
  };
}
