/**
 * Delivery keys on posts a queued job may retry (announcements): what each messenger sends, and what
 * the fake platforms do with it, as the platforms document it.
 */

import type { Job } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import { nonceOf } from '../../adapters/discord/messenger';
import type { DraftCard } from '../../src/core/reply';
import type { WatchKind } from '../../src/core/watch';
import { silentLogger } from '../../src/log';
import { createDeliverProcessor } from '../../src/queue/deliver-processor';
import type { DeliverJobData } from '../../src/queue/queues';
import type { SubscriptionStore } from '../../src/store/subscriptions';
import { type DiscordHarness, startDiscordHarness } from '../fakes/discord/harness';
import { type SlackBot, startSlackBot, startSlackWorker } from '../fakes/slack/harness';
import { testPrefix, testRedis } from '../support/redis';
import { useStarted } from '../support/started';

const card = (id: string, delivery?: DraftCard['delivery']): DraftCard => ({
  title: `mytool: build ${id}`,
  text: 'BUILD_SUCCESS',
  footer: `build ${id}`,
  ...(delivery ? { delivery } : {}),
});

describe('the deliver processor and its posted-records', () => {
  const redis = testRedis();
  afterAll(async () => {
    await redis.quit();
  });

  it('the deliver processor posts once, with the key; a rerun after the record posts nothing', async () => {
    const posted: DraftCard[] = [];
    const kind = { name: 'build', announce: (e) => card(e.id) } as WatchKind;
    const deliver = createDeliverProcessor({
      kinds: [kind],
      cards: {
        post: async (conversationId, draft) => {
          posted.push(draft);
          return { platform: 'slack', conversationId, ref: { channel: 'C', ts: `1.${posted.length}` } };
        },
      },
      // No subscription stored: the announcement in its full format.
      subscriptions: { get: async () => undefined } as unknown as SubscriptionStore,
      redis,
      prefix: testPrefix(),
      logger: silentLogger,
    });
    const job = {
      data: {
        conversationId: 'slack:T:C',
        event: {
          tool: 'mytool',
          kind: 'build',
          id: 'b1',
          from: 'a',
          to: 'b',
          at: 1,
          detail: '',
          terminal: true,
        },
      },
    } as Job<DeliverJobData>;
    await deliver(job);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.delivery).toEqual({
      key: expect.stringMatching(/^deliver-[0-9a-f]{40}$/),
      announcement: true,
    });
    await deliver(job);
    expect(posted).toHaveLength(1);
    // Positive control: another conversation is another delivery.
    await deliver({ data: { ...job.data, conversationId: 'slack:T:D' } } as Job<DeliverJobData>);
    expect(posted).toHaveLength(2);
  });
});

describe('Discord: nonce with enforce_nonce', () => {
  let h: DiscordHarness;
  let channel: string;
  useStarted(
    () => startDiscordHarness({ mode: 'worker', workers: false }),
    (started) => {
      h = started;
      channel = h.channelConversationId;
    },
  );

  it('a retried post gets the first message back (discord-api-docs message.mdx: "that message will be returned")', async () => {
    const first = await h.app.publisher.post(channel, card('d1', { key: 'deliver-d1' }));
    const again = await h.app.publisher.post(channel, card('d1', { key: 'deliver-d1', since: Date.now() }));
    expect(again.ref.message).toBe(first.ref.message);
    const posts = h.fake.requestsTo('POST', /^\/channels\/\d+\/messages$/);
    expect(posts.map((p) => p.body)).toEqual([
      expect.objectContaining(nonceOf('deliver-d1')),
      expect.objectContaining(nonceOf('deliver-d1')),
    ]);
    expect(nonceOf('deliver-d1').nonce.length).toBeLessThanOrEqual(25);
    expect(
      h.fake.channelMessages().filter((m) => m.embeds.some((e) => JSON.stringify(e).includes('build d1'))),
    ).toHaveLength(1);
    // Positive control: another key is another message.
    const other = await h.app.publisher.post(channel, card('d2', { key: 'deliver-d2' }));
    expect(other.ref.message).not.toBe(first.ref.message);
    expect(h.fake.violations).toEqual([]);
  });

  it('the fake dedupes only with enforce_nonce: a nonce alone creates a second message, as on Discord', async () => {
    const url = `${h.fake.apiUrl}/v10/channels/${h.fake.identity.channelId}/messages`;
    const send = (body: Record<string, unknown>) =>
      fetch(url, {
        method: 'POST',
        headers: { authorization: `Bot ${h.fake.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'hello', ...body }),
      }).then((r) => r.json() as Promise<{ id: string; nonce?: string }>);
    const a = await send({ nonce: 'plain-nonce' });
    const b = await send({ nonce: 'plain-nonce' });
    expect(b.id).not.toBe(a.id);
    const c = await send({ nonce: 'plain-nonce', enforce_nonce: true });
    expect(c.id).toBe(b.id);
    expect(c.nonce).toBe('plain-nonce');
    expect(h.fake.violations).toEqual([]);
  });
});

describe('Slack: metadata carrying the key, looked up after an interrupted post', () => {
  let bot: SlackBot;
  useStarted(
    () => startSlackBot({ role: 'web' }),
    (started) => {
      bot = started;
    },
  );

  const teamId = () => bot.fake.options.teamId;
  const shown = (channel: string, id: string) =>
    bot.fake.channelMessages(channel).filter((m) => JSON.stringify(m.attachments).includes(`build ${id}`));

  it('posts the key as metadata; a retry after an interruption finds it (include_all_metadata) and posts nothing', async () => {
    const where = `slack:${teamId()}:CKEYS`;
    const first = await bot.app.publisher.post(where, card('s1', { key: 'deliver-s1' }));
    expect(bot.fake.callsOf('chat.postMessage').at(-1)?.body.metadata).toEqual({
      event_type: 'deckhand_event',
      event_payload: { key: 'deliver-s1' },
    });
    const since = Date.now() - 1000;
    const again = await bot.app.publisher.post(where, card('s1', { key: 'deliver-s1', since }));
    expect(again.ref.ts).toBe(first.ref.ts);
    expect(shown('CKEYS', 's1')).toHaveLength(1);
    expect(bot.fake.callsOf('conversations.history').at(-1)?.form).toMatchObject({
      channel: 'CKEYS',
      include_all_metadata: 'true',
    });
    // Positive control: an interrupted post that never reached Slack is posted.
    await bot.app.publisher.post(where, card('s2', { key: 'deliver-s2', since }));
    expect(shown('CKEYS', 's2')).toHaveLength(1);
    expect(bot.fake.violations).toEqual([]);
  });

  it('in a thread, the lookup reads the thread (conversations.replies)', async () => {
    const parent = await bot.app.publisher.post(`slack:${teamId()}:CTHREAD`, card('parent'));
    const where = `slack:${teamId()}:CTHREAD:${parent.ref.ts}`;
    const first = await bot.app.publisher.post(where, card('t1', { key: 'deliver-t1' }));
    const again = await bot.app.publisher.post(
      where,
      card('t1', { key: 'deliver-t1', since: Date.now() - 1000 }),
    );
    expect(again.ref.ts).toBe(first.ref.ts);
    expect(shown('CTHREAD', 't1')).toHaveLength(1);
    expect(bot.fake.callsOf('conversations.replies').at(-1)?.form).toMatchObject({ ts: parent.ref.ts });
    expect(bot.fake.violations).toEqual([]);
  });

  it('the fake returns metadata only with include_all_metadata, newest first, paged by cursor', async () => {
    const history = async (form: Record<string, string>) => {
      const response = await fetch(`${bot.fake.apiUrl}conversations.history`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${bot.fake.options.botToken}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ channel: 'CKEYS', ...form }),
      });
      return (await response.json()) as {
        messages: { ts: string; metadata?: unknown }[];
        has_more: boolean;
        response_metadata: { next_cursor: string };
      };
    };
    const plain = await history({});
    expect(plain.messages.length).toBeGreaterThanOrEqual(2);
    expect(plain.messages.some((m) => m.metadata)).toBe(false);
    const full = await history({ include_all_metadata: 'true' });
    expect(full.messages.some((m) => m.metadata)).toBe(true);
    expect(Number(full.messages[0]?.ts)).toBeGreaterThan(Number(full.messages[1]?.ts));
    const page = await history({ limit: '1' });
    expect(page.has_more).toBe(true);
    const next = await history({ limit: '1', cursor: page.response_metadata.next_cursor });
    expect(next.messages[0]?.ts).toBe(full.messages[1]?.ts);
    expect(bot.fake.violations).toEqual([]);
  });

  /** Another process: its own Slack adapter and messengers, the same Redis and configuration. */
  async function anotherProcess() {
    const other = await startSlackWorker(bot);
    return { messenger: other.messengers.for('slack'), stop: () => other.stop() };
  }

  it('a card file whose upload was cut off is looked for in the thread before it is uploaded again', async () => {
    const where = `slack:${teamId()}:CUPL`;
    const handle = await bot.app.publisher.post(where, card('u1'));
    const withFile = (name: string) => ({
      ...card('u1'),
      attachments: [{ filename: name, content: `the ${name} transcript` }],
    });
    const uploads = () => bot.fake.uploads.filter((u) => u.channel === 'CUPL').map((u) => u.filename);
    const other = await anotherProcess();
    try {
      // Process 1 shares the file but its answer is held (it dies there, as far as it knows).
      const held = bot.fake.holdNext('files.completeUploadExternal');
      const cutOff = bot.app.publisher.update(handle, withFile('tail.txt'));
      await held.arrived;
      // Process 2 finishes the card: it finds the share and uploads nothing.
      await other.messenger.update(handle, withFile('tail.txt'));
      expect(uploads()).toEqual(['tail.txt']);
      expect(bot.fake.callsOf('conversations.replies').at(-1)?.form).toMatchObject({ ts: handle.ref.ts });
      held.release();
      await cutOff;
      expect(uploads()).toEqual(['tail.txt']);

      // Positive control: an upload cut off before Slack shared it is uploaded again by process 2.
      bot.fake.script('files.completeUploadExternal', { error: 'internal_error' });
      await bot.app.publisher.update(handle, withFile('second.txt'));
      expect(uploads()).toEqual(['tail.txt']);
      await other.messenger.update(handle, withFile('second.txt'));
      expect(uploads()).toEqual(['tail.txt', 'second.txt']);
      expect(bot.fake.violations).toEqual([]);
    } finally {
      await other.stop();
    }
  });
});
