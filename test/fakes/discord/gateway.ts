/**
 * The fake gateway: a `ws` server speaking enough of Discord's gateway (v10, JSON text frames) for
 * discord.js to connect, stay connected and receive dispatches: HELLO, IDENTIFY → READY (and
 * GUILD_CREATE with the Guilds intent), heartbeats → ACK, RESUME → replay + RESUMED; MESSAGE_CREATE
 * only to sessions with the message intents, the content empty as Discord sends it without the
 * privileged Message Content intent (unless the message mentions the bot or is a DM).
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { botUser } from './store';

/** Ids the gateway announces. */
export interface GatewayIdentity {
  botId: string;
  applicationId: string;
  guildId: string;
  channelId: string;
}

interface Frame {
  op: number;
  d?: unknown;
  s?: number | null;
  t?: string | null;
}

/** One gateway session (a connected client). */
interface Session {
  socket: WebSocket;
  id: string;
  identified: boolean;
  /** The intents it identified with. */
  intents: number;
}

/** Gateway intents (https://discord.com/developers/docs/events/gateway#gateway-intents). */
const INTENT = { guildMessages: 1 << 9, directMessages: 1 << 12, messageContent: 1 << 15 };

/** The fake gateway attached to the fake's HTTP server. */
export class FakeGateway {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sessions = new Set<Session>();
  private readonly log: Frame[] = [];
  private seq = 0;
  private readyWaiters: (() => void)[] = [];
  /** IDENTIFY payloads received. */
  readonly identifies: Record<string, unknown>[] = [];
  /** RESUME payloads received. */
  readonly resumes: Record<string, unknown>[] = [];
  /** Heartbeats received. */
  heartbeats = 0;

  constructor(
    private readonly identity: GatewayIdentity,
    private readonly url: () => string,
    private readonly heartbeatInterval = 5000,
  ) {}

  /** Takes over an HTTP upgrade request. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
  }

  /** Resolves once a client has identified (READY sent). */
  whenReady(): Promise<void> {
    if ([...this.sessions].some((s) => s.identified)) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Sends a dispatch event to every identified session; returns its sequence number. */
  dispatch(type: string, data: unknown): number {
    this.seq += 1;
    const frame: Frame = { op: 0, t: type, s: this.seq, d: data };
    this.log.push(frame);
    for (const session of this.sessions) if (session.identified) this.send(session.socket, frame);
    return this.seq;
  }

  /**
   * Delivers a user's message (MESSAGE_CREATE) as Discord does: to sessions with GuildMessages (a
   * guild message) or DirectMessages (a DM), with `content`, `embeds`, `attachments` and
   * `components` emptied unless the bot is mentioned, it is a DM or the session has Message Content.
   */
  dispatchMessage(
    message: { guild_id?: string; content: string; mentions: { id: string }[] } & Record<string, unknown>,
  ): void {
    this.seq += 1;
    const mentioned = message.mentions.some((user) => user.id === this.identity.botId);
    const needed = message.guild_id ? INTENT.guildMessages : INTENT.directMessages;
    for (const session of this.sessions) {
      if (!session.identified || !(session.intents & needed)) continue;
      const readable = mentioned || !message.guild_id || Boolean(session.intents & INTENT.messageContent);
      const data = readable
        ? message
        : { ...message, content: '', embeds: [], attachments: [], components: [] };
      this.send(session.socket, { op: 0, t: 'MESSAGE_CREATE', s: this.seq, d: data });
    }
  }

  /** Closes every connection with a resumable code (the client reconnects and resumes). */
  dropConnections(code = 4000): void {
    for (const session of this.sessions) session.socket.close(code, 'fake: connection dropped');
  }

  /** Number of identified sessions. */
  get connected(): number {
    return [...this.sessions].filter((s) => s.identified).length;
  }

  async close(): Promise<void> {
    for (const session of this.sessions) session.socket.terminate();
    this.sessions.clear();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private accept(socket: WebSocket): void {
    const session: Session = {
      socket,
      id: `session-${Math.random().toString(36).slice(2)}`,
      identified: false,
      intents: 0,
    };
    this.sessions.add(session);
    socket.on('close', () => this.sessions.delete(session));
    socket.on('message', (raw, isBinary) => {
      if (isBinary) return;
      let frame: Frame;
      try {
        frame = JSON.parse(String(raw)) as Frame;
      } catch {
        socket.close(4002, 'Error while decoding payload.');
        return;
      }
      this.onFrame(session, frame);
    });
    this.send(socket, { op: 10, d: { heartbeat_interval: this.heartbeatInterval }, s: null, t: null });
  }

  private onFrame(session: Session, frame: Frame): void {
    switch (frame.op) {
      case 1:
        this.heartbeats += 1;
        this.send(session.socket, { op: 11, s: null, t: null });
        return;
      case 2:
        this.identify(session, frame.d as Record<string, unknown>);
        return;
      case 6:
        this.resume(session, frame.d as Record<string, unknown>);
        return;
      default:
        return;
    }
  }

  private identify(session: Session, data: Record<string, unknown>): void {
    this.identifies.push(data);
    const { botId, applicationId, guildId, channelId } = this.identity;
    session.identified = true;
    session.intents = Number(data.intents ?? 0);
    this.seq += 1;
    const ready: Frame = {
      op: 0,
      t: 'READY',
      s: this.seq,
      d: {
        v: 10,
        user: { ...botUser(botId), flags: 0 },
        guilds: [{ id: guildId, unavailable: true }],
        session_id: session.id,
        session_type: 'normal',
        resume_gateway_url: this.url(),
        shard: (data.shard as number[] | undefined) ?? [0, 1],
        application: { id: applicationId, flags: 0 },
        private_channels: [],
        relationships: [],
        user_settings: {},
        presences: [],
        guild_join_requests: [],
        geo_ordered_rtc_regions: [],
      },
    };
    this.send(session.socket, ready);
    const intents = Number(data.intents ?? 0);
    if (intents & 1) {
      this.seq += 1;
      this.send(session.socket, {
        op: 0,
        t: 'GUILD_CREATE',
        s: this.seq,
        d: fakeGuild(guildId, channelId, botId),
      });
    }
    for (const resolve of this.readyWaiters.splice(0)) resolve();
  }

  private resume(session: Session, data: Record<string, unknown>): void {
    this.resumes.push(data);
    session.identified = true;
    const after = Number(data.seq ?? 0);
    for (const frame of this.log) if ((frame.s ?? 0) > after) this.send(session.socket, frame);
    this.seq += 1;
    this.send(session.socket, { op: 0, t: 'RESUMED', s: this.seq, d: {} });
    for (const resolve of this.readyWaiters.splice(0)) resolve();
  }

  private send(socket: WebSocket, frame: Frame): void {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  }
}

function fakeGuild(guildId: string, channelId: string, botId: string) {
  return {
    id: guildId,
    name: 'Deckhand test guild',
    icon: null,
    owner_id: botId,
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    features: [],
    mfa_level: 0,
    system_channel_id: null,
    system_channel_flags: 0,
    rules_channel_id: null,
    vanity_url_code: null,
    description: null,
    banner: null,
    premium_tier: 0,
    preferred_locale: 'en-US',
    public_updates_channel_id: null,
    nsfw_level: 0,
    premium_progress_bar_enabled: false,
    joined_at: new Date().toISOString(),
    large: false,
    unavailable: false,
    member_count: 2,
    roles: [
      {
        id: guildId,
        name: '@everyone',
        color: 0,
        hoist: false,
        position: 0,
        permissions: '1071698660929',
        managed: false,
        mentionable: false,
        flags: 0,
      },
    ],
    emojis: [],
    stickers: [],
    members: [],
    channels: [
      {
        id: channelId,
        type: 0,
        guild_id: guildId,
        name: 'ops',
        position: 0,
        permission_overwrites: [],
        nsfw: false,
        parent_id: null,
      },
    ],
    threads: [],
    presences: [],
    voice_states: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}
