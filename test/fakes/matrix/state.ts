/**
 * The fake homeserver's state: rooms with their members and events, the media repository, sent
 * transactions, and one ordered stream from which `/sync` answers (each item has a position; the
 * `next_batch` token is the last position seen).
 */
import { randomBytes } from 'node:crypto';

/** An event as the homeserver stores it. */
export interface FakeEvent {
  event_id: string;
  room_id: string;
  type: string;
  sender: string;
  content: Record<string, unknown>;
  origin_server_ts: number;
  state_key?: string;
}

/** A room. */
export interface FakeRoom {
  id: string;
  name: string;
  /** Membership by user id. */
  members: Map<string, 'join' | 'invite' | 'leave'>;
  encrypted: boolean;
  /** Who invited the bot (for the invite's stripped state). */
  inviter?: string;
  events: FakeEvent[];
}

/** A file in the media repository. */
export interface FakeMedia {
  mxc: string;
  data: Buffer;
  contentType: string;
  filename?: string;
  uploader: string;
}

/** One item of the sync stream. */
export interface StreamItem {
  position: number;
  kind: 'event' | 'invite';
  roomId: string;
  event?: FakeEvent;
}

/** See the module comment. */
export class HomeserverState {
  readonly rooms = new Map<string, FakeRoom>();
  readonly media = new Map<string, FakeMedia>();
  readonly stream: StreamItem[] = [];
  /** `token txnId` → event id: a repeated transaction is the same event. */
  readonly transactions = new Map<string, string>();
  private position = 0;
  private readonly waiters = new Set<() => void>();

  constructor(readonly serverName: string) {}

  id(sigil: string): string {
    return `${sigil}${randomBytes(9).toString('base64url')}`;
  }

  /** The current stream position. */
  get head(): number {
    return this.position;
  }

  /** Calls `wake` at the next stream item. */
  onNext(wake: () => void): () => void {
    this.waiters.add(wake);
    return () => this.waiters.delete(wake);
  }

  private push(item: Omit<StreamItem, 'position'>): void {
    this.position += 1;
    this.stream.push({ ...item, position: this.position });
    for (const wake of [...this.waiters]) wake();
    this.waiters.clear();
  }

  createRoom(creator: string, name: string, options: { encrypted?: boolean } = {}): FakeRoom {
    const room: FakeRoom = {
      id: `${this.id('!')}:${this.serverName}`,
      name,
      members: new Map([[creator, 'join']]),
      encrypted: options.encrypted === true,
      events: [],
    };
    this.rooms.set(room.id, room);
    this.addEvent(room, creator, 'm.room.create', { room_version: '11' }, '');
    this.addEvent(room, creator, 'm.room.member', { membership: 'join' }, creator);
    this.addEvent(room, creator, 'm.room.name', { name }, '');
    if (room.encrypted)
      this.addEvent(room, creator, 'm.room.encryption', { algorithm: 'm.megolm.v1.aes-sha2' }, '');
    return room;
  }

  /** Stores an event and streams it. */
  addEvent(
    room: FakeRoom,
    sender: string,
    type: string,
    content: Record<string, unknown>,
    stateKey?: string,
  ): FakeEvent {
    const event: FakeEvent = {
      event_id: `${this.id('$')}`,
      room_id: room.id,
      type,
      sender,
      content,
      origin_server_ts: Date.now(),
      ...(stateKey !== undefined ? { state_key: stateKey } : {}),
    };
    room.events.push(event);
    this.push({ kind: 'event', roomId: room.id, event });
    return event;
  }

  /** `user` invites `invitee` (the bot): streamed as an invite. */
  invite(room: FakeRoom, user: string, invitee: string): void {
    room.members.set(invitee, 'invite');
    room.inviter = user;
    this.addEvent(room, user, 'm.room.member', { membership: 'invite' }, invitee);
    this.push({ kind: 'invite', roomId: room.id });
  }

  setMembership(room: FakeRoom, user: string, membership: 'join' | 'leave', reason?: string): void {
    room.members.set(user, membership);
    this.addEvent(room, user, 'm.room.member', { membership, ...(reason ? { reason } : {}) }, user);
  }

  /** The stripped state an invitee sees (room create, name, encryption, the invite). */
  strippedState(room: FakeRoom, invitee: string): Record<string, unknown>[] {
    const wanted = new Set(['m.room.create', 'm.room.name', 'm.room.encryption', 'm.room.join_rules']);
    const state = room.events
      .filter((e) => e.state_key !== undefined && wanted.has(e.type))
      .map((e) => ({ type: e.type, state_key: e.state_key, sender: e.sender, content: e.content }));
    state.push({
      type: 'm.room.member',
      state_key: invitee,
      sender: room.inviter ?? '',
      content: { membership: 'invite' },
    });
    return state;
  }

  /** Stores bytes in the media repository. */
  upload(data: Buffer, contentType: string, uploader: string, filename?: string): FakeMedia {
    const mxc = `mxc://${this.serverName}/${randomBytes(12).toString('base64url')}`;
    const media: FakeMedia = { mxc, data, contentType, uploader, ...(filename ? { filename } : {}) };
    this.media.set(mxc, media);
    return media;
  }
}
