/**
 * The state of the fake workspace (messages, ephemerals, modals, files, tokens) and what each Web
 * API method does to it, once the request has been validated and authenticated (server.ts).
 */
import { randomBytes } from 'node:crypto';
import type { FakeSocketMode } from './socket';

/** A message in a channel as it stands now, with every version it had. */
export interface FakeMessage {
  channel: string;
  ts: string;
  thread_ts?: string;
  attachments: Record<string, unknown>[];
  /** Message metadata (`event_type`, `event_payload`) it was posted with. */
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  versions: { attachments: Record<string, unknown>[]; at: number }[];
}

/** A chat message or a file share, as the history methods list them. */
type TimelineEntry = FakeMessage | SlackWorkspace['fileShares'][number];

/** Options of the fake. */
export interface FakeSlackOptions {
  botToken?: string;
  appToken?: string;
  teamId?: string;
  botUserId?: string;
  botId?: string;
}

/** The workspace behind the fake Web API. */
export class SlackWorkspace {
  readonly messages = new Map<string, FakeMessage>();
  readonly ephemerals: { channel: string; user: string; body: Record<string, unknown> }[] = [];
  /** `chat.unfurl` calls: the message and its unfurls by URL. */
  readonly unfurls: { channel: string; ts: string; unfurls: Record<string, Record<string, unknown>> }[] = [];
  readonly responses: { id: string; body: Record<string, unknown>; at: number }[] = [];
  readonly views: { id: string; triggerId: string; view: Record<string, unknown> }[] = [];
  /** Every `views.publish`: whose Home tab, and the view as published (the latest one is shown). */
  readonly homeViews: { user: string; view: Record<string, unknown>; at: number }[] = [];
  readonly uploads: {
    channel?: string;
    thread_ts?: string;
    filename: string;
    content: string;
    /** The uploaded bytes as sent (a PNG stays binary). */
    bytes: Buffer;
  }[] = [];
  /**
   * The messages `files.completeUploadExternal` shares files with (Slack posts one in the channel or
   * thread, listing the files); kept apart from {@link messages}, which holds the bot's chat messages.
   */
  readonly fileShares: {
    channel: string;
    ts: string;
    thread_ts?: string;
    files: { id: string; name: string }[];
  }[] = [];
  /** Channels the bot is not a member of (`chat.postMessage` answers `not_in_channel`). */
  readonly notInChannel = new Set<string>();
  readonly options: Required<FakeSlackOptions>;
  /**
   * Each person's Slack language (`users.info` with `include_locale`), by user id; anyone not here
   * has Slack's default, `en-US` (Slack always says a locale when asked).
   */
  readonly locales = new Map<string, string>();
  /** OAuth app credentials the fake accepts in `oauth.v2.access`. */
  readonly oauthApp = { clientId: '1234.5678', clientSecret: 'fake-client-secret' };
  /** Base URL of the fake (set once it listens). */
  url = '';
  protected readonly triggers = new Map<string, number>();
  protected readonly hosted = new Map<string, { name: string; content: Buffer }>();
  protected readonly pendingUploads = new Map<string, { filename: string; content?: Buffer }>();
  /** Bot tokens and their workspace (the configured one, plus tokens issued by OAuth installs). */
  protected readonly tokens = new Map<string, string>();
  /** OAuth codes waiting for `oauth.v2.access`, by code. */
  private readonly codes = new Map<string, { teamId: string; token: string }>();
  private seq = 0;

  constructor(
    options: FakeSlackOptions,
    readonly socket: FakeSocketMode,
  ) {
    this.options = {
      botToken: options.botToken ?? 'xoxb-test-token',
      appToken: options.appToken ?? 'xapp-test-token',
      teamId: options.teamId ?? 'T0TEST',
      botUserId: options.botUserId ?? 'UBOT',
      botId: options.botId ?? 'BBOT',
    };
    this.tokens.set(this.options.botToken, this.options.teamId);
  }

  /**
   * An admin of workspace `teamId` approved the install: returns the `code` Slack would send to the
   * redirect URL; `oauth.v2.access` exchanges it for a new bot token of that workspace.
   */
  approveInstall(teamId: string): { code: string; token: string } {
    const code = `code-${randomBytes(6).toString('hex')}`;
    const token = `xoxb-${teamId}-${randomBytes(6).toString('hex')}`;
    this.codes.set(code, { teamId, token });
    return { code, token };
  }

  /** A new trigger id, valid for 3 seconds like Slack's. */
  issueTrigger(): string {
    const id = `${++this.seq}.${Date.now()}.${randomBytes(4).toString('hex')}`;
    this.triggers.set(id, Date.now());
    return id;
  }

  /** A new `response_url` that records what is posted to it. */
  responseUrl(): string {
    return `${this.url}/response/${randomBytes(6).toString('hex')}`;
  }

  /** Hosts a file as Slack does for shares; returns it as a message event lists it. */
  hostFile(name: string, content: string | Buffer, mimetype = 'text/plain') {
    const id = `F${randomBytes(5).toString('hex').toUpperCase()}`;
    const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
    this.hosted.set(id, { name, content: bytes });
    return {
      id,
      name,
      title: name,
      mimetype,
      size: bytes.length,
      url_private: `${this.url}/files-pri/${id}/${encodeURIComponent(name)}`,
      url_private_download: `${this.url}/files-pri/${id}/download/${encodeURIComponent(name)}`,
    };
  }

  /** Every message posted in `channel` (in posting order). */
  channelMessages(channel: string): FakeMessage[] {
    return [...this.messages.values()].filter((m) => m.channel === channel);
  }

  /**
   * One page of `conversations.history` (newest first) or `conversations.replies` (oldest first), as
   * Slack's method reference describes them (docs.slack.dev/reference/methods/conversations.history):
   * `oldest`/`latest` bound the `ts` (exclusive unless `inclusive`), `limit` (default 100, at most
   * 999) and an opaque `cursor`; metadata only with `include_all_metadata` ("Return all metadata
   * associated with this message").
   */
  /** Chat messages and file shares of a channel, oldest first. */
  private timeline(channel: string): TimelineEntry[] {
    const shares = this.fileShares.filter((f) => f.channel === channel);
    return [...this.channelMessages(channel), ...shares].sort((a, b) => Number(a.ts) - Number(b.ts));
  }

  private page(all: TimelineEntry[], body: Record<string, unknown>): Record<string, unknown> {
    const inclusive = body.inclusive === 'true' || body.inclusive === '1';
    const oldest = body.oldest === undefined ? undefined : Number(body.oldest);
    const latest = body.latest === undefined ? undefined : Number(body.latest);
    const withMetadata = body.include_all_metadata === 'true' || body.include_all_metadata === '1';
    const inRange = all.filter((m) => {
      const ts = Number(m.ts);
      if (oldest !== undefined && (inclusive ? ts < oldest : ts <= oldest)) return false;
      if (latest !== undefined && (inclusive ? ts > latest : ts >= latest)) return false;
      return true;
    });
    const limit = Math.min(999, Math.max(1, Number(body.limit ?? 100)));
    const start = body.cursor ? Number(Buffer.from(String(body.cursor), 'base64').toString().slice(5)) : 0;
    const messages = inRange.slice(start, start + limit).map((m) => ({
      type: 'message',
      ts: m.ts,
      bot_id: this.options.botId,
      text: '',
      ...('files' in m ? { files: m.files } : { attachments: m.attachments }),
      ...(m.thread_ts ? { thread_ts: m.thread_ts } : {}),
      ...(withMetadata && 'metadata' in m && m.metadata ? { metadata: m.metadata } : {}),
    }));
    const more = start + limit < inRange.length;
    return {
      ok: true,
      messages,
      has_more: more,
      pin_count: 0,
      response_metadata: {
        next_cursor: more ? Buffer.from(`next:${start + limit}`).toString('base64') : '',
      },
    };
  }

  private nextTs(): string {
    return `${Math.floor(Date.now() / 1000)}.${String(++this.seq).padStart(6, '0')}`;
  }

  /** Carries out a Web API method that passed validation and authentication. */
  perform(method: string, body: Record<string, unknown>, teamId: string): Record<string, unknown> {
    const o = this.options;
    const channel = String(body.channel ?? '');
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: 'https://deckhand-test.slack.com/',
          team: 'Test',
          user: 'deckhand',
          team_id: teamId,
          user_id: o.botUserId,
          bot_id: o.botId,
        };
      case 'oauth.v2.access': {
        const grant = this.codes.get(String(body.code));
        if (!grant) return { ok: false, error: 'invalid_code' };
        this.codes.delete(String(body.code));
        this.tokens.set(grant.token, grant.teamId);
        return {
          ok: true,
          app_id: 'A0TEST',
          authed_user: { id: 'UINSTALLER' },
          scope: 'commands,chat:write',
          token_type: 'bot',
          access_token: grant.token,
          bot_user_id: o.botUserId,
          team: { id: grant.teamId, name: `Team ${grant.teamId}` },
          enterprise: null,
          is_enterprise_install: false,
        };
      }
      case 'chat.postMessage': {
        if (this.notInChannel.has(channel)) return { ok: false, error: 'not_in_channel' };
        const ts = this.nextTs();
        const attachments = (body.attachments ?? []) as Record<string, unknown>[];
        const metadata = body.metadata as FakeMessage['metadata'] | undefined;
        const message: FakeMessage = {
          channel,
          ts,
          ...(body.thread_ts ? { thread_ts: String(body.thread_ts) } : {}),
          attachments,
          ...(metadata ? { metadata } : {}),
          versions: [{ attachments, at: Date.now() }],
        };
        this.messages.set(`${channel}:${ts}`, message);
        return { ok: true, channel, ts, message: { type: 'message', ts, bot_id: o.botId, attachments } };
      }
      case 'chat.update': {
        const message = this.messages.get(`${channel}:${String(body.ts)}`);
        if (!message) return { ok: false, error: 'message_not_found' };
        message.attachments = (body.attachments ?? []) as Record<string, unknown>[];
        message.versions.push({ attachments: message.attachments, at: Date.now() });
        return { ok: true, channel, ts: message.ts, text: '' };
      }
      case 'chat.unfurl':
        if (!body.unfurls) return { ok: false, error: 'missing_unfurls' };
        this.unfurls.push({
          channel,
          ts: String(body.ts),
          unfurls: body.unfurls as Record<string, Record<string, unknown>>,
        });
        return { ok: true };
      case 'chat.postEphemeral':
        if (this.notInChannel.has(channel)) return { ok: false, error: 'not_in_channel' };
        this.ephemerals.push({ channel, user: String(body.user), body });
        return { ok: true, message_ts: this.nextTs() };
      case 'conversations.history':
        return this.page(
          this.timeline(channel)
            .filter((m) => !m.thread_ts || m.thread_ts === m.ts)
            .reverse(),
          body,
        );
      case 'conversations.replies': {
        const parent = String(body.ts ?? '');
        if (!this.messages.has(`${channel}:${parent}`)) return { ok: false, error: 'thread_not_found' };
        return this.page(
          this.timeline(channel).filter((m) => m.ts === parent || m.thread_ts === parent),
          body,
        );
      }
      case 'chat.getPermalink': {
        // docs.slack.dev/reference/methods/chat.getPermalink: the message's permalink, or
        // `message_not_found`.
        const ts = String(body.message_ts ?? '');
        if (!this.messages.has(`${channel}:${ts}`)) return { ok: false, error: 'message_not_found' };
        return {
          ok: true,
          channel,
          permalink: `https://fake-workspace.slack.com/archives/${channel}/p${ts.replace('.', '')}`,
        };
      }
      case 'users.info': {
        const user = String(body.user ?? '');
        if (!/^[UW][A-Z0-9]+$/.test(user)) return { ok: false, error: 'user_not_found' };
        const locale = body.include_locale === 'true' ? { locale: this.locales.get(user) ?? 'en-US' } : {};
        return { ok: true, user: { id: user, team_id: teamId, name: user.toLowerCase(), ...locale } };
      }
      case 'conversations.open':
        return { ok: true, channel: { id: `D${String(body.users).replace(/^U/, '')}` } };
      case 'views.open': {
        const issued = this.triggers.get(String(body.trigger_id));
        if (issued === undefined) return { ok: false, error: 'invalid_trigger_id' };
        if (Date.now() - issued > 3000) return { ok: false, error: 'expired_trigger_id' };
        const id = `V${randomBytes(4).toString('hex').toUpperCase()}`;
        this.views.push({
          id,
          triggerId: String(body.trigger_id),
          view: body.view as Record<string, unknown>,
        });
        return { ok: true, view: { id, ...(body.view as object), hash: `${Date.now()}.x` } };
      }
      case 'views.publish': {
        const user = String(body.user_id);
        const id = `V${randomBytes(4).toString('hex').toUpperCase()}`;
        this.homeViews.push({ user, view: body.view as Record<string, unknown>, at: Date.now() });
        const view = { ...(body.view as object), id, team_id: teamId, type: 'home', hash: `${Date.now()}.x` };
        return { ok: true, view };
      }
      case 'files.getUploadURLExternal': {
        const id = `F${randomBytes(5).toString('hex').toUpperCase()}`;
        this.pendingUploads.set(id, { filename: String(body.filename) });
        return { ok: true, upload_url: `${this.url}/upload/${id}`, file_id: id };
      }
      case 'files.completeUploadExternal': {
        const files = (body.files ?? []) as { id: string; title?: string }[];
        for (const file of files) {
          const pending = this.pendingUploads.get(file.id);
          if (!pending?.content) return { ok: false, error: 'file_not_found' };
          this.uploads.push({
            ...(body.channel_id ? { channel: String(body.channel_id) } : {}),
            ...(body.thread_ts ? { thread_ts: String(body.thread_ts) } : {}),
            filename: pending.filename,
            content: pending.content.toString('utf8'),
            bytes: pending.content,
          });
        }
        if (body.channel_id) {
          this.fileShares.push({
            channel: String(body.channel_id),
            ts: this.nextTs(),
            ...(body.thread_ts ? { thread_ts: String(body.thread_ts) } : {}),
            files: files.map((f) => ({ id: f.id, name: this.pendingUploads.get(f.id)?.filename ?? '' })),
          });
        }
        return { ok: true, files: files.map((f) => ({ id: f.id, title: f.title ?? '' })) };
      }
      case 'apps.connections.open':
        return { ok: true, url: this.socket.connectUrl(this.url) };
      default:
        return { ok: false, error: 'unknown_method' };
    }
  }
}
