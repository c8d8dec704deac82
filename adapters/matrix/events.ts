/**
 * What the bot does with the events sync brings, one room at a time (a room's events in order;
 * rooms side by side):
 * 1. its own events and repeats (the same event id, seen before by any process) are dropped;
 * 2. an invitation is accepted when it comes from an allowed server to an unencrypted room, and
 *    refused with a reason the inviter sees otherwise; a room that turns encryption on is told why
 *    the bot leaves, and left; an upgraded room is followed to its replacement (./upgrades.ts);
 * 3. a reaction with a number on a card presses that button, as the person who reacted;
 * 4. a message is a command (`!deploy mytool`, a file's caption), a press (`!2`), an answer to an
 *    open form in a direct room, or nothing for the bot; a notice (what bots post) is never answered.
 */

import type { MatrixClient } from 'matrix-js-sdk';
import type { Logger } from 'pino';
import type { ClickGuard } from '../../src/core/clicks';
import type { CommandHandoff } from '../../src/core/command-handoff';
import type { CommandInput } from '../../src/core/command-job';
import type { ConversationMover, DeliveryDeduper } from '../../src/core/host';
import { type CardButtons, numberOfKey } from './buttons';
import { type LineContext, parseLine, withoutReplyFallback } from './command-line';
import { fileOf, incomingFile } from './files';
import { matrixConversationId } from './ids';
import { ENCRYPTED_ROOM, type Invitation, refusal } from './rooms';
import { invocationOf, type MatrixPlace, matrixSurface, type SurfaceDeps, wordsAt } from './surface';
import { followUpgrade } from './upgrades';

/** A room event as sync delivers it. */
export interface SyncedEvent {
  event_id: string;
  type: string;
  sender: string;
  content: Record<string, unknown>;
  state_key?: string;
}

/** What the event handling needs. */
export interface EventDeps extends SurfaceDeps {
  client: MatrixClient;
  botUserId: string;
  handoff: CommandHandoff;
  deduper: DeliveryDeduper;
  clicks: ClickGuard;
  buttons: CardButtons;
  allowedServers: readonly string[];
  line: Omit<LineContext, 'direct'>;
  /** Moves what is kept for a room to its replacement (a room upgrade). */
  conversations?: ConversationMover | undefined;
  logger: Logger;
}

/** The event types the bot acts on (the others are not even claimed). */
const HANDLED = new Set(['m.room.message', 'm.reaction', 'm.room.encryption', 'm.room.tombstone']);

type Relation = {
  rel_type?: string;
  event_id?: string;
  key?: string;
  'm.in_reply_to'?: { event_id?: string };
};

/** Accepts or refuses an invitation (see the module comment). */
export async function onInvite(deps: EventDeps, invitation: Invitation): Promise<void> {
  const reason = refusal(invitation, deps.allowedServers);
  if (reason) {
    deps.logger.info(
      { room: invitation.roomId, inviter: invitation.inviter, reason },
      'matrix invitation refused',
    );
    await deps.rooms.leave(invitation.roomId, reason);
    return;
  }
  await deps.rooms.join(invitation.roomId);
  if (invitation.direct && invitation.inviter)
    await deps.rooms.rememberDirect(invitation.roomId, invitation.inviter);
  deps.logger.info({ room: invitation.roomId, inviter: invitation.inviter }, 'matrix room joined');
}

function handOff(
  deps: EventDeps,
  key: string,
  input: CommandInput,
  place: MatrixPlace,
  files?: ReturnType<typeof incomingFile>[],
): Promise<void> {
  const invocation = { ...invocationOf(place), ...(files?.length ? { files } : {}) };
  return deps.handoff.submit({ key, platform: 'matrix', input, invocation, place: { ...place } }, () =>
    matrixSurface(deps, place),
  );
}

async function press(
  deps: EventDeps,
  place: MatrixPlace,
  card: string | undefined,
  number: number,
  key: string,
): Promise<void> {
  const found = await deps.buttons.press(place.roomId, card, number);
  if (!found.ok) {
    // Why nothing is pressed, in the words of who reads it (the room, or the person in a direct room).
    const say = await wordsAt(deps, place);
    const why = await deps.buttons.press(place.roomId, card, number, say);
    const text = why.ok ? found.message : why.message;
    await matrixSurface(deps, place).reply({ text, status: 'warning', locale: say.language });
    return;
  }
  const click = {
    platform: 'matrix',
    message: `${place.roomId} ${found.card}`,
    action: found.actionId,
    user: place.userId,
  };
  if (!(await deps.clicks.first(click))) {
    deps.logger.info({ user: place.userId }, 'matrix double press ignored');
    return;
  }
  await handOff(deps, key, { kind: 'action', actionId: found.actionId }, { ...place, eventId: found.card });
}

/** Handles one event of a joined room (see the module comment). */
export async function onRoomEvent(deps: EventDeps, roomId: string, event: SyncedEvent): Promise<void> {
  if (event.sender === deps.botUserId || !HANDLED.has(event.type)) return;
  const key = `matrix:${deps.botUserId}:event:${event.event_id}`;
  if (!(await deps.deduper.claim(key))) return;
  if (event.type === 'm.room.encryption' && event.state_key === '') {
    const direct = await deps.rooms.isDirect(roomId);
    const place: MatrixPlace = { botUserId: deps.botUserId, roomId, userId: event.sender, direct };
    const say = await wordsAt(deps, place);
    await matrixSurface(deps, place).reply({
      text: `${ENCRYPTED_ROOM} ${say.t('matrix-leaving-room')}`,
      status: 'warning',
      locale: say.language,
    });
    await deps.rooms.leave(roomId, ENCRYPTED_ROOM);
    return;
  }
  if (event.type === 'm.room.tombstone' && event.state_key === '') {
    const replacement = event.content.replacement_room;
    if (typeof replacement !== 'string' || !replacement.startsWith('!')) return;
    const post = (target: string, card: Parameters<typeof deps.messenger.send>[2]) =>
      deps.messenger.send(matrixConversationId(deps.botUserId, target), target, card);
    await followUpgrade({ ...deps, post }, roomId, replacement);
    return;
  }
  const relation = (event.content['m.relates_to'] ?? {}) as Relation;
  const direct = await deps.rooms.isDirect(roomId);
  const threadRoot = relation.rel_type === 'm.thread' ? relation.event_id : undefined;
  const place: MatrixPlace = {
    botUserId: deps.botUserId,
    roomId,
    userId: event.sender,
    eventId: event.event_id,
    direct,
    ...(threadRoot ? { threadRoot } : {}),
  };
  if (event.type === 'm.reaction') {
    const number = relation.rel_type === 'm.annotation' ? numberOfKey(relation.key ?? '') : undefined;
    if (number !== undefined && relation.event_id) await press(deps, place, relation.event_id, number, key);
    return;
  }
  if (event.type !== 'm.room.message' || relation.rel_type === 'm.replace') return;
  // Bots post notices, and a notice is never answered (no loops between bots).
  if (event.content.msgtype === 'm.notice') return;
  const file = fileOf(event.content);
  const body = typeof event.content.body === 'string' ? event.content.body : '';
  const text = file ? (file.caption ?? '') : withoutReplyFallback(body);
  const line = parseLine(text, { ...deps.line, direct });
  if (line.kind === 'cancel') {
    if (!(await deps.forms.cancel(event.sender, roomId)) && direct) {
      const say = await wordsAt(deps, place);
      await matrixSurface(deps, place).reply({
        text: say.t('matrix-nothing-to-cancel'),
        status: 'info',
        locale: say.language,
      });
    }
    return;
  }
  if (direct && !file && line.kind !== 'press' && (await deps.forms.answer(event.sender, roomId, text)))
    return;
  if (line.kind === 'press') {
    const card = relation['m.in_reply_to']?.event_id ?? threadRoot;
    await press(deps, place, card, line.number, key);
    return;
  }
  if (line.kind === 'none') {
    if (direct) {
      const say = await wordsAt(deps, place);
      const hint = file ? say.t('matrix-file-caption-hint') : say.t('matrix-help-hint');
      await matrixSurface(deps, place).reply({ text: hint, status: 'info', locale: say.language });
    }
    return;
  }
  const files = file ? [incomingFile(deps.client, file)] : undefined;
  await handOff(deps, key, { kind: 'text', text: line.text }, place, files);
}
