/**
 * Room upgrades: when a room is upgraded (a new room version), its old room ends with an
 * `m.room.tombstone` state event naming the `replacement_room`. Deckhand joins the replacement (it is
 * usually invited there by the upgrade; a room it may join without one works too) and moves what it
 * keeps for the old room — binding, time zone, subscriptions, digest — to the new one, as it follows a
 * Telegram group that became a supergroup. When it cannot join, the old room is told to invite it.
 */
import type { Logger } from 'pino';
import type { ConversationMover } from '../../src/core/host';
import type { Card } from '../../src/core/reply';
import { t } from '../../src/i18n/translate';
import { matrixConversationId } from './ids';
import type { BotRooms } from './rooms';

/** What following an upgrade needs. */
export interface UpgradeDeps {
  botUserId: string;
  rooms: BotRooms;
  conversations?: ConversationMover | undefined;
  /** Posts a card in a room. */
  post(roomId: string, card: Card): Promise<unknown>;
  logger: Logger;
}

/** Follows the upgrade of `roomId` to `replacement`. */
export async function followUpgrade(deps: UpgradeDeps, roomId: string, replacement: string): Promise<void> {
  try {
    await deps.rooms.join(replacement);
  } catch (error) {
    deps.logger.warn(
      { err: error, from: roomId, to: replacement },
      'matrix: could not join the upgraded room',
    );
    await deps.post(roomId, {
      // Said to the whole room, whose language Matrix does not say: English.
      text: t(undefined, 'matrix-upgrade-not-followed'),
      status: 'warning',
    });
  }
  const from = matrixConversationId(deps.botUserId, roomId);
  const to = matrixConversationId(deps.botUserId, replacement);
  const moved = (await deps.conversations?.move(from, to)) ?? [];
  deps.logger.info({ from, to, moved }, 'matrix room upgraded: followed it');
}
