/**
 * What Slack sends to the bot, built like Slack builds it: signed slash commands, `block_actions`
 * and `view_submission` payloads, and Events API callbacks — over HTTP (signed with the signing
 * secret, `v0:{ts}:{body}` HMAC-SHA256) or as Socket Mode envelopes.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { FakeMessage, FakeSlack } from './server';

/** A Slack user clicking and typing. */
export interface SlackActor {
  id: string;
  name: string;
}

/** Where the bot listens. */
export type DriverTarget = { kind: 'http'; url: string; signingSecret: string } | { kind: 'socket' };

/** How one delivery went: HTTP status (200 for an acknowledged envelope) and time to the answer. */
export interface Delivery {
  status: number;
  ms: number;
  body: string;
}

/** Options of an HTTP delivery, to forge or age it. */
export interface SendOptions {
  timestamp?: number;
  signature?: string;
  headers?: Record<string, string>;
}

/** `x-slack-signature` and `x-slack-request-timestamp` for a body. */
export function signSlackRequest(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)) {
  return {
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`,
  };
}

/** Drives the bot as Slack would. */
export class SlackDriver {
  constructor(
    private readonly fake: FakeSlack,
    private readonly target: DriverTarget,
  ) {}

  private get team() {
    return { id: this.fake.options.teamId, domain: 'deckhand-test' };
  }

  /** Posts a raw body, signed unless the options forge it. */
  async post(body: string, contentType: string, options: SendOptions = {}): Promise<Delivery> {
    if (this.target.kind !== 'http') throw new Error('post() needs an HTTP target');
    const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
    const signed = signSlackRequest(this.target.signingSecret, body, timestamp);
    const headers = {
      'content-type': contentType,
      ...signed,
      ...(options.signature ? { 'x-slack-signature': options.signature } : {}),
      ...options.headers,
    };
    const started = Date.now();
    const response = await fetch(this.target.url, { method: 'POST', headers, body });
    const text = await response.text();
    return { status: response.status, ms: Date.now() - started, body: text };
  }

  /** The form fields of a slash command typed by `user` in `channel`. */
  commandFields(user: SlackActor, channel: string, line: string): Record<string, string> {
    const [command = '', ...rest] = line.split(' ');
    return {
      token: 'deprecated-verification-token',
      team_id: this.team.id,
      team_domain: this.team.domain,
      channel_id: channel,
      channel_name: channel.startsWith('D') ? 'directmessage' : 'ops',
      user_id: user.id,
      user_name: user.name,
      command,
      text: rest.join(' ').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;'),
      api_app_id: 'A0TEST',
      is_enterprise_install: 'false',
      response_url: this.fake.responseUrl(),
      trigger_id: this.fake.issueTrigger(),
    };
  }

  /** Types a slash command (`/deploy mytool`). */
  async command(
    user: SlackActor,
    channel: string,
    line: string,
    options: SendOptions = {},
  ): Promise<Delivery> {
    return this.sendCommand(this.commandFields(user, channel, line), options);
  }

  /** Sends slash command fields as they are (for re-deliveries and forged requests). */
  async sendCommand(fields: Record<string, string>, options: SendOptions = {}): Promise<Delivery> {
    if (this.target.kind === 'socket') return this.envelope('slash_commands', fields);
    return this.post(new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded', options);
  }

  /** The `block_actions` payload of `user` clicking the button labelled `label` on a message. */
  clickPayload(user: SlackActor, message: FakeMessage, label: string): Record<string, unknown> {
    for (const attachment of message.attachments) {
      for (const block of (attachment.blocks ?? []) as Record<string, unknown>[]) {
        if (block.type !== 'actions') continue;
        for (const element of block.elements as Record<string, unknown>[]) {
          const text = (element.text as { text: string }).text;
          if (text !== label) continue;
          return {
            type: 'block_actions',
            team: this.team,
            user: { id: user.id, username: user.name, name: user.name, team_id: this.team.id },
            api_app_id: 'A0TEST',
            token: 'deprecated-verification-token',
            container: {
              type: 'message_attachment',
              message_ts: message.ts,
              attachment_id: 1,
              channel_id: message.channel,
              is_ephemeral: false,
              is_app_unfurl: false,
            },
            trigger_id: this.fake.issueTrigger(),
            channel: { id: message.channel, name: 'ops' },
            message: {
              type: 'message',
              ts: message.ts,
              bot_id: this.fake.options.botId,
              attachments: message.attachments,
              ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
            },
            response_url: this.fake.responseUrl(),
            actions: [
              {
                type: 'button',
                action_id: element.action_id,
                block_id: block.block_id ?? 'b1',
                text: element.text,
                ...(element.value !== undefined ? { value: element.value } : {}),
                ...(element.style ? { style: element.style } : {}),
                action_ts: `${Date.now() / 1000}`,
              },
            ],
          };
        }
      }
    }
    throw new Error(`no button labelled ${label} on message ${message.ts}`);
  }

  /** Sends an interactive payload (`payload=<json>` form, or an `interactive` envelope). */
  async interact(payload: Record<string, unknown>, options: SendOptions = {}): Promise<Delivery> {
    if (this.target.kind === 'socket') return this.envelope('interactive', payload);
    const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    return this.post(body, 'application/x-www-form-urlencoded', options);
  }

  /** Clicks a button. */
  async click(user: SlackActor, message: FakeMessage, label: string): Promise<Delivery> {
    return this.interact(this.clickPayload(user, message, label));
  }

  /** Fills in an opened modal (inputs found by their label) and submits it. */
  async submit(
    user: SlackActor,
    view: { id: string; view: Record<string, unknown> },
    answers: Record<string, string>,
  ) {
    const values: Record<string, Record<string, unknown>> = {};
    for (const block of (view.view.blocks ?? []) as Record<string, unknown>[]) {
      if (block.type !== 'input') continue;
      const label = (block.label as { text: string }).text;
      const answer = Object.entries(answers).find(([key]) => label.includes(key))?.[1];
      const element = block.element as { action_id: string };
      values[String(block.block_id)] = {
        [element.action_id]: { type: 'plain_text_input', value: answer ?? null },
      };
    }
    const payload = {
      type: 'view_submission',
      team: this.team,
      user: { id: user.id, username: user.name, name: user.name, team_id: this.team.id },
      api_app_id: 'A0TEST',
      token: 'deprecated-verification-token',
      trigger_id: this.fake.issueTrigger(),
      view: {
        ...view.view,
        id: view.id,
        team_id: this.team.id,
        app_id: 'A0TEST',
        bot_id: this.fake.options.botId,
        state: { values },
        hash: `${Date.now()}.abc`,
        root_view_id: view.id,
        previous_view_id: null,
        clear_on_close: false,
        notify_on_close: false,
      },
      response_urls: [],
      is_enterprise_install: false,
    };
    return this.interact(payload);
  }

  /** An Events API callback around `event`. */
  eventBody(event: Record<string, unknown>, eventId = `Ev${randomBytes(5).toString('hex').toUpperCase()}`) {
    return {
      token: 'deprecated-verification-token',
      team_id: this.team.id,
      api_app_id: 'A0TEST',
      event: { event_ts: `${Date.now() / 1000}`, ...event },
      type: 'event_callback',
      event_id: eventId,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ team_id: this.team.id, user_id: this.fake.options.botUserId, is_bot: true }],
    };
  }

  /** `app_home_opened`: `user` opened the app's Home tab (its App Home channel is their DM with the bot). */
  appHomeOpened(user: { id: string }, tab: 'home' | 'messages' = 'home'): Promise<Delivery> {
    return this.event(
      this.eventBody({
        type: 'app_home_opened',
        user: user.id,
        channel: `D${user.id.replace(/^U/, '')}`,
        tab,
        ...(tab === 'home' ? { view: { type: 'home', id: 'VHOME0000' } } : {}),
      }),
    );
  }

  /** Delivers an event callback (JSON over HTTP, or an `events_api` envelope). */
  async event(body: Record<string, unknown>, options: SendOptions = {}): Promise<Delivery> {
    if (this.target.kind === 'socket') return this.envelope('events_api', body);
    return this.post(JSON.stringify(body), 'application/json', options);
  }

  private async envelope(
    type: 'slash_commands' | 'interactive' | 'events_api',
    payload: unknown,
  ): Promise<Delivery> {
    const ack = await this.fake.socket.deliver(type, payload);
    return { status: 200, ms: ack.ms, body: JSON.stringify(ack.payload ?? null) };
  }
}
