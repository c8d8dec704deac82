/**
 * The bot's rooms beyond what sync says: which rooms are direct rooms (and with whom), each
 * person's direct room with the bot (created on first need: private replies and forms go there),
 * and whether an invitation may be accepted — from an allowed server, to an unencrypted room.
 */
import type { MatrixClient } from 'matrix-js-sdk';
import { Method } from 'matrix-js-sdk';
import type { KeyValueStore } from '../../src/core/host';
import { t } from '../../src/i18n/translate';
import { withRateLimit } from './client';
import { serverOfUser } from './ids';

/**
 * Said to the inviter (the invitation's rejection reason) when the room is encrypted. Matrix says no
 * one's language, and a rejection reason is one text for whoever reads it: English.
 */
export const ENCRYPTED_ROOM = t('en', 'matrix-room-encrypted');

/** An invitation as the sync's stripped state shows it. */
export interface Invitation {
  roomId: string;
  inviter: string | undefined;
  direct: boolean;
  encrypted: boolean;
}

/** Reads an invitation from its stripped state events. */
export function invitationOf(
  roomId: string,
  botUserId: string,
  events: readonly Record<string, unknown>[],
): Invitation {
  const member = events.find((e) => e.type === 'm.room.member' && e.state_key === botUserId);
  const content = (member?.content ?? {}) as { is_direct?: unknown };
  return {
    roomId,
    inviter: typeof member?.sender === 'string' ? member.sender : undefined,
    direct: content.is_direct === true,
    encrypted: events.some((e) => e.type === 'm.room.encryption'),
  };
}

/** Why an invitation is refused (the reason the inviter sees), or `undefined` to accept it. */
export function refusal(invitation: Invitation, allowed: readonly string[]): string | undefined {
  const server = invitation.inviter ? serverOfUser(invitation.inviter) : '';
  if (!allowed.includes(server)) return t('en', 'matrix-invitations-from', allowed.join(', '));
  // A room id names its server up to room version 11; from version 12 it does not.
  const roomServer = invitation.roomId.includes(':') ? serverOfUser(invitation.roomId) : undefined;
  if (roomServer && !allowed.includes(roomServer)) return t('en', 'matrix-rooms-of', allowed.join(', '));
  if (invitation.encrypted) return ENCRYPTED_ROOM;
  return undefined;
}

/** See the module comment. */
export class BotRooms {
  constructor(
    private readonly client: MatrixClient,
    /** Room id → the person of a direct room; `user <id>` → that person's direct room. */
    private readonly store: KeyValueStore,
  ) {}

  /** Joins a room the bot was invited to. */
  async join(roomId: string): Promise<void> {
    await withRateLimit(() =>
      this.client.http.authedRequest(Method.Post, `/rooms/${encodeURIComponent(roomId)}/join`, undefined, {}),
    );
  }

  /** Leaves a room (or rejects its invitation), with a reason members see. */
  async leave(roomId: string, reason: string): Promise<void> {
    await withRateLimit(() =>
      this.client.http.authedRequest(Method.Post, `/rooms/${encodeURIComponent(roomId)}/leave`, undefined, {
        reason,
      }),
    );
  }

  /** Records a direct room with a person. */
  async rememberDirect(roomId: string, userId: string): Promise<void> {
    await this.store.set(roomId, userId);
    await this.store.set(`user ${userId}`, roomId);
  }

  /** True when the room is a direct room with the bot. */
  async isDirect(roomId: string): Promise<boolean> {
    return (await this.store.get(roomId)) !== undefined;
  }

  /** Direct rooms being created in this process, by person (two answers at once open one room). */
  private readonly creating = new Map<string, Promise<string>>();

  /** The person's direct room with the bot, created (and the person invited) when there is none. */
  async directRoom(userId: string): Promise<string> {
    const known = await this.store.get(`user ${userId}`);
    if (known) return known;
    const pending = this.creating.get(userId);
    if (pending) return pending;
    const created = this.createDirect(userId).finally(() => this.creating.delete(userId));
    this.creating.set(userId, created);
    return created;
  }

  private async createDirect(userId: string): Promise<string> {
    const created = await withRateLimit(() =>
      this.client.http.authedRequest<{ room_id: string }>(Method.Post, '/createRoom', undefined, {
        preset: 'trusted_private_chat',
        is_direct: true,
        invite: [userId],
        name: 'Deckhand',
      }),
    );
    await this.rememberDirect(created.room_id, userId);
    return created.room_id;
  }
}
