/** What the fake Discord remembers: messages the bot posted or edited, and interaction responses. */
import { randomBytes } from 'node:crypto';

/** A message as the fake keeps it (the fields tests look at). */
export interface FakeMessage {
  id: string;
  channel_id: string;
  content: string;
  embeds: Record<string, unknown>[];
  components: Record<string, unknown>[];
  attachments: { id: string; filename: string; size: number; content: string; data: Buffer }[];
  flags: number;
  /** `bot` = a channel message posted with the bot token; `interaction` = an interaction reply. */
  via: 'bot' | 'interaction';
  /** The `nonce` it was created with (Discord echoes it in the create answer). */
  nonce?: string;
  /** Every body that created or edited this message, in order. */
  history: Record<string, unknown>[];
  deleted: boolean;
}

/** One interaction the fake handed to the bot and how it was answered. */
export interface FakeInteraction {
  id: string;
  token: string;
  applicationId: string;
  channelId: string;
  /** When it was dispatched (ms). */
  sentAt: number;
  /** Initial callbacks received (more than one is a protocol error). */
  callbacks: { body: Record<string, unknown>; at: number }[];
  /** Id of the `@original` message once there is one. */
  original?: string;
  /** Follow-up message ids. */
  followups: string[];
  /** For a component interaction: the message the component is on. */
  componentMessage?: string;
  /** Resolves once the first answer arrived (REST callback or HTTP response). */
  answered: Promise<void>;
  markAnswered: () => void;
}

let counter = 0n;
const EPOCH = 1420070400000n;

/** A fresh snowflake (increasing, like Discord's). */
export function snowflake(): string {
  counter += 1n;
  return String(((BigInt(Date.now()) - EPOCH) << 22n) + (counter % 4096n));
}

/** A fresh interaction token. */
export function interactionToken(): string {
  return `aW50ZXJhY3Rpb24${randomBytes(24).toString('base64url')}`;
}

/** Messages and interactions of one fake. */
export class FakeStore {
  readonly messages = new Map<string, FakeMessage>();
  readonly interactions = new Map<string, FakeInteraction>();
  readonly byToken = new Map<string, FakeInteraction>();
  /** Messages by `author:nonce`, with when they were created. */
  private readonly nonces = new Map<string, { message: FakeMessage; at: number }>();

  /** Remembers the nonce a message was created with. */
  rememberNonce(author: string, nonce: string, message: FakeMessage): void {
    message.nonce = nonce;
    this.nonces.set(`${author}:${nonce}`, { message, at: Date.now() });
  }

  /** The message `author` created with `nonce` within the last `windowMs`, if any. */
  byNonce(author: string, nonce: string, windowMs: number): FakeMessage | undefined {
    const entry = this.nonces.get(`${author}:${nonce}`);
    return entry && Date.now() - entry.at <= windowMs ? entry.message : undefined;
  }

  /** Creates or edits a message from a request body (JSON or `payload_json`) and its files. */
  write(
    existing: FakeMessage | undefined,
    init: { channelId: string; via: FakeMessage['via'] },
    body: Record<string, unknown>,
    files: { name: string; data: Buffer }[],
  ): FakeMessage {
    const message: FakeMessage = existing ?? {
      id: snowflake(),
      channel_id: init.channelId,
      content: '',
      embeds: [],
      components: [],
      attachments: [],
      flags: 0,
      via: init.via,
      history: [],
      deleted: false,
    };
    if (typeof body.content === 'string') message.content = body.content;
    if (Array.isArray(body.embeds)) message.embeds = body.embeds as Record<string, unknown>[];
    if (Array.isArray(body.components)) message.components = body.components as Record<string, unknown>[];
    if (typeof body.flags === 'number' && !existing) message.flags = body.flags;
    if (Array.isArray(body.attachments) || files.length > 0) {
      const keep = Array.isArray(body.attachments)
        ? message.attachments.filter((a) =>
            (body.attachments as { id: string }[]).some((wanted) => String(wanted.id) === a.id),
          )
        : message.attachments;
      const added = files.map((file) => ({
        id: snowflake(),
        filename: file.name,
        size: file.data.length,
        content: file.data.toString('utf8'),
        data: file.data,
      }));
      message.attachments = [...keep, ...added];
    }
    message.history.push(body);
    this.messages.set(message.id, message);
    return message;
  }

  /** The JSON Discord answers with for a message. */
  static toJson(message: FakeMessage, botId: string): Record<string, unknown> {
    return {
      id: message.id,
      channel_id: message.channel_id,
      type: 0,
      content: message.content,
      embeds: message.embeds,
      components: message.components,
      attachments: message.attachments.map((a) => ({
        id: a.id,
        filename: a.filename,
        size: a.size,
        url: `https://cdn.example.invalid/attachments/${a.id}/${a.filename}`,
        proxy_url: `https://media.example.invalid/attachments/${a.id}/${a.filename}`,
      })),
      flags: message.flags,
      ...(message.nonce !== undefined ? { nonce: message.nonce } : {}),
      author: botUser(botId),
      timestamp: new Date().toISOString(),
      edited_timestamp: message.history.length > 1 ? new Date().toISOString() : null,
      mentions: [],
      mention_roles: [],
      mention_everyone: false,
      pinned: false,
      tts: false,
    };
  }
}

/** The bot's user object, as Discord shows it in messages, mentions and READY. */
export function botUser(botId: string) {
  return { id: botId, username: 'Deckhand', discriminator: '0', global_name: null, avatar: null, bot: true };
}
