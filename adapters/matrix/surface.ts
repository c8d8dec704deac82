/**
 * The reply surface of one Matrix invocation. In a group room, the answer goes into the thread of
 * the person's command (`m.thread`; into the command's own thread when it was typed in one), so a
 * busy room stays readable; in a direct room it is a message of its own. Private cards go to the
 * person's direct room with the bot, never to the group room. Forms are asked in the direct room.
 *
 * Invocations from Matrix are never private in the core's sense: room text is kept on the
 * homeserver in plain text (the bot does no end-to-end encryption), so a secret typed in any room,
 * direct rooms included, is refused and the one-time secret page is offered instead.
 */
import type { CardSurface } from '../../src/core/card-surface';
import type { Invocation, MessageHandle } from '../../src/core/command';
import { parseConversationId } from '../../src/core/conversation';
import { conversationLanguage, type LanguageStore, readerLanguage } from '../../src/core/languages';
import type { Card } from '../../src/core/reply';
import { type Translator, t, translator } from '../../src/i18n/translate';
import type { MatrixForms } from './forms';
import { matrixConversationId } from './ids';
import type { MatrixMessenger } from './messenger';
import type { BotRooms } from './rooms';

/** Where an invocation happened, as plain data (queued with the command). */
export interface MatrixPlace {
  botUserId: string;
  roomId: string;
  userId: string;
  /** The person's display name, when known. */
  userName?: string;
  /** The event that carried the command (replies thread under it). */
  eventId?: string;
  /** The thread the command was typed in. */
  threadRoot?: string;
  /** A direct room with the bot. */
  direct: boolean;
}

/** What a surface needs. */
export interface SurfaceDeps {
  messenger: MatrixMessenger;
  rooms: BotRooms;
  forms: MatrixForms;
  /** The `/language` settings: Matrix says no one's language, so the settings decide. */
  languages?: LanguageStore | undefined;
}

/** The invocation of a person in a room. */
export function invocationOf(place: MatrixPlace): Invocation {
  const conversationId = matrixConversationId(place.botUserId, place.roomId);
  return {
    user: {
      platform: 'matrix',
      id: place.userId,
      name: place.userName ?? place.userId,
      workspace: place.botUserId,
    },
    conversation: parseConversationId(conversationId),
    conversationId,
    isPrivate: false,
  };
}

/** The language of what only the person at `place` reads: their setting, else the room's, else English. */
export function readerLanguageAt(deps: Pick<SurfaceDeps, 'languages'>, place: MatrixPlace): Promise<string> {
  const invocation = invocationOf(place);
  return readerLanguage(invocation.user, invocation.conversationId, deps.languages);
}

/**
 * The words of what the adapter itself answers at `place`: the person's language in their direct
 * room, the room's in a group room (everyone there reads it).
 */
export async function wordsAt(deps: Pick<SurfaceDeps, 'languages'>, place: MatrixPlace): Promise<Translator> {
  if (place.direct) return translator(await readerLanguageAt(deps, place));
  const conversationId = matrixConversationId(place.botUserId, place.roomId);
  return translator(await conversationLanguage(conversationId, deps.languages));
}

/** Builds the {@link CardSurface} of one invocation. */
export function matrixSurface(deps: SurfaceDeps, place: MatrixPlace): CardSurface {
  const conversationId = matrixConversationId(place.botUserId, place.roomId);
  const thread = place.direct ? undefined : (place.threadRoot ?? place.eventId);
  /** Set once the room was told the answer went to the direct room (said once per invocation). */
  let told = false;
  const privately = async (card: Card): Promise<MessageHandle> => {
    const roomId = await deps.rooms.directRoom(place.userId);
    const handle = await deps.messenger.send(matrixConversationId(place.botUserId, roomId), roomId, card);
    if (!told) {
      told = true;
      // Said to the person, in the language of the private answer (theirs).
      const note = t(card.locale, 'matrix-answer-in-direct-room', place.userName ?? place.userId);
      await deps.messenger.send(
        conversationId,
        place.roomId,
        { text: note, status: 'info', ...(card.locale ? { locale: card.locale } : {}) },
        thread,
      );
    }
    return handle;
  };
  return {
    reply: (card) =>
      card.visibility === 'private' && !place.direct
        ? privately(card)
        : deps.messenger.send(conversationId, place.roomId, card, thread),
    update: (handle, card) => deps.messenger.update(handle, card),
    // A form is the person's only: asked in their language.
    openForm: async (formId, form) =>
      deps.forms.open(formId, form, place.userId, await readerLanguageAt(deps, place)),
  };
}
