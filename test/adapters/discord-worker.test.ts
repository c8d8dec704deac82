import { describe, expect, it } from 'vitest';
import { DiscordAdapter } from '../../adapters/discord/load';
import type { AdapterContext } from '../../adapters/types';
import { ConversationGoneError } from '../../src/core/errors';
import { Messengers } from '../../src/core/messenger';
import { slashCommand } from '../fakes/discord';
import { type DiscordHarness, startDiscordHarness } from '../fakes/discord/harness';
import { useFakePlatform } from '../support/started';
import { waitFor } from '../support/wait';

let h: DiscordHarness;
let channel: string;

useFakePlatform(
  () => startDiscordHarness({ mode: 'worker' }),
  (started) => {
    h = started;
    channel = h.channelConversationId;
  },
);

/** A second process: its own adapter and messengers, sharing nothing but configuration and Redis. */
async function anotherWorker(): Promise<Messengers> {
  const messengers = new Messengers();
  const context = {
    app: { ...h.app, messengers },
    web: h.web,
    config: h.config,
    logger: h.app.services.logger,
    deduper: undefined as never,
    role: 'worker',
  } as AdapterContext;
  await new DiscordAdapter(context, { rest: { retries: 0, timeout: 5000 } }).start();
  return messengers;
}

describe('Discord adapter in a worker process', () => {
  it('receives nothing: no gateway connection and no interactions route', async () => {
    expect(h.adapter.mode).toBe('worker');
    expect(h.fake.gateway.identifies).toEqual([]);
    const response = await fetch(`${h.webUrl}/discord/interactions`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(await h.adapter.healthy()).toBe(true);
  });

  it('posts a card with the bot token, and another process edits it from the stored handle alone', async () => {
    const handle = await h.app.publisher.post(channel, {
      title: 'Build of mytool',
      text: 'Running…',
      status: 'progress',
      actions: [{ label: 'Cancel', command: 'build cancel', args: { tool: 'mytool', id: 'latest' } }],
    });
    const stored = JSON.parse(JSON.stringify(handle));
    const message = h.fake.store.messages.get(stored.ref.message);
    expect(message?.via).toBe('bot');
    const other = await anotherWorker();
    await other.for('discord').update(stored, { title: 'Build of mytool', text: 'Done.', status: 'success' });
    expect(message?.embeds[0]).toMatchObject({
      title: 'Build of mytool',
      description: 'Done.',
      color: 0x57f287,
    });
    expect(message?.components).toEqual([]);
    const edit = h.fake.requestsTo('PATCH', new RegExp(`/channels/\\d+/messages/${stored.ref.message}$`))[0];
    expect(edit?.headers.authorization).toBe(`Bot ${h.fake.token}`);
    expect(edit?.body).toMatchObject({ allowed_mentions: { parse: [] }, attachments: [] });
  });

  it('edits an ephemeral reply through its interaction token, without the bot token', async () => {
    const payload = slashCommand(h.place(), 'help', {});
    const interaction = h.fake.registerInteraction(payload);
    h.fake.applyCallback(interaction, { type: 5, data: { flags: 64 } });
    const handle = {
      platform: 'discord' as const,
      conversationId: channel,
      ref: { kind: 'interaction', token: payload.token, message: '@original' },
    };
    await h.app.messengers
      .for('discord')
      .update(handle, { text: 'Only you see this.', visibility: 'private' });
    const edit = await waitFor(() => h.fake.requestsTo('PATCH', /\/messages\/@original$/)[0]);
    expect(edit.headers.authorization).toBeUndefined();
    expect(h.fake.store.messages.get(interaction.original as string)?.embeds[0]).toMatchObject({
      description: 'Only you see this.',
    });
  });

  it('refuses to post a private card in a channel', async () => {
    await expect(
      h.app.publisher.post(channel, { text: 'secret-ish', visibility: 'private' }),
    ).rejects.toThrow(/private card/);
  });

  it('reports a channel it may not post in as gone, so deliveries stop there', async () => {
    h.fake.failNext('POST', /^\/channels\/\d+\/messages$/, 403, 50001, 'Missing Access');
    await expect(h.app.publisher.post(channel, { text: 'hello' })).rejects.toBeInstanceOf(
      ConversationGoneError,
    );
  });

  it('opens a direct message channel with a person (the same one again) and posts there', async () => {
    const person = { platform: 'discord', workspace: h.fake.identity.guildId, id: '4242', name: 'ada' };
    const direct = await h.app.messengers.openDirect(person);
    expect(await h.app.messengers.openDirect(person)).toBe(direct);
    const opens = h.fake.requestsTo('POST', /^\/users\/@me\/channels$/);
    expect(opens.map((r) => r.body)).toEqual([{ recipient_id: '4242' }, { recipient_id: '4242' }]);
    expect(opens.every((r) => r.headers.authorization === `Bot ${h.fake.token}`)).toBe(true);
    const posted = await h.app.publisher.post(direct, { title: 'Your deployment ended', status: 'success' });
    const dmChannel = direct.split(':')[2] as string;
    expect(h.fake.channelMessages(dmChannel).map((m) => m.embeds[0]?.title)).toEqual([
      'Your deployment ended',
    ]);
    expect(await h.app.messengers.linkTo(posted)).toBe(
      `https://discord.com/channels/@me/${dmChannel}/${posted.ref.message}`,
    );
  });
});
