/**
 * The people of the fake homeserver and what they see: they invite the bot, write in rooms (plain,
 * as replies, in threads), react, and send files through the media repository; and the bot's
 * messages are read back as a client shows them — edits applied (`m.replace`, latest wins), thread
 * of each message, attached files with their bytes.
 */
import type { FakeHomeserver } from './server';
import type { FakeEvent, FakeRoom } from './state';

/** A message of the bot as a client shows it. */
export interface ShownMessage {
  eventId: string;
  /** Plain body (latest edit). */
  body: string;
  /** HTML body (latest edit), when the message has one. */
  html: string | undefined;
  /** Root of the thread the message is in. */
  thread: string | undefined;
  /** Event the message answers (`m.in_reply_to`). */
  replyTo: string | undefined;
  edits: number;
  /** A file message: name, bytes, MIME type. */
  file?: { name: string; data: Buffer; mimeType: string; msgtype: string };
}

type Json = Record<string, unknown>;

/** See the module comment. */
export class People {
  constructor(private readonly fake: FakeHomeserver) {}

  private room(roomId: string): FakeRoom {
    const room = this.fake.state.rooms.get(roomId);
    if (!room) throw new Error(`no room ${roomId}`);
    return room;
  }

  /** `user` creates a room and invites the bot; resolves with the room id. */
  inviteBot(user: string, name: string, options: { encrypted?: boolean } = {}): string {
    const room = this.fake.state.createRoom(user, name, options);
    this.fake.state.invite(room, user, this.fake.botUserId);
    return room.id;
  }

  /**
   * `user` upgrades a room: a new room (the bot invited there, as the upgrade's "invite members"
   * does) and a tombstone in the old one naming it; resolves with the new room's id.
   */
  upgradeRoom(user: string, roomId: string): string {
    const old = this.room(roomId);
    const replacement = this.fake.state.createRoom(user, old.name);
    this.fake.state.invite(replacement, user, this.fake.botUserId);
    const content = { body: 'This room has been replaced', replacement_room: replacement.id };
    this.fake.state.addEvent(old, user, 'm.room.tombstone', content, '');
    return replacement.id;
  }

  /** `user` joins a room (an invited person accepting). */
  join(user: string, roomId: string): void {
    this.fake.state.setMembership(this.room(roomId), user, 'join');
  }

  /** `user` removes the bot from a room (a kick): the homeserver refuses its later posts there. */
  kickBot(user: string, roomId: string): void {
    const room = this.room(roomId);
    room.members.set(this.fake.botUserId, 'leave');
    const content = { membership: 'leave', reason: 'removed' };
    this.fake.state.addEvent(room, user, 'm.room.member', content, this.fake.botUserId);
  }

  /** True when the bot is a member of the room now. */
  botJoined(roomId: string): boolean {
    return this.room(roomId).members.get(this.fake.botUserId) === 'join';
  }

  /** The bot's membership event in the room (its join or its refusal with a reason). */
  botMembership(roomId: string): FakeEvent | undefined {
    return this.room(roomId).events.findLast(
      (e) => e.type === 'm.room.member' && e.state_key === this.fake.botUserId,
    );
  }

  /** The direct room the bot opened with `user` (created by the bot, with them invited). */
  directRoom(user: string): string | undefined {
    for (const room of this.fake.state.rooms.values()) {
      const created = room.events[0];
      if (created?.sender === this.fake.botUserId && room.members.has(user) && room.members.size === 2)
        return room.id;
    }
    return undefined;
  }

  /** `user` writes `body` in a room; `relates` adds a relation (reply or thread). */
  say(user: string, roomId: string, body: string, relates?: Json): FakeEvent {
    const content: Json = { msgtype: 'm.text', body, ...(relates ? { 'm.relates_to': relates } : {}) };
    return this.fake.state.addEvent(this.room(roomId), user, 'm.room.message', content);
  }

  /** `user` answers an event (a rich reply). */
  reply(user: string, roomId: string, eventId: string, body: string): FakeEvent {
    return this.say(user, roomId, body, { 'm.in_reply_to': { event_id: eventId } });
  }

  /** `user` reacts to an event with `key` (an emoji). */
  react(user: string, roomId: string, eventId: string, key: string): FakeEvent {
    const content = { 'm.relates_to': { rel_type: 'm.annotation', event_id: eventId, key } };
    return this.fake.state.addEvent(this.room(roomId), user, 'm.reaction', content);
  }

  /** `user` sends a file: uploaded to the media repository, then posted as `m.file` with `body` as caption. */
  sendFile(user: string, roomId: string, name: string, data: Buffer, caption?: string): FakeEvent {
    const media = this.fake.state.upload(data, 'application/octet-stream', user, name);
    const content: Json = {
      msgtype: 'm.file',
      body: caption ?? name,
      ...(caption ? { filename: name } : {}),
      url: media.mxc,
      info: { size: data.length, mimetype: 'application/octet-stream' },
    };
    return this.fake.state.addEvent(this.room(roomId), user, 'm.room.message', content);
  }

  /** The bot's messages in a room, oldest first, as a client shows them. */
  botMessages(roomId: string): ShownMessage[] {
    const events = this.room(roomId).events.filter(
      (e) => e.sender === this.fake.botUserId && e.type === 'm.room.message',
    );
    const edits = new Map<string, FakeEvent[]>();
    for (const e of events) {
      const relation = e.content['m.relates_to'] as Json | undefined;
      if (relation?.rel_type === 'm.replace') {
        const target = String(relation.event_id);
        edits.set(target, [...(edits.get(target) ?? []), e]);
      }
    }
    return events
      .filter((e) => (e.content['m.relates_to'] as Json | undefined)?.rel_type !== 'm.replace')
      .map((e) => this.shown(e, edits.get(e.event_id) ?? []));
  }

  private shown(event: FakeEvent, edits: FakeEvent[]): ShownMessage {
    const latest = edits.at(-1);
    const content = (latest ? latest.content['m.new_content'] : event.content) as Json;
    const relation = event.content['m.relates_to'] as Json | undefined;
    const reply = relation?.['m.in_reply_to'] as Json | undefined;
    const shown: ShownMessage = {
      eventId: event.event_id,
      body: String(content.body ?? ''),
      html: typeof content.formatted_body === 'string' ? content.formatted_body : undefined,
      thread: relation?.rel_type === 'm.thread' ? String(relation.event_id) : undefined,
      replyTo: reply ? String(reply.event_id) : undefined,
      edits: edits.length,
    };
    const url = content.url;
    if (typeof url === 'string') {
      const media = this.fake.state.media.get(url);
      shown.file = {
        name: String(content.filename ?? content.body),
        data: media?.data ?? Buffer.alloc(0),
        mimeType: String((content.info as Json | undefined)?.mimetype ?? ''),
        msgtype: String(content.msgtype),
      };
    }
    return shown;
  }
}
